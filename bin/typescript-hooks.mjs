// Node's module hooks for the kit's TypeScript (bin/typescript.mjs registers them): a .ts file is handed to esbuild,
// which strips its types and changes nothing else, and the JavaScript is kept on disk under the hash of its path,
// source and settings, so the next process reads what an earlier one made. Everything else loads as Node loads it.
// Why not tsx: its hooks cost every process about half a second of CPU at start (loading itself in two threads and
// resolving every import again), and the kit starts hundreds of processes in a test run; these cost a tenth of that.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// What the project's tsconfig.json says that changes the JavaScript made (isolated modules, as tsc checks them).
const OPTIONS = {
  loader: 'ts',
  format: 'esm',
  target: 'node20',
  sourcemap: 'inline',
  // Node reads every module's map when it loads it (source maps are on): positions only, not the source again.
  sourcesContent: false,
  minifyWhitespace: true,
  tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true, useDefineForClassFields: true } },
};
const ESBUILD_VERSION = createRequire(import.meta.url)('esbuild/package.json').version;
const SETTINGS = `${ESBUILD_VERSION} ${JSON.stringify(OPTIONS)}`;
const CACHE = privateFolder(join(tmpdir(), `wfmck-typescript-${process.getuid?.() ?? 'user'}`));
let esbuild;

export async function load(url, context, nextLoad) {
  const path = url.startsWith('file:') ? fileURLToPath(url.replace(/[?#].*$/, '')) : '';
  if (!path.endsWith('.ts')) return nextLoad(url, context);
  const source = readFileSync(path, 'utf8');
  const file = CACHE && join(CACHE, `${createHash('sha256').update(`${SETTINGS}\0${path}\0${source}`).digest('hex').slice(0, 40)}.js`);
  let code;
  try {
    if (!file) throw new Error('no cache');
    code = readFileSync(file, 'utf8');
  } catch {
    esbuild ??= await import('esbuild');
    code = (await esbuild.transform(source, { ...OPTIONS, sourcefile: path })).code;
    if (file) keep(file, code);
  }
  return { format: 'module', source: code, shortCircuit: true };
}

/**
 * The cache folder, made if absent, when this user alone can write it; else none (every file is transformed in
 * memory): code read from a folder another user could fill would be theirs to choose.
 */
function privateFolder(dir) {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const s = statSync(dir);
    return s.isDirectory() && (process.getuid === undefined || s.uid === process.getuid()) && (s.mode & 0o022) === 0 ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** Written whole or not at all (another process may be writing the same file); a cache that cannot be written is none. */
function keep(file, code) {
  try {
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, code);
    renameSync(partial, file);
  } catch {
    // the next process transforms the file again
  }
}
