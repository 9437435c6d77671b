// From Playwright's TestCase/TestResult to report records, fed with synthetic objects of the reporter API's shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordOf, type CaseLike, type ResultLike } from '../../reports/collect.ts';
import { MAX_BODY_CHARS, parseEvidence } from '../../reports/evidence.ts';
import { MAX_EVIDENCE } from '../../reports/matrix.ts';
import { exchange } from './synthetic.ts';

const opts = { rootDir: '/repo', runSeed: 7, allIds: ['CAP-PUT-201', 'CAP-PUT-200'], interrupted: false };

function result(over: Partial<ResultLike> = {}): ResultLike {
  return { status: 'passed', duration: 12.4, errors: [], annotations: [], attachments: [], ...over };
}

function testCase(results: ResultLike[], over: Partial<CaseLike> = {}): CaseLike {
  return {
    title: 'CAP-PUT-201 PUT creates',
    location: { file: '/repo/suites/capabilities.spec.ts', line: 12, column: 1 },
    annotations: [{ type: 'req', description: 'CAP-PUT-201' }],
    results: results as CaseLike['results'],
    ...over,
  };
}

const evidence = (items: unknown) => ({ name: 'evidence', contentType: 'application/json', body: Buffer.from(JSON.stringify(items)) });

test('a pass: ids, relative file, rounded duration, no evidence kept', () => {
  const r = recordOf(testCase([result({ attachments: [evidence([exchange()])] })]), opts);
  assert.deepEqual(r, {
    requirementIds: ['CAP-PUT-201'],
    title: 'CAP-PUT-201 PUT creates',
    file: 'suites/capabilities.spec.ts',
    line: 12,
    status: 'pass',
    durationMs: 12,
  });
});

test('a pass that noted an errata warning (warnUnlessStrict) is a warn with the note, never a plain pass', () => {
  const warning = { type: 'warning', description: '§4.7: last=1.0.1 answered tags before it in byte order: 1.0.0' };
  const r = recordOf(testCase([result({ annotations: [warning, warning] })]), opts);
  assert.equal(r.status, 'warn');
  assert.equal(r.reason, warning.description);
});

test('a skip carries the reason of its skip annotation (test or result), once', () => {
  const skip = { type: 'skip', description: 'needs hook retireClient' };
  const r = recordOf(
    testCase([result({ status: 'skipped', annotations: [skip] })], { annotations: [{ type: 'req', description: 'CAP-PUT-201' }, skip] }),
    opts,
  );
  assert.equal(r.status, 'skip');
  assert.equal(r.reason, 'needs hook retireClient');
  assert.equal(recordOf(testCase([result({ status: 'skipped' })]), opts).reason, 'skipped');
});

test('a failure keeps its error, replay and evidence; the last attempt decides', () => {
  const failed = result({
    status: 'failed',
    errors: [{ message: '\u001b[31mError: expect(received).toBe(expected)\u001b[39m\n\nExpected: 201\nReceived: 500' }],
    attachments: [evidence([exchange()]), { name: 'trace', contentType: 'application/zip', body: Buffer.from('zip') }],
  });
  const r = recordOf(
    testCase([result(), failed], {
      annotations: [
        { type: 'req', description: 'CAP-PUT-201' },
        { type: 'req', description: 'CAP-PUT-200' },
      ],
    }),
    opts,
  );
  assert.equal(r.status, 'fail');
  assert.deepEqual(r.requirementIds, ['CAP-PUT-201', 'CAP-PUT-200']);
  assert.equal(r.error?.message, 'Error: expect(received).toBe(expected)\n\nExpected: 201\nReceived: 500');
  assert.equal(r.error?.replay, "npx wfmck run --seed 7 --grep 'CAP-PUT-201'");
  assert.equal(r.evidence?.length, 1);
  assert.equal(r.evidence?.[0]?.responseBody, exchange().responseBody);
  assert.equal(recordOf(testCase([failed, result()]), opts).status, 'pass', 'a retry that passed is a pass');
});

test('a timeout on a late target is a failure; a kit error is an error; evidence from a file attachment is read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfmck-collect-'));
  try {
    const file = join(dir, 'evidence.json');
    writeFileSync(file, JSON.stringify([exchange(), late()]));
    const timedOut = recordOf(
      testCase([
        result({
          status: 'timedOut',
          errors: [{ message: 'Test timeout of 30000ms exceeded.' }],
          attachments: [{ name: 'evidence', contentType: 'application/json', path: file }],
        }),
      ]),
      opts,
    );
    assert.equal(timedOut.status, 'fail');
    assert.equal(timedOut.evidence?.length, 2);
    const note = (n: object) => ({ type: 'wfmck-outcome', description: JSON.stringify(n) });
    const kit = recordOf(
      testCase([
        result({
          status: 'failed',
          errors: [{ message: 'Error: hook retireClient: exited with code 3' }],
          annotations: [note({ outcome: 'error', code: 'WFMCK_E_HOOK', message: 'hook retireClient: exited with code 3' })],
        }),
      ]),
      opts,
    );
    assert.deepEqual([kit.status, kit.errorCode], ['error', 'WFMCK_E_HOOK']);
    const words = recordOf(
      testCase([result({ status: 'failed', errors: [{ message: 'Error: hook retireClient: exited with code 3 WFMCK_E_INTERNAL' }] })]),
      opts,
    );
    assert.equal(words.status, 'fail', 'message text never decides the outcome: only a typed note does');
    const blocked = recordOf(
      testCase([
        result({
          status: 'skipped',
          annotations: [note({ outcome: 'blocked', cause: 'CAP-PUT-201', message: 'setup: PUT answered 200' })],
          attachments: [evidence([exchange()])],
        }),
      ]),
      opts,
    );
    assert.deepEqual([blocked.status, blocked.blockedBy, blocked.evidence?.length], ['blocked', 'CAP-PUT-201', 1]);
    assert.equal(blocked.reason, 'blocked by CAP-PUT-201: setup: PUT answered 200');
    const both = recordOf(
      testCase([
        result({
          status: 'failed',
          annotations: [
            note({ outcome: 'blocked', cause: 'CAP-PUT-201', message: 'm' }),
            note({ outcome: 'error', code: 'WFMCK_E_HOOK', message: 'h' }),
          ],
        }),
      ]),
      opts,
    );
    assert.equal(both.status, 'error', 'a kit error outranks a block');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** An exchange the transport gave up on at its deadline: the target was late. */
const late = () =>
  exchange({
    id: 'x2',
    status: undefined,
    responseHeaders: undefined,
    responseBody: undefined,
    durationMs: 10_004,
    error: { code: 'WFMCK_E_TIMEOUT', message: 'no complete response within 10000 ms: timed out waiting for the headers' },
  });
const outOfTime = (exchanges: unknown[]) =>
  result({
    status: 'timedOut',
    duration: 60_012,
    errors: [{ message: 'Test timeout of 60000ms exceeded.' }],
    attachments: [evidence(exchanges)],
  });

test('out of time while every answer came in under 100 ms: a kit error WFMCK_E_SLOW_RUN naming the answer times, never a failure', () => {
  const answers = [
    exchange({ id: 'a', status: 201, durationMs: 12.4 }),
    exchange({ id: 'b', method: 'GET', status: 200, durationMs: 88 }),
    exchange({ id: 'c', status: 200, durationMs: 5 }),
  ];
  const r = recordOf(testCase([outOfTime(answers)]), opts);
  assert.deepEqual([r.status, r.errorCode], ['error', 'WFMCK_E_SLOW_RUN']);
  assert.match(
    r.reason!,
    /^WFMCK_E_SLOW_RUN: the check ran out of time \(Test timeout of 60000ms exceeded\.\) though the target was never late/,
  );
  assert.match(r.reason!, /3 exchanges, the slowest 88 ms \(GET https:\/\/127\.0\.0\.1:8443\/api\/v1\/capabilities\/dev1\)/);
  assert.match(r.error!.message, /^answer times: 12, 88, 5 ms$/m);
  assert.match(r.error!.message, /--timeout-scale 2/);
  assert.equal(r.evidence?.length, 3, 'the exchanges and their durations are the evidence');
  assert.equal(r.brokeAt, undefined, 'no exchange broke anything');
  // Still waiting, within its deadline: the target is not late yet.
  const waiting = exchange({ id: 'd', status: undefined, responseBody: undefined, durationMs: 3_000, awaiting: { deadlineMs: 10_000 } });
  const w = recordOf(testCase([outOfTime([...answers, waiting])]), opts);
  assert.deepEqual([w.status, w.errorCode], ['error', 'WFMCK_E_SLOW_RUN']);
  assert.match(w.error!.message, /1 still waiting for an answer, within its deadline/);
  // A check that sent nothing, or whose requests the kit aborted, and ran out of time is the kit's too.
  assert.match(recordOf(testCase([outOfTime([])]), opts).reason!, /: it sent the target no request$/);
  const aborted = exchange({ id: 'f', status: undefined, durationMs: 1, error: { code: 'WFMCK_E_ABORTED', message: 'not sent' } });
  const k = recordOf(testCase([outOfTime([...answers, aborted])]), opts);
  assert.equal(k.status, 'error');
  assert.match(k.error!.message, /^answer times: 12, 88, 5 ms\n1 more ended without an answer \(WFMCK_E_ABORTED\)$/m);
});

test('out of time on an exchange that never got an answer within its deadline: a failure of its requirement, that exchange marked', () => {
  const r = recordOf(
    testCase([outOfTime([exchange({ id: 'a', status: 201, durationMs: 9 }), late(), exchange({ id: 'c', durationMs: 4 })])]),
    opts,
  );
  assert.equal(r.status, 'fail');
  assert.equal(r.errorCode, undefined);
  assert.match(r.reason!, /^the target did not answer in time: PUT \S+: WFMCK_E_TIMEOUT no complete response within 10000 ms/);
  assert.match(r.error!.message, /Test timeout of 60000ms exceeded\./);
  assert.equal(r.error!.replay, "npx wfmck run --seed 7 --grep 'CAP-PUT-201'");
  assert.equal(r.brokeAt?.exchange, 'x2', 'the late exchange is the one marked');
  // Still waiting when the test ended, past its deadline (the transport's timer never fired: a blocked event loop).
  const stuck = exchange({ id: 'd', status: undefined, responseBody: undefined, durationMs: 12_500, awaiting: { deadlineMs: 10_000 } });
  const s = recordOf(testCase([outOfTime([exchange({ id: 'a', durationMs: 9 }), stuck])]), opts);
  assert.equal(s.status, 'fail');
  assert.match(s.reason!, /no answer after 12500 ms \(deadline 10000 ms\)/);
  assert.equal(s.brokeAt?.exchange, 'd');
  // A refused connection is no answer at all: a failure (an outage, when many), never the kit's.
  const refused = exchange({ id: 'e', status: undefined, durationMs: 1, error: { code: 'WFMCK_E_CONNECTION', message: 'ECONNREFUSED' } });
  assert.equal(recordOf(testCase([outOfTime([refused])]), opts).status, 'fail');
});

test('tests that never ran are skipped, saying whether the run was interrupted', () => {
  assert.deepEqual([recordOf(testCase([]), opts).status, recordOf(testCase([]), opts).reason], ['skip', 'not run']);
  assert.equal(recordOf(testCase([]), { ...opts, interrupted: true }).reason, 'not run: the run was interrupted');
  assert.equal(recordOf(testCase([result({ status: 'interrupted' })]), opts).reason, 'interrupted before it finished');
});

test('broken evidence is reported as a problem and never throws', () => {
  const problems: string[] = [];
  const bad = result({
    status: 'failed',
    errors: [{ message: 'no' }],
    attachments: [
      { name: 'evidence', contentType: 'application/json', body: Buffer.from('not json') },
      evidence([{ nope: 1 }, exchange()]),
      { name: 'evidence', contentType: 'application/json', path: '/nonexistent/evidence.json' },
    ],
  });
  const r = recordOf(testCase([bad]), opts, problems);
  assert.equal(r.evidence?.length, 1);
  assert.equal(problems.length, 2);
  assert.match(problems.join('\n'), /unreadable/);
  assert.match(problems.join('\n'), /2 evidence entries are not an Exchange/);
});

test('parseEvidence caps the count and the body size, and keeps fields as text', () => {
  const many = Array.from({ length: MAX_EVIDENCE + 5 }, (_, i) => exchange({ id: `x${i}` }));
  assert.equal(parseEvidence([JSON.stringify(many)]).exchanges.length, MAX_EVIDENCE);
  const huge = parseEvidence([JSON.stringify([exchange({ responseBody: 'a'.repeat(MAX_BODY_CHARS + 10) })])]).exchanges[0]!;
  assert.match(huge.responseBody!, /\(10 more characters\)$/);
  const odd = parseEvidence([JSON.stringify([{ method: 'GET', url: 'http://127.0.0.1/', requestHeaders: { n: 5 }, status: '200' }])])
    .exchanges[0]!;
  assert.deepEqual(odd.requestHeaders, { n: '5' });
  assert.equal(odd.status, undefined, 'a status that is not a number is dropped, not trusted');
});

test('expectEach: a failed test keeps the ids whose own check held, and replays the one that failed', () => {
  const failed = result({
    status: 'failed',
    errors: [{ message: 'Error: CAP-PUT-200: a finding' }],
    annotations: [{ type: 'req-held', description: 'CAP-PUT-201' }],
  });
  const r = recordOf(
    testCase([failed], {
      annotations: [
        { type: 'req', description: 'CAP-PUT-201' },
        { type: 'req', description: 'CAP-PUT-200' },
      ],
    }),
    opts,
  );
  assert.deepEqual([r.status, r.held], ['fail', ['CAP-PUT-201']]);
  assert.equal(r.error?.replay, "npx wfmck run --seed 7 --grep 'CAP-PUT-200'");
  assert.equal(
    recordOf(testCase([result({ annotations: [{ type: 'req-held', description: 'CAP-PUT-201' }] })]), opts).held,
    undefined,
    'a pass needs no held ids',
  );
});
