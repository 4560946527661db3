/**
 * Validation of SARIF logs against the official SARIF 2.1.0 JSON schema (OASIS errata 01, a copy
 * in schemas/sarif-schema-2.1.0.json). Shared by the report, CLI and corpus tests.
 */
import { readFileSync } from 'node:fs';
import ajvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

// Both packages are CommonJS with `exports.default`; under NodeNext the default import is the
// module object, so take `.default` (the class / plugin function).
const AjvDraft04 = ajvDraft04.default;
const addFormats = ajvFormats.default;

/** Path of the SARIF 2.1.0 schema inside the repository. */
export const SARIF_SCHEMA_PATH = new URL('../../schemas/sarif-schema-2.1.0.json', import.meta.url);

let validator: ValidateFunction | undefined;

function compile(): ValidateFunction {
  if (validator === undefined) {
    const schema = JSON.parse(readFileSync(SARIF_SCHEMA_PATH, 'utf8')) as object;
    // The schema is draft-04 and uses keywords strict mode rejects; formats `uri`,
    // `uri-reference` and `date-time` come from ajv-formats.
    const ajv = new AjvDraft04({ strict: false, allErrors: true });
    addFormats(ajv);
    validator = ajv.compile(schema);
    return validator;
  }
  return validator;
}

/**
 * Validates `log` (a parsed SARIF document) against the SARIF 2.1.0 schema. Returns one readable
 * line per error (`/runs/0/results/0/level: must be equal to one of the allowed values`), or an
 * empty array when the log is valid.
 */
export function validateSarif(log: unknown): string[] {
  const validate = compile();
  if (validate(log)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'}: ${e.message ?? 'invalid'}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
}
