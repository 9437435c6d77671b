// The map of docs/architecture.md as a test: each folder may import only what the map's "may import" column names, so
// the walls stay where the map draws them (suites never reach into reference internals; nothing imports cli).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Folder (or sub-folder, e.g. `reference/faults`) -> what it may import; `*` = anything, `!x` = anything but x. */
type Rules = Map<string, string[]>;

/** The rules of the map: the first column's folders, the last column's list. */
export function rulesFromMap(doc: string): Rules {
  const map = doc.slice(doc.indexOf('## Map'));
  const rules: Rules = new Map();
  for (const line of map.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 5 || !cells[1]!.startsWith('`')) continue;
    const folders = [...cells[1]!.matchAll(/`([^`]+)\/`/g)].map((m) => m[1]!);
    const allowed = cells[3]!;
    const list =
      allowed === 'everything'
        ? ['*']
        : allowed.startsWith('everything but ')
          ? allowed
              .slice('everything but '.length)
              .split(',')
              .map((s) => `!${s.trim()}`)
          : allowed
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean);
    for (const f of folders) rules.set(f, list);
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
    if (from === undefined) continue;
    const allowed = rules.get(from)!;
    for (const target of importsOf(path, text)) {
      const to = owner(target);
      if (to === undefined || to === from || within(target, from)) continue;
      const ok =
        allowed.includes('*') ||
        (allowed.some((a) => a.startsWith('!')) && !allowed.some((a) => within(target, a.slice(1)))) ||
        allowed.some((a) => !a.startsWith('!') && within(target, a));
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

test('the map names a rule for every source folder', () => {
  for (const folder of [
    'spec',
    'protocol',
    'faults',
    'simulators',
    'reference',
    'run',
    'scripted',
    'fixtures',
    'models',
    'suites',
    'reports',
    'cli',
    'bench',
    'test',
  ]) {
    assert.ok(rules.has(folder), `docs/architecture.md map: no row for ${folder}/`);
  }
  assert.deepEqual(rules.get('spec'), [], 'spec imports nothing');
});

test('no import crosses the map', () => {
  const files = [...rules.keys()]
    .filter((f) => !f.includes('/'))
    .flatMap((f) => {
      try {
        return sourceFiles(f);
      } catch {
        return [];
      }
    });
  assert.ok(files.length > 300, `read ${files.length} source files`);
  assert.deepEqual(crossings(files, rules), []);
});

test('a forbidden import is caught: suites -> reference, reference -> simulators, spec -> anything, anything -> cli', () => {
  const planted = [
    { path: 'suites/x.spec.ts', text: "import { startWfm } from '../reference/wfm/server.ts';" },
    { path: 'reference/wfm/x.ts', text: "import { createDevice } from '../../simulators/device/driver.ts';" },
    { path: 'spec/rules/x.ts', text: "import type { Exchange } from '../../protocol/exchange.ts';" },
    { path: 'run/x.ts', text: "const m = await import('../cli/run.ts');" },
    { path: 'bench/x.ts', text: "export { main } from '../cli/main.ts';" },
    // Allowed: a suite through the run layer, the CLI anywhere, a folder within itself.
    { path: 'suites/y.spec.ts', text: "import type { RunContext } from '../run/context.ts';" },
    { path: 'cli/y.ts', text: "import { startWfm } from '../reference/wfm/server.ts';" },
    { path: 'reference/wfm/y.ts', text: "import { x } from '../registry/store.ts';" },
  ];
  const found = crossings(planted, rules);
  assert.deepEqual(
    found.map((f) => f.split(' -> ')[0]),
    ['suites/x.spec.ts', 'reference/wfm/x.ts', 'spec/rules/x.ts', 'run/x.ts', 'bench/x.ts'],
  );
  assert.match(found[0]!, /suites\/ may import: spec, protocol, simulators, run, scripted, fixtures, models\)$/);
});
