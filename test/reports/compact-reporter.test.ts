// The compact console: one line per spec file once its checks are done, counts by typed outcome, each failure's reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import CompactReporter, { outcomeOf } from '../../reports/compact-reporter.ts';
import { outcomeAnnotation } from '../../run/contract/outcomes.ts';
import { clipWords } from '../../reports/terminal.ts';

const blocked = outcomeAnnotation({ outcome: 'blocked', cause: 'CAP-PUT-201', message: 'x' });
const kitError = outcomeAnnotation({ outcome: 'error', code: 'WFMCK_E_HOOK', message: 'x' });

test('outcomeOf: typed notes decide (error > blocked), then Playwright status; a warning annotation on a pass is warn', () => {
  const t = { annotations: [] };
  assert.equal(outcomeOf(t, { status: 'skipped', annotations: [blocked] }), 'blocked');
  assert.equal(outcomeOf(t, { status: 'failed', annotations: [kitError, blocked] }), 'error');
  assert.equal(outcomeOf(t, { status: 'skipped', annotations: [] }), 'skip');
  assert.equal(outcomeOf(t, { status: 'timedOut', annotations: [] }), 'fail');
  assert.equal(outcomeOf(t, { status: 'passed', annotations: [{ type: 'warning', description: 'w' }] }), 'warn');
});

test("a file's line comes when its last check ends, with a terminal-safe reason per failure", () => {
  const out: string[] = [];
  const write = process.stdout.write;
  process.stdout.write = ((s: string) => (out.push(s), true)) as typeof process.stdout.write;
  try {
    const file = '/kit/suites/capabilities.spec.ts';
    const mk = (title: string) => ({
      title,
      annotations: [],
      retries: 0,
      expectedStatus: 'passed',
      location: { file, line: 1, column: 1 },
    });
    const tests = [mk('CAP-PUT-201 creates'), mk('CAP-PUT-200 updates'), mk('CAP-DELETE-204 deletes')];
    const r = new CompactReporter();
    r.onBegin({ rootDir: '/kit/suites', workers: 2 } as never, { allTests: () => tests } as never);
    r.onTestEnd(
      tests[0] as never,
      {
        status: 'failed',
        retry: 0,
        annotations: [],
        error: { message: 'Error: \u001b[31mcreated\u001b[0m\n\nExpected: 201\nReceived: 200' },
      } as never,
    );
    r.onTestEnd(tests[1] as never, { status: 'skipped', retry: 0, annotations: [blocked] } as never);
    assert.equal(out.length, 1, 'nothing until the file is done');
    r.onTestEnd(tests[2] as never, { status: 'passed', retry: 0, annotations: [] } as never);
    r.onEnd();
  } finally {
    process.stdout.write = write;
  }
  assert.equal(out[0], 'wfmck: 3 checks in 1 spec files, 2 workers\n');
  assert.equal(
    out[1],
    '  capabilities                 1 fail · 1 blocked · 1 pass\n    FAIL  CAP-PUT-201 creates: Error: created · Expected: 201 · Received: 200\n',
  );
});

/** What the reporter prints for one file whose checks end as given (stdout captured). */
function printed(ends: { title: string; result: object }[]): string[] {
  const out: string[] = [];
  const write = process.stdout.write;
  process.stdout.write = ((s: string) => (out.push(s), true)) as typeof process.stdout.write;
  try {
    const file = '/kit/suites/capabilities.spec.ts';
    const tests = ends.map((e) => ({
      title: e.title,
      annotations: [],
      retries: 0,
      expectedStatus: 'passed',
      location: { file, line: 1, column: 1 },
    }));
    const r = new CompactReporter();
    r.onBegin({ rootDir: '/kit/suites', workers: 2 } as never, { allTests: () => tests } as never);
    ends.forEach((e, i) => r.onTestEnd(tests[i] as never, { retry: 0, annotations: [], ...e.result } as never));
    r.onEnd();
  } finally {
    process.stdout.write = write;
  }
  return out.slice(1).join('').split('\n');
}

test('a check a signal stopped prints as interrupted, never as a failure with an empty reason (issue 32)', () => {
  const t = { annotations: [] };
  assert.equal(outcomeOf(t, { status: 'interrupted', annotations: [] }), 'interrupted');
  assert.equal(outcomeOf(t, { status: 'interrupted', annotations: [kitError] }), 'error', 'a kit error noted before still tells');
  const lines = printed([
    { title: 'CAP-PROPERTIES-REQUIRED every document carries properties', result: { status: 'interrupted' } },
    { title: 'CAP-PUT-201 creates', result: { status: 'passed' } },
  ]);
  assert.equal(lines[0], '  capabilities                 1 pass · 1 interrupted');
  assert.equal(lines[1], '    INTERRUPTED CAP-PROPERTIES-REQUIRED every document carries properties');
  assert.ok(!lines.some((l) => l.includes('FAIL')));
});

test('a long title is cut between words, with an ellipsis, never mid-word (issue 32)', () => {
  const title =
    'CAP-LIFE-CREATED CAP-LIFE-UPDATED CAP-LIFE-DELETED GW-SEETHRU-INFER-HIERARCHY GW-ORDER-DELETED-GATEWAY-404 random PUT/DELETE sequences';
  const [, line] = printed([{ title, result: { status: 'failed', error: { message: 'Error: x\nExpected: true\nReceived: false' } } }]);
  const shown = /^ {4}FAIL {2}(.*): Error: x · Expected: true · Received: false$/.exec(line!)?.[1];
  assert.equal(shown, 'CAP-LIFE-CREATED CAP-LIFE-UPDATED CAP-LIFE-DELETED GW-SEETHRU-INFER-HIERARCHY…');
  assert.ok(title.startsWith(shown!.slice(0, -1)) && title[shown!.length - 1] === ' ', 'cut where a word ends');
});

test('clipWords: short text whole; a cut falls between words within the limit; a first word longer than it stays whole', () => {
  assert.equal(clipWords('short title', 100), 'short title');
  assert.equal(clipWords('alpha beta gamma', 12), 'alpha beta…');
  assert.equal(clipWords('alpha beta: gamma', 13), 'alpha beta…', 'no dangling punctuation before the ellipsis');
  assert.equal(clipWords('supercalifragilistic word', 8), 'supercalifragilistic…');
  assert.equal(clipWords('supercalifragilistic', 8), 'supercalifragilistic');
  for (const [text, max] of [
    ['a bb ccc dddd eeeee', 7],
    ['one two three four five six', 15],
  ] as const) {
    const c = clipWords(text, max);
    assert.ok(c.length <= max, `${c} within ${max}`);
    assert.ok(text.startsWith(c.slice(0, -1)) && /\s/.test(text[c.length - 1]!), `${c}: cut where a word ends`);
  }
});
