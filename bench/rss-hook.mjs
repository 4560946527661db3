// Loaded with `node --import` by bench/pathological-bench.ts: reports the process's peak resident
// set size (kilobytes) and its CPU time (user + system, microseconds), both from getrusage, on
// standard error when it exits, so a whole CLI run can be measured without /usr/bin/time.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  const usage = process.resourceUsage();
  writeSync(2, `\nSHELLWARD_BENCH_MAXRSS_KB=${usage.maxRSS}\nSHELLWARD_BENCH_CPU_US=${usage.userCPUTime + usage.systemCPUTime}\n`);
});
