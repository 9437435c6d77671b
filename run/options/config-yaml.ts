// wfmck.config.yaml (or --config FILE) read as the flat map of dotted setting keys run/options/config.ts resolves.
import { existsSync, readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { UsageError } from './usage.ts';
import { didYouMeanKey } from './suggest.ts';
import { yamlErrorMessage } from './yaml-error.ts';

/** The YAML file's values by dotted key; an unknown key, a non-mapping or bad YAML is a usage error. */
export function readConfigYaml(path: string, keys: readonly string[]): Map<string, unknown> {
  if (!existsSync(path)) throw new UsageError(`--config: no such file ${path}`);
  const source = readFileSync(path, 'utf8');
  let doc: unknown;
  try {
    doc = parseYaml(source) ?? {};
  } catch (e) {
    throw new UsageError(yamlErrorMessage(path, source, e));
  }
  const out = new Map<string, unknown>();
  flatten(doc, '', path, keys, out);
  return out;
}

function flatten(node: unknown, prefix: string, path: string, keys: readonly string[], out: Map<string, unknown>): void {
  if (typeof node !== 'object' || node === null || Array.isArray(node))
    throw new UsageError(`${path}: ${prefix || 'the top level'} must be a mapping`);
  for (const [k, value] of Object.entries(node)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (keys.includes(key)) out.set(key, value);
    else if (keys.some((f) => f.startsWith(`${key}.`))) flatten(value, key, path, keys, out);
    else throw new UsageError(`${path}: unknown key "${key}"${didYouMeanKey(key, keys)}`);
  }
}
