// Validators kept on disk as ajv's standalone code. Compiling the Compose Specification's schema costs about 300 ms of
// CPU and the resource schemas about 100; the kit starts hundreds of processes in a test run (Playwright workers, fleet
// workers, embedded services) that each validate, and loading the compiled code costs about 20 ms. The file's name is
// the hash of ajv's version, the options and the schema, so a changed schema or ajv is compiled again. Same idea and
// folder rules as bin/typescript-hooks.mjs.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Ajv, Options, ValidateFunction } from 'ajv';

const require = createRequire(import.meta.url);
const AJV_VERSION = (require('ajv/package.json') as { version: string }).version;
const CACHE = join(tmpdir(), `wfmck-ajv-${process.getuid?.() ?? 'user'}`);

export interface CompiledSchema {
  /** Names the ajv flavour and its plugins, so two flavours never share a file (e.g. `draft-07`, `2020+formats`). */
  flavour: string;
  options: Options;
  schema: object;
  /** An ajv instance of the flavour, with `options` and `code.source` on: called only when the cache has no file. */
  ajv(options: Options): Ajv;
  /** The folder of the compiled files (default: `wfmck-ajv-<uid>` in the temporary folder). */
  dir?: string;
}

/** The schema's validator: from the cache when an earlier process compiled it, else compiled here and kept. */
export function compiledValidator(c: CompiledSchema): ValidateFunction {
  const key = `${AJV_VERSION}\0${c.flavour}\0${JSON.stringify(c.options)}\0${JSON.stringify(c.schema)}`;
  const dir = privateFolder(c.dir ?? CACHE);
  const file = dir && join(dir, `${createHash('sha256').update(key).digest('hex').slice(0, 40)}.cjs`);
  try {
    if (!file) throw new Error('no cache folder');
    return evaluate(readFileSync(file, 'utf8'));
  } catch {
    const ajv = c.ajv({ ...c.options, code: { ...c.options.code, source: true } });
    const validate = ajv.compile(c.schema);
    const standalone = require('ajv/dist/standalone') as { default: (ajv: Ajv, v: ValidateFunction) => string };
    if (file) keep(file, standalone.default(ajv, validate));
    return validate;
  }
}

/** Standalone code is a CommonJS module that requires ajv's runtime pieces, resolved here, where ajv is installed. */
function evaluate(code: string): ValidateFunction {
  const module = { exports: {} as unknown };
  new Function('require', 'module', 'exports', code)(require, module, module.exports);
  const validate = module.exports as ValidateFunction;
  if (typeof validate !== 'function') throw new Error('not a compiled validator');
  return validate;
}

/**
 * The cache folder, made if absent, when this user alone can write it; else none (the schema is compiled in memory):
 * code read from a folder another user could fill would be theirs to choose.
 */
function privateFolder(dir: string): string | undefined {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const s = statSync(dir);
    const own = process.getuid === undefined || s.uid === process.getuid();
    return s.isDirectory() && own && (s.mode & 0o022) === 0 ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** Written whole or not at all (another process may be writing the same file); a cache that cannot be written is none. */
function keep(file: string, code: string): void {
  try {
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, code);
    renameSync(partial, file);
  } catch {
    // the next process compiles the schema again
  }
}
