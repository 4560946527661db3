/**
 * Building command units from mapped text, shared by the extracting input kinds. Pure.
 */
import type { CommandUnit, Dialect, Profile } from '../core/types.js';
import type { MappedText } from './mapped-text.js';

/**
 * A unit whose text is `code` (each character mapped into `hostText`), in `dialect`. A unit of
 * granularity `script` is a whole script (its top-level statements are checked one by one); one
 * of granularity `command` is one command line (`sh -c …`). `emptyHost` is the host offset an
 * empty text maps to. The origin kind is `script`: path checks take the file's directory and the
 * project as the working directories.
 */
export function mappedUnit(file: string, hostText: string, code: MappedText, dialect: Dialect, profile: Profile, granularity: 'script' | 'command', emptyHost = 0): CommandUnit {
  return {
    text: code.text,
    hostText,
    dialect,
    granularity,
    profile,
    origin: { file, kind: 'script' },
    sourceMap: code.toSourceMap(emptyHost),
  };
}
