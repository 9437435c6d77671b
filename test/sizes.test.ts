// Files a reader can hold (issue 34): outside test/, no source file over 400 lines and no function over 100, arrow
// callbacks included (a `test.describe(() => {...})` is read as one function). Prettier's layout makes the measure
// simple: a function opens on a line ending in `{` and closes on the next line at its indentation that starts with `}`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const MAX_FILE_LINES = 400;
export const MAX_FUNCTION_LINES = 100;

const CONTROL = /^\s*(if|for|while|switch|catch|with|return|else)\b/;
const OPENS_FUNCTION =
  /(\bfunction\b.*|=>\s*)\{$|^\s*(?:(?:public|private|protected|static|async|get|set)\s+)*[\w$]+\s*(?:<[^>]*>)?\(.*\)\s*(?::\s*[^={]+)?\{$/;
const OPENS_SIGNATURE = /^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\b.*\($/;

/** Each function of `text` longer than `max` lines: `line: first line of its text (n lines)`. */
export function longFunctions(text: string, max = MAX_FUNCTION_LINES): string[] {
  const lines = text.split('\n');
  const found: string[] = [];
  lines.forEach((line, i) => {
    if (CONTROL.test(line) || !(OPENS_FUNCTION.test(line) || OPENS_SIGNATURE.test(line))) return;
    const indent = /^\s*/.exec(line)![0];
    const end = lines.findIndex((l, j) => j > i && l.startsWith(`${indent}}`));
    const n = (end < 0 ? lines.length : end) - i + 1;
    if (n > max) found.push(`${i + 1}: ${line.trim().slice(0, 70)} (${n} lines)`);
  });
  return found;
}

function sources(): string[] {
  return execFileSync('git', ['ls-files', '-co', '--exclude-standard', '*.ts', '*.mts', '*.mjs'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((p) => p && !p.startsWith('test/') && existsSync(`${ROOT}${p}`));
}

test(`no source file outside test/ is over ${MAX_FILE_LINES} lines`, () => {
  const long = sources()
    .map((p) => ({ p, n: readFileSync(`${ROOT}${p}`, 'utf8').split('\n').length - 1 }))
    .filter(({ n }) => n > MAX_FILE_LINES)
    .map(({ p, n }) => `${p} (${n} lines)`);
  assert.deepEqual(long, []);
});

test(`no function outside test/ is over ${MAX_FUNCTION_LINES} lines`, () => {
  const long = sources().flatMap((p) => longFunctions(readFileSync(`${ROOT}${p}`, 'utf8')).map((f) => `${p}:${f}`));
  assert.deepEqual(long, []);
});

test('the measure sees declarations, methods, arrows and multi-line signatures, not control blocks', () => {
  const body = (n: number) => Array.from({ length: n }, () => '    x();').join('\n');
  const text = [
    'export async function a(',
    '  p: number,',
    '): Promise<void> {',
    body(101),
    '}',
    "test.describe('b', () => {",
    body(98),
    '});',
    'class C {',
    '  method(x: number): void {',
    body(99),
    '  }',
    '}',
    'if (x) {',
    body(200),
    '}',
  ].join('\n');
  assert.deepEqual(
    longFunctions(text).map((f) => f.split(':')[0]),
    ['1', '207'],
  );
});
