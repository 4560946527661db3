import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globals: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'threads',
    setupFiles: ['test/setup.ts'],
  },
});
