// Invalid variants of a valid document, read off its schema: bodies a WFM must refuse, and property-test inputs.
import type { JsonSchema } from './common.ts';

export interface SchemaMutation {
  /** `missing`: a required property deleted; `wrongType`: a value replaced by one its schema's type or const forbids. */
  kind: 'missing' | 'wrongType';
  /** JSON Pointer of the changed field; validate() reports an error at exactly this path. */
  path: string;
  document: unknown;
}

/** Values of every JSON type, one integer and one non-integer number among them. */
const CANDIDATES: readonly unknown[] = [null, true, 7, 1.5, 'wrong', [], {}];

/**
 * Every mutation is invalid by construction: it only follows `properties`, `patternProperties`,
 * `additionalProperties` and `items`, which always apply, and never looks inside `anyOf`, `if` or `$ref`.
 */
export function schemaMutations(schema: JsonSchema, document: unknown): SchemaMutation[] {
  const found: { kind: SchemaMutation['kind']; at: string[]; value?: unknown }[] = [];
  const visit = (s: JsonSchema, value: unknown, at: string[]) => {
    if (at.length > 0) for (const wrong of wrongValues(s)) found.push({ kind: 'wrongType', at, value: wrong });
    if (isObject(value)) {
      for (const key of (s.required as string[] | undefined) ?? []) {
        if (Object.hasOwn(value, key)) found.push({ kind: 'missing', at: [...at, key] });
      }
      for (const [key, child] of Object.entries(value)) {
        const sub = subschema(s, key);
        if (sub) visit(sub, child, [...at, key]);
      }
    } else if (Array.isArray(value) && isObject(s.items)) {
      value.forEach((child, i) => visit(s.items as JsonSchema, child, [...at, String(i)]));
    }
  };
  visit(schema, document, []);
  return found.map(({ kind, at, value }) => ({
    kind,
    path: '/' + at.map((seg) => seg.replace(/~/g, '~0').replace(/\//g, '~1')).join('/'),
    document: changed(document, at, kind === 'missing' ? { delete: true } : { value }),
  }));
}

function subschema(s: JsonSchema, key: string): JsonSchema | undefined {
  const props = s.properties as Record<string, unknown> | undefined;
  if (props && Object.hasOwn(props, key) && isObject(props[key])) return props[key];
  for (const [pattern, sub] of Object.entries((s.patternProperties as Record<string, unknown>) ?? {})) {
    if (new RegExp(pattern, 'u').test(key)) return isObject(sub) ? sub : undefined;
  }
  if (props && Object.hasOwn(props, key)) return undefined;
  return isObject(s.additionalProperties) ? s.additionalProperties : undefined;
}

function wrongValues(s: JsonSchema): unknown[] {
  if (s.type !== undefined) {
    const types = ([] as string[]).concat(s.type as string | string[]);
    return CANDIDATES.filter((c) => !types.some((t) => hasType(c, t)));
  }
  if ('const' in s) return CANDIDATES.filter((c) => JSON.stringify(c) !== JSON.stringify(s.const));
  const allowed = s.enum;
  if (Array.isArray(allowed)) return CANDIDATES.filter((c) => !allowed.some((e) => JSON.stringify(e) === JSON.stringify(c)));
  return [];
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'integer':
      return Number.isInteger(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    default:
      return typeof value === type;
  }
}

function changed(document: unknown, at: string[], change: { delete: true } | { value: unknown }): unknown {
  const copy = structuredClone(document);
  let parent = copy as Record<string, unknown>;
  for (const seg of at.slice(0, -1)) parent = parent[seg] as Record<string, unknown>;
  const last = at[at.length - 1]!;
  if ('delete' in change) delete parent[last];
  else parent[last] = structuredClone(change.value);
  return copy;
}

function isObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
