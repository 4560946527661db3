import { describe, expect, it } from 'vitest';
import { escapeData, escapeProperty, formatGithub, workflowCommand } from '../../src/report/github.js';
import type { Diagnostic } from '../../src/core/types.js';
import { RULES } from '../../src/checks/index.js';

function diag(severity: Diagnostic['severity'], line: number, message = 'msg', endLine = line): Diagnostic {
  return {
    ruleId: 'rm-force',
    severity,
    message,
    file: 'a.sh',
    range: { start: { line, column: 3 }, end: { line: endLine, column: 9 } },
    fingerprint: 'x:1',
  };
}

describe('github workflow commands', () => {
  it('escapes data and properties as @actions/core does', () => {
    expect(escapeData('50% done\r\nnext')).toBe('50%25 done%0D%0Anext');
    expect(escapeProperty('dir,with:colon%.sh')).toBe('dir%2Cwith%3Acolon%25.sh');
  });

  it('renders one command per finding with positions and the rule id as title', () => {
    expect(workflowCommand('dir/a b.sh', diag('warning', 4, 'line1\nline2'))).toBe(
      '::warning file=dir/a b.sh,line=4,endLine=4,col=3,endColumn=9,title=rm-force::line1%0Aline2',
    );
    // Multi-line regions carry no columns (GitHub ignores them there).
    expect(workflowCommand('a.sh', diag('note', 2, 'm', 5))).toBe('::notice file=a.sh,line=2,endLine=5,title=rm-force::m');
  });

  it('prints the most severe first, then the summary', () => {
    const out = formatGithub({
      results: [
        { file: 'a.sh', diagnostics: [diag('note', 1), diag('warning', 2)] },
        { file: 'b.sh', diagnostics: [diag('error', 9)] },
      ],
      rules: RULES,
      toolVersion: '0.0.0',
      filesAnalysed: 2,
    });
    expect(out.split('\n')).toEqual([
      '::error file=b.sh,line=9,endLine=9,col=3,endColumn=9,title=rm-force::msg',
      '::warning file=a.sh,line=2,endLine=2,col=3,endColumn=9,title=rm-force::msg',
      '::notice file=a.sh,line=1,endLine=1,col=3,endColumn=9,title=rm-force::msg',
      '3 problems (1 error, 1 warning, 1 note) in 2 files; 2 files checked',
      '',
    ]);
  });
});
