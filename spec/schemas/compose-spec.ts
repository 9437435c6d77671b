// §2.7: a component's compose.yaml MUST conform to the Compose Specification; checked against spec/data's copy.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import { compiledValidator } from './compiled.ts';
import { toSchemaErrors, type SchemaError } from './errors.ts';

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

let check: ValidateFunction | undefined;

/** `doc` is the parsed YAML. The schema leaves `services` optional and allows only `x-` keys beyond its own. */
export function validateComposeSpec(doc: unknown): { ok: true } | { ok: false; errors: SchemaError[] } {
  check ??= compile();
  return check(doc) ? { ok: true } : { ok: false, errors: toSchemaErrors(check.errors) };
}

function compile(): ValidateFunction {
  const schema = JSON.parse(readFileSync(new URL('../data/compose-spec.schema.json', import.meta.url), 'utf8'));
  // The file names draft-07 by its https URL, which ajv does not register; the http id is the same meta-schema.
  if (!/^https?:\/\/json-schema\.org\/draft-07\/schema#?$/.test(schema.$schema)) {
    throw new Error(`compose-spec.schema.json declares ${schema.$schema}; expected draft-07`);
  }
  return compiledValidator({
    flavour: 'draft-07',
    // strict off: the upstream schema uses annotations ajv's strict mode flags (e.g. `deprecated` in draft-07).
    options: { allErrors: true, strict: false },
    schema: { ...schema, $schema: DRAFT_07 },
    ajv: (options) => new (createRequire(import.meta.url)('ajv') as typeof import('ajv')).Ajv(options),
  });
}
