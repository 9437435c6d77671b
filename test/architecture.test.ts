// The map of docs/architecture.md as a test: each folder may import only what the map's "may import" column names, so
// the walls stay where the map draws them (suites never reach into reference internals; nothing imports cli).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Folder (or sub-folder, e.g. `run/contract`, or a top-level file) -> the folders it may import. */
type Rules = Map<string, string[]>;

/** The rules of the map: the first column's folders and files, the last column's list ("nothing" = none). No row may
 * say "everything": each names what it imports, so a new dependency is a reviewed line of the map. */
export function rulesFromMap(doc: string): Rules {
  const map = doc.slice(doc.indexOf('## Map'));
  const rules: Rules = new Map();
  for (const line of map.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 5 || !cells[1]!.startsWith('`')) continue;
    const entries = [...cells[1]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/\/$/, ''));
    const allowed = cells[3]!;
    if (/everything/.test(allowed)) throw new Error(`map row ${cells[1]}: "${allowed}" names no folders`);
    const list = allowed === 'nothing' ? [] : allowed.split(',').map((s) => s.trim());
    for (const e of entries) rules.set(e, list);
  }
  return rules;
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/** The repository folders of relative imports of one file (path relative to the root). */
function importsOf(path: string, text: string): string[] {
  return [...text.matchAll(IMPORT)].map((m) => normalize(join(dirname(path), m[1]!)));
}

const within = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);

/** Each import that crosses the map: `file -> target`. */
export function crossings(files: readonly { path: string; text: string }[], rules: Rules): string[] {
  const folders = [...rules.keys()];
  const owner = (path: string) => folders.filter((f) => within(path, f)).sort((a, b) => b.length - a.length)[0];
  const found: string[] = [];
  for (const { path, text } of files) {
    const from = owner(path);
    if (from === undefined) {
      found.push(`${path}: no row of the map owns it`);
      continue;
    }
    const allowed = rules.get(from)!;
    for (const target of importsOf(path, text)) {
      const to = owner(target);
      if (to === undefined || to === from || within(target, from)) continue;
      const ok = allowed.some((a) => within(target, a));
      if (!ok) found.push(`${path} -> ${target} (${from}/ may import: ${allowed.join(', ') || 'nothing'})`);
    }
  }
  return found;
}

function sourceFiles(dir: string): { path: string; text: string }[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'out') return [];
    if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|mjs)$/.test(name) ? [{ path: relative('.', path), text: readFileSync(join(ROOT, path), 'utf8') }] : [];
  });
}

const rules = rulesFromMap(readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8'));

/** Every tracked top-level file and folder but the dotfiles (.ci, .gitignore, ...). */
function topLevel(): string[] {
  const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n');
  return [...new Set(tracked.map((p) => p.split('/')[0]!))].filter((e) => !e.startsWith('.'));
}

test('the map has a row for every top-level file and folder', () => {
  // A folder split into sub-folder rows (run/) is covered by them; a file directly in it has no row and fails below.
  const missing = topLevel().filter((e) => !rules.has(e) && ![...rules.keys()].some((k) => k.startsWith(`${e}/`)));
  assert.deepEqual(missing, [], 'docs/architecture.md map: add a row for each');
  assert.deepEqual(rules.get('spec'), [], 'spec imports nothing');
});

test('no import crosses the map', () => {
  const files = topLevel()
    .filter((e) => e !== 'node_modules')
    .flatMap((e) =>
      statSync(join(ROOT, e)).isDirectory()
        ? sourceFiles(e)
        : /\.(ts|mts|mjs)$/.test(e)
          ? [{ path: e, text: readFileSync(join(ROOT, e), 'utf8') }]
          : [],
    );
  assert.ok(files.length > 300, `read ${files.length} source files`);
  assert.deepEqual(crossings(files, rules), []);
});

test('folders match by whole name: run/ is not runner/, a sub-folder row is more specific than its parent', () => {
  const planted = [
    { path: 'runner/x.ts', text: '' },
    { path: 'run/contract/x.ts', text: "import { embedded } from '../processes/embedded.ts';" },
    { path: 'run/processes/x.ts', text: "import type { RunContext } from '../contract/context.ts';" },
    { path: 'faults/harness/x.ts', text: "import { main } from '../../cli/main.ts';" },
  ];
  assert.deepEqual(
    crossings(planted, rules).map((f) => f.split(/ -> |: /)[0]),
    ['runner/x.ts', 'run/contract/x.ts', 'faults/harness/x.ts'],
  );
});

test('a forbidden import is caught: suites -> reference, reference -> simulators, spec -> anything, anything -> cli, cli -> reference', () => {
  const planted = [
    { path: 'suites/x.spec.ts', text: "import { startWfm } from '../reference/wfm/server.ts';" },
    { path: 'reference/wfm/x.ts', text: "import { createDevice } from '../../simulators/device/driver.ts';" },
    { path: 'spec/rules/x.ts', text: "import type { Exchange } from '../../protocol/exchange.ts';" },
    { path: 'run/processes/x.ts', text: "const m = await import('../../cli/run.ts');" },
    { path: 'bench/x.ts', text: "export { main } from '../cli/main.ts';" },
    // Allowed: a suite through the run contract, the CLI through the run's processes, a folder within itself.
    { path: 'suites/y.spec.ts', text: "import type { RunContext } from '../run/contract/context.ts';" },
    { path: 'cli/z.ts', text: "import { startWfm } from '../reference/wfm/server.ts';" },
    { path: 'cli/y.ts', text: "import { startEmbedded } from '../run/processes/embedded.ts';" },
    { path: 'reference/wfm/y.ts', text: "import { x } from '../registry/store.ts';" },
  ];
  const found = crossings(planted, rules);
  assert.deepEqual(
    found.map((f) => f.split(' -> ')[0]),
    ['suites/x.spec.ts', 'reference/wfm/x.ts', 'spec/rules/x.ts', 'run/processes/x.ts', 'bench/x.ts', 'cli/z.ts'],
  );
  assert.match(found[0]!, /suites\/ may import: spec, protocol, simulators, run\/contract, scripted, fixtures, models\)$/);
});
