// Loaded with `node --import` by bench/pathological-bench.ts: reports the process's peak resident
// set size (kilobytes, from getrusage) on standard error when it exits, so a whole CLI run can be
// measured without /usr/bin/time.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  writeSync(2, `\nSHELLWARD_BENCH_MAXRSS_KB=${process.resourceUsage().maxRSS}\n`);
});
