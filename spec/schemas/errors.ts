// Turns ajv errors into `path: message` lines that name the offending field.
import type { ErrorObject } from 'ajv';

export interface SchemaError {
  /** JSON Pointer of the field at fault; for a missing or extra property, the pointer it would have. `/` is the root. */
  path: string;
  message: string;
}

export function toSchemaErrors(errors: readonly ErrorObject[] | null | undefined): SchemaError[] {
  const out: SchemaError[] = [];
  const seen = new Set<string>();
  for (const e of errors ?? []) {
    const error = describe(e);
    const key = `${error.path}\u0000${error.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(error);
    }
  }
  return out;
}

/** One line per error, for evidence and assertion messages. */
export function formatSchemaErrors(errors: readonly SchemaError[]): string {
  return errors.map((e) => `${e.path}: ${e.message}`).join('\n');
}

function describe(e: ErrorObject): SchemaError {
  const at = (child?: string) => (child === undefined ? e.instancePath : `${e.instancePath}/${escapePointer(child)}`) || '/';
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return { path: at(String(params.missingProperty)), message: 'is required' };
    case 'additionalProperties':
      return { path: at(String(params.additionalProperty)), message: 'is not allowed' };
    case 'type':
      return { path: at(), message: `must be ${String(params.type).split(',').join(' or ')}` };
    case 'const':
      return { path: at(), message: `must be ${JSON.stringify(params.allowedValue)}` };
    case 'enum':
      return { path: at(), message: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` };
    default:
      return { path: at(), message: e.message ?? e.keyword };
  }
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
