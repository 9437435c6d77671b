// The compact console: one line per spec file once its checks are done, counts by typed outcome, each failure's reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import CompactReporter, { outcomeOf } from '../../reports/compact-reporter.ts';
import { outcomeAnnotation } from '../../run/outcomes.ts';

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
