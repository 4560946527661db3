/**
 * Dockerfiles and Containerfiles: the shell code of `RUN` (and `ONBUILD RUN`) instructions, read
 * as BuildKit reads them (https://docs.docker.com/reference/dockerfile/):
 * - the `# escape=` parser directive chooses the line-continuation character (`\` or `` ` ``); a
 *   continuation joins the lines (the escape character and the line break are removed, as BuildKit
 *   does before handing the command to the shell), comment lines and empty lines inside a
 *   continued instruction are dropped;
 * - flags (`--mount=…`, `--network=…`) before the command are skipped;
 * - the shell form runs as `SHELL` says, by default `/bin/sh -c`: one unit of granularity
 *   `command`; `SHELL ["/bin/bash", "-o", "pipefail", "-c"]` makes later `RUN`s of the stage
 *   bash, a non-POSIX `SHELL` (PowerShell, cmd) makes them reported as not analysed; a stage
 *   built `FROM` an earlier stage inherits its shell;
 * - heredocs (`RUN <<EOF … EOF`, also `<<-`, quoted delimiters, several per instruction): a `RUN`
 *   that is only a heredoc runs its body as a script (its shebang, else the shell); otherwise the
 *   command and its heredoc bodies are one script for the shell;
 * - the exec form (`RUN ["executable", "arg"]`, valid JSON) runs without a shell: its argv is
 *   analysed as a direct execution (a `["bash", "-c", "…"]` argv as its script).
 * Every character of a unit maps to its place in the file. A `RUN` writes into the image being
 * built, so `/` is one of its working directories (path checks do not call `/opt` outside). Pure.
 */
import type { Dialect } from '../../core/types.js';
import { baseName, NOTE_RULE_IDS, type ExtractedUnit, type Extraction, type ReadContext, type SourceNote, type TextKind } from '../kind.js';
import { MappedText } from '../mapped-text.js';
import { dialectFromShebang } from '../script.js';
import { argvToShell, dialectOfShell } from '../transcript/argv.js';
import { decodeStringAt } from '../transcript/json-text.js';
import { mappedUnit } from '../units.js';
import { physicalLines, type PhysLine } from '../physical-lines.js';

/** Whether `path` names a Dockerfile: `Dockerfile`, `Containerfile`, `*.Dockerfile`, `Dockerfile.*` (any case). */
export function isDockerfilePath(path: string): boolean {
  const b = baseName(path).toLowerCase();
  if (b === 'dockerfile' || b === 'containerfile') return true;
  if (/^(?:dockerfile|containerfile)\.[\w.-]+$/.test(b)) return !/\.(?:md|txt|json|ya?ml|sh|bak|orig|swp)$/.test(b);
  return /^[\w.-]+\.(?:dockerfile|containerfile)$/.test(b);
}

/** The shell a stage runs `RUN` in: a dialect, or another program; `line` is where SHELL set it. */
type StageShell = { readonly dialect: Dialect; readonly line?: number } | { readonly other: string; readonly line: number };

const DEFAULT_SHELL: StageShell = { dialect: 'sh' };

/** The JSON array of strings at the start of `code` (after blanks), each element mapped; or `undefined`. */
function jsonArgv(code: MappedText): MappedText[] | undefined {
  const s = code.text;
  let i = 0;
  const ws = (): void => {
    while (i < s.length && /\s/.test(s[i]!)) i++;
  };
  ws();
  if (s[i] !== '[') return undefined;
  i++;
  const out: MappedText[] = [];
  ws();
  if (s[i] === ']') {
    i++;
    ws();
    return i === s.length ? out : undefined;
  }
  for (;;) {
    ws();
    const d = decodeStringAt(code, i);
    if (!d) return undefined;
    out.push(d.value);
    i = d.end;
    ws();
    if (s[i] === ',') {
      i++;
      continue;
    }
    if (s[i] === ']') {
      i++;
      ws();
      return i === s.length ? out : undefined;
    }
    return undefined;
  }
}

/** Skips leading `--flag[=value]` words of a RUN; returns the offset of the command in `code`. */
function skipFlags(code: string): number {
  let i = 0;
  for (;;) {
    while (i < code.length && (code[i] === ' ' || code[i] === '\t')) i++;
    if (!code.startsWith('--', i)) return i;
    while (i < code.length && code[i] !== ' ' && code[i] !== '\t') i++;
  }
}

interface Heredoc {
  readonly name: string;
  readonly stripTabs: boolean;
}

/** The heredoc markers of a command line, in order (`<<EOF`, `<<-"EOF"`, `<<'EOF'`). */
function heredocMarkers(code: string): Heredoc[] {
  const out: Heredoc[] = [];
  const re = /<<(-?)(["']?)([A-Za-z_][\w.-]*)\2/g;
  for (const m of code.matchAll(re)) out.push({ name: m[3]!, stripTabs: m[1] === '-' });
  return out;
}

/** Reads one Dockerfile. */
function extractDockerfile(text: string, ctx: ReadContext): Extraction {
  const lines = physicalLines(text);
  const units: ExtractedUnit[] = [];
  const notes: SourceNote[] = [];
  // Parser directives: `# key=value` lines at the very top.
  let escapeChar = '\\';
  let li = 0;
  for (; li < lines.length; li++) {
    const l = text.slice(lines[li]!.start, lines[li]!.end);
    const m = /^#\s*([A-Za-z][\w-]*)\s*=\s*(.*?)\s*$/.exec(l);
    if (!m) break;
    if (m[1]!.toLowerCase() === 'escape' && (m[2] === '`' || m[2] === '\\')) escapeChar = m[2];
  }
  const stageShells = new Map<string, StageShell>();
  let shell: StageShell = DEFAULT_SHELL;
  // The stage being read (its `AS` name), for SHELL to record.
  let currentStage: string | undefined;
  const continues = (l: PhysLine): number | undefined => {
    // Offset of the escape character when the line ends with it (blanks after it are allowed).
    let e = l.end;
    while (e > l.start && (text[e - 1] === ' ' || text[e - 1] === '\t')) e--;
    return e > l.start && text[e - 1] === escapeChar ? e - 1 : undefined;
  };
  while (li < lines.length) {
    const first = lines[li]!;
    const raw = text.slice(first.start, first.end);
    const lead = /^\s*/.exec(raw)![0].length;
    if (raw.trim() === '' || raw[lead] === '#') {
      li++;
      continue;
    }
    const startLine = li;
    // The logical instruction: continued lines joined, comment and empty lines inside dropped.
    const inst = new MappedText();
    let l = first;
    let from = first.start + lead;
    for (;;) {
      const esc = continues(l);
      inst.copy(text, from, esc ?? l.end);
      li++;
      if (esc === undefined) break;
      while (li < lines.length) {
        const t = text.slice(lines[li]!.start, lines[li]!.end);
        if (t.trim() === '' || /^\s*#/.test(t)) li++;
        else break;
      }
      if (li >= lines.length) break;
      l = lines[li]!;
      from = l.start;
    }
    const m = /^([A-Za-z]+)(?=\s|$)/.exec(inst.text);
    if (!m) continue;
    let keyword = m[1]!.toUpperCase();
    let rest = inst.slice(m[0].length, inst.length);
    if (keyword === 'ONBUILD') {
      const k = /^\s+([A-Za-z]+)(?=\s|$)/.exec(rest.text);
      if (!k) continue;
      keyword = k[1]!.toUpperCase() === 'RUN' ? 'RUN' : 'ONBUILD';
      rest = rest.slice(k[0].length, rest.length);
    }
    if (keyword === 'FROM') {
      // `FROM image [AS name]`: a stage from an earlier stage keeps its shell.
      const words = rest.text.trim().split(/\s+/).filter((w) => !w.startsWith('--'));
      const base = words[0]?.toLowerCase() ?? '';
      shell = stageShells.get(base) ?? DEFAULT_SHELL;
      const as = words.findIndex((w) => w.toLowerCase() === 'as');
      if (as !== -1 && words[as + 1]) stageShells.set(words[as + 1]!.toLowerCase(), shell);
      currentStage = as !== -1 && words[as + 1] ? words[as + 1]!.toLowerCase() : undefined;
      continue;
    }
    if (keyword === 'SHELL') {
      const argv = jsonArgv(rest);
      const prog = argv?.[0]?.text;
      const dialect = dialectOfShell(prog);
      const line = startLine + 1;
      shell = dialect ? { dialect, line } : { other: prog !== undefined ? baseName(prog) : rest.text.trim(), line };
      if (currentStage) stageShells.set(currentStage, shell);
      continue;
    }
    if (keyword !== 'RUN') continue;
    const cmdAt = skipFlags(rest.text);
    let code = rest.slice(cmdAt, rest.length);
    // Heredoc bodies follow the instruction's last line.
    const docs = heredocMarkers(code.text);
    const bodies: MappedText[] = [];
    if (docs.length > 0) {
      const withDocs = new MappedText();
      for (let i = 0; i < code.length; i++) withDocs.pushFrom(code, i);
      for (const d of docs) {
        const body = new MappedText();
        let closed = false;
        while (li < lines.length) {
          const pl = lines[li]!;
          const t = text.slice(pl.start, pl.end);
          li++;
          withDocs.push('\n', pl.start > 0 ? pl.start - 1 : 0);
          withDocs.copy(text, pl.start, pl.end);
          const cmp = d.stripTabs ? t.replace(/^\t+/, '') : t;
          if (cmp === d.name) {
            closed = true;
            break;
          }
          if (body.length > 0) body.push('\n', pl.start - 1);
          const skip = d.stripTabs ? t.length - t.replace(/^\t+/, '').length : 0;
          body.copy(text, pl.start + skip, pl.end);
        }
        if (closed && body.length > 0) body.push('\n', body.hostAt(body.length - 1)! + 1);
        bodies.push(body);
      }
      code = withDocs;
    }
    if ('other' in shell) {
      notes.push({
        ruleId: NOTE_RULE_IDS.shellNotAnalysed,
        message: `This RUN runs in \`${shell.other}\` (SHELL on line ${shell.line}), not a POSIX shell: it was not analysed.`,
        span: { start: first.start + lead, end: first.start + lead + 3 },
        data: { shell: shell.other },
      });
      continue;
    }
    const dialect = shell.dialect;
    const at = first.start + lead;
    if (docs.length === 0) {
      const argv = jsonArgv(code);
      if (argv) {
        const sh = argvToShell(argv, dialect);
        if (!sh || sh.kind === 'edit') continue;
        if (sh.kind === 'foreign') {
          notes.push({ ruleId: NOTE_RULE_IDS.shellNotAnalysed, message: `This RUN runs \`${sh.shell}\`, not a POSIX shell: it was not analysed.`, span: { start: at, end: at + 3 }, data: { shell: sh.shell } });
          continue;
        }
        const unit = mappedUnit(ctx.file, text, sh.text, sh.dialect, ctx.profile, 'command', at);
        units.push({ unit: sh.directExec ? { ...unit, context: { directExec: true } } : unit, kind: 'dockerfile-run' });
        continue;
      }
      if (code.text.trim() === '') continue;
      units.push({ unit: mappedUnit(ctx.file, text, code, dialect, ctx.profile, 'command', at), kind: 'dockerfile-run' });
      continue;
    }
    // Only a heredoc: its body is the script (with its own shebang, if any).
    const only = /^\s*<<-?(["']?)[A-Za-z_][\w.-]*\1\s*$/.test(code.text.split('\n')[0] ?? '') && docs.length === 1;
    if (only) {
      const body = bodies[0]!;
      const nl = body.text.indexOf('\n');
      const firstLine = nl === -1 ? body.text : body.text.slice(0, nl);
      let d: Dialect | undefined = dialect;
      if (firstLine.startsWith('#!')) {
        d = dialectFromShebang(firstLine);
        if (!d) {
          notes.push({ ruleId: NOTE_RULE_IDS.shellNotAnalysed, message: `This RUN's heredoc runs \`${firstLine.slice(2).trim()}\` (its shebang), not a POSIX shell: it was not analysed.`, span: { start: at, end: at + 3 }, data: { shell: firstLine.slice(2).trim() } });
          continue;
        }
      }
      units.push({ unit: mappedUnit(ctx.file, text, body, d, ctx.profile, 'script', at), kind: 'dockerfile-run' });
      continue;
    }
    units.push({ unit: mappedUnit(ctx.file, text, code, dialect, ctx.profile, 'script', at), kind: 'dockerfile-run' });
  }
  // A RUN writes into the image being built, not the host: no path there is outside its reach.
  return { units: units.map((u) => ({ ...u, unit: { ...u.unit, context: { ...u.unit.context, additionalDirectories: ['/'] } } })), notes };
}

/** Dockerfiles and Containerfiles. */
export const DOCKERFILE: TextKind = {
  id: 'dockerfile',
  title: 'Dockerfile',
  read: 'text',
  profileKey: 'script',
  matchesName: (path) => isDockerfilePath(path),
  extract: extractDockerfile,
};
