/**
 * Precision benchmark: shellward's `check` engine (the library's `verdictFor`, no permission
 * rules) over the labelled set of real agent commands in bench/precision/commands.jsonl, beside
 * the current release's recorded decisions (bench/precision/baseline.json). A benchmark, not a
 * test; run it as `npm run bench:precision` (or `node dist/bench/precision-bench.js` after a
 * build).
 *
 * Prints, for both columns: decision accuracy (decision = label, `deny` counting as not
 * allowed), the auto-allow rate of the harmless commands, and the number of unsafe allows
 * (commands labelled `ask` that were allowed; must be 0), each unsafe allow listed; then the
 * rows whose decision changed.
 *
 * Then the sandbox proof (skipped, with the reason, when no sandbox is available, or with
 * `--no-sandbox`): every command this build allows runs under shellward's own sandbox
 * (`runSandboxBatch`, bubblewrap on Linux) in a copy of the scratch project, classified
 * read-only — without a rule, an allow must mean "writes nothing" — and any
 * `sandbox-wrote-files` finding is listed.
 *
 * Options: `--baseline FILE` (default bench/precision/baseline.json), `--changes N` (rows of the
 * change list shown, default 40), `--no-sandbox`. Exit status 1 when this build has an unsafe
 * allow, a command wrote files in the sandbox, or a sandbox run could not be made.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Linter } from '../src/lint.js';
import { SANDBOX_WROTE_FILES } from '../src/checks/sandbox/sandbox-rules.js';
import { runSandboxBatch, type BatchCall } from '../src/sandbox/batch.js';
import { verdictFor, type Decision } from '../src/verdict.js';
import {
  BASELINE_FILE,
  BENCH_HOME,
  loadPrecisionSet,
  loadRecorded,
  makeScratchProject,
  scorePrecision,
  type PrecisionRow,
  type PrecisionScore,
} from './precision/set.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

const pct = (n: number, d: number): string => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)}% (${n}/${d})`);

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n') + '\n';
}

/** One line for a command in a list: id, the command with newlines shown as ⏎, cut at 140 characters. */
function shown(r: PrecisionRow): string {
  const c = r.command.replace(/\n/g, ' ⏎ ');
  return `${r.id}  ${c.length > 140 ? `${c.slice(0, 139)}…` : c}${r.cwd ? `  (cwd ${r.cwd})` : ''}`;
}

function column(s: PrecisionScore): string[] {
  return [pct(s.correct, s.rows), pct(s.harmlessAllowed, s.harmless), String(s.unsafeAllows.length)];
}

async function main(): Promise<void> {
  const rows = loadPrecisionSet();
  const baseline = loadRecorded(arg('--baseline') ?? BASELINE_FILE);
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'shellward-precision-')));
  let failed = false;
  try {
    makeScratchProject(scratch);
    const linter = await Linter.create({ pathHost: { home: BENCH_HOME } });
    const decisions: Record<string, Decision> = {};
    const reasons: Record<string, string> = {};
    for (const r of rows) {
      const v = verdictFor(r.command, { cwd: r.cwd ?? scratch }, linter);
      decisions[r.id] = v.decision;
      reasons[r.id] = v.reason;
    }
    const harmless = rows.filter((r) => r.label === 'allow').length;
    const before = scorePrecision(rows, baseline.decisions);
    const after = scorePrecision(rows, decisions);
    const out: string[] = [];
    out.push(`Precision set: ${rows.length} commands, ${harmless} harmless (label allow), ${rows.length - harmless} not (label ask); no permission rules.`);
    if (before.missing > 0) out.push(`The baseline has no decision for ${before.missing} rows (recorded on an older set): its column leaves them out.`);
    out.push('');
    out.push(
      table(
        ['', `current release (${baseline.shellward})`, 'this build'],
        [
          ['decision accuracy', column(before)[0]!, column(after)[0]!],
          ['auto-allow rate of harmless commands', column(before)[1]!, column(after)[1]!],
          ['unsafe allows (must be 0)', column(before)[2]!, column(after)[2]!],
        ],
      ),
    );
    for (const [name, s] of [['current release', before], ['this build', after]] as const) {
      if (s.unsafeAllows.length === 0) continue;
      out.push(`Unsafe allows of ${name}:`);
      for (const r of s.unsafeAllows) out.push(`  ${shown(r)}\n      label ask: ${r.why}`);
      out.push('');
    }
    if (after.unsafeAllows.length > 0) failed = true;
    const changed = rows.filter((r) => baseline.decisions[r.id] !== undefined && baseline.decisions[r.id] !== decisions[r.id]);
    const limit = Number(arg('--changes') ?? 40);
    out.push(`Decisions changed since the current release: ${changed.length}`);
    for (const r of changed.slice(0, Number.isFinite(limit) ? limit : 40)) {
      out.push(`  ${baseline.decisions[r.id]} -> ${decisions[r.id]} [label ${r.label}]  ${shown(r)}`);
      if (decisions[r.id] !== 'allow') out.push(`      ${reasons[r.id]!.split('\n')[0]!.slice(0, 160)}`);
    }
    if (changed.length > limit) out.push(`  … ${changed.length - limit} more (--changes N)`);
    process.stdout.write(out.join('\n') + '\n');

    if (process.argv.includes('--no-sandbox')) {
      process.stdout.write('\nSandbox proof: skipped (--no-sandbox).\n');
    } else {
      const allowed = rows.filter((r) => decisions[r.id] === 'allow');
      // Without rules an allow must mean "writes nothing": every allowed command runs classified
      // read-only, so any file it writes in the project copy is a sandbox-wrote-files finding.
      const calls: BatchCall[] = allowed.map((r) => ({ command: r.command, cwd: scratch, verdict: { decision: 'allow', reason: reasons[r.id]!, readOnly: true } }));
      process.stdout.write(`\nSandbox proof: running the ${allowed.length} allowed commands in a copy of the scratch project …\n`);
      const t0 = performance.now();
      const batch = await runSandboxBatch(calls, {
        limit: Math.max(1, calls.length),
        timeoutMs: 20_000,
        onRun: (done, total) => {
          if (done % 50 === 0 || done === total) process.stderr.write(`  sandbox: ${done}/${total}\n`);
        },
      });
      if (batch.status === 'unavailable') {
        process.stdout.write(`Sandbox proof: skipped — no sandbox available (${batch.reason}: ${batch.message}).\n`);
      } else {
        const wrote: string[] = [];
        const errors: string[] = [];
        batch.entries.forEach((e, i) => {
          const r = allowed[i]!;
          if (e.status === 'error') errors.push(`  ${shown(r)}\n      ${e.message}`);
          if (e.status !== 'ran') return;
          const f = e.run.result.findings.find((x) => x.ruleId === SANDBOX_WROTE_FILES.id);
          if (f) wrote.push(`  ${shown(r)}\n      ${f.message}`);
        });
        const c = batch.counts;
        process.stdout.write(
          `Sandbox proof: ${c.ran} distinct commands ran in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${SANDBOX_WROTE_FILES.id}: ${wrote.length} (must be 0); runs that could not be made: ${c.errors}.\n`,
        );
        if (wrote.length > 0) process.stdout.write(`Commands that wrote files:\n${wrote.join('\n')}\n`);
        if (errors.length > 0) process.stdout.write(`Runs that could not be made:\n${errors.join('\n')}\n`);
        if (wrote.length > 0 || errors.length > 0 || c.overLimit > 0) failed = true;
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  if (failed) process.exitCode = 1;
}

await main();
