// One bug, one cause (issue 32 item 8): `serve --fault CAP-PUT-201` failed CAP-PUT-201 and CAP-LIFE-CREATED on the same
// exchange (a first PUT answered 200, "Expected: 201 · Received: 200") and listed them as two causes, CAP-LIFE-CREATED
// (§3, 2 blocked) above CAP-PUT-201 (§4.1, 15 blocked). Synthetic records of that run, through the real catalog.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadRequirements } from '../../spec/requirements.ts';
import { buildMatrix, type TestRecord } from '../../reports/matrix.ts';
import { exchangeKey, rootCauses } from '../../reports/causes.ts';
import { findingLines } from '../../reports/console.ts';
import { causesHtml } from '../../reports/html/causes.ts';
import { failureOf } from '../../reports/failure.ts';
import { exchange } from './synthetic.ts';

const catalog = loadRequirements();
const ids = catalog.map((r) => r.id);
const WFM = 'https://127.0.0.1:8443/api/v1/capabilities/';

/** A check that PUT a new device's document and got `status` where it expected `expected`. */
function failedPut(id: string, device: string, status: number, expected: string, path = WFM): TestRecord {
  const x = exchange({
    id: `x-${id}`,
    url: `${path}${device}`,
    requestBody: `{"properties":{"id":"${device}","vendor":"Acme"}}`,
    status,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: '{}',
  });
  return {
    requirementIds: [id],
    title: `${id} PUT for a deviceId with no document creates it`,
    file: 'suites/capabilities.spec.ts',
    line: 10,
    status: 'fail',
    durationMs: 5,
    reason: `Expected: ${expected} · Received: ${status}`,
    error: failureOf(`Error: created\n\nExpected: ${expected}\nReceived: ${status}`, id, 7, ids, '/out/replay.yaml'),
    evidence: [x],
    brokeAt: { exchange: x.id, expected },
  };
}

function blockedBy(cause: string, id: string): TestRecord {
  return { requirementIds: [id], title: `${id} t`, file: 'suites/x.spec.ts', line: 1, status: 'blocked', durationMs: 1, blockedBy: cause };
}

const report = (records: TestRecord[]) => {
  const requirements = buildMatrix(catalog, records, 'default');
  return { requirements, rootCauses: rootCauses(requirements, records) };
};

// The fault's run: both checks PUT a device of their own (wfmck-<random>) and got 200; CAP-PUT-201 blocks 3, the §3 twin 1.
const faultRun = () => [
  failedPut('CAP-LIFE-CREATED', 'wfmck-m-af6c3f7ff9', 200, '201'),
  failedPut('CAP-PUT-201', 'wfmck-p-f45a290fe1', 200, '201'),
  blockedBy('CAP-PUT-201', 'CAP-PUT-200'),
  blockedBy('CAP-PUT-201', 'CAP-DELETE-204'),
  blockedBy('CAP-PUT-201', 'CAP-DELETE-404'),
  blockedBy('CAP-LIFE-CREATED', 'CAP-LIFE-UPDATED'),
];

test('two failures on the same exchange (the device id aside) are one cause naming both, named by the one that blocks most', () => {
  const r = report(faultRun());
  assert.deepEqual(r.rootCauses, [
    {
      id: 'CAP-PUT-201',
      level: 'MUST',
      status: 'fail',
      blocks: ['CAP-LIFE-UPDATED', 'CAP-PUT-200', 'CAP-DELETE-204', 'CAP-DELETE-404'],
      alsoFailed: ['CAP-LIFE-CREATED'],
    },
  ]);
  const lines = findingLines(r);
  assert.equal(lines[0], 'wfmck: findings by cause');
  assert.match(lines[1]!, /^ {2}CAP-PUT-201 \(MUST\) failed: Expected: 201 · Received: 200$/);
  assert.equal(lines[2], '    the same exchange failed CAP-LIFE-CREATED (MUST) too');
  assert.match(lines[3]!, /^ {4}4 requirements blocked by it: /);
  assert.equal(lines.filter((l) => /^ {2}\S/.test(l)).length, 1, 'one cause on the console');
  const html = causesHtml(r);
  assert.equal(html.match(/<li class="cause">/g)?.length, 1, 'one cause on the page');
  assert.match(html, /the same exchange failed <a href="#CAP-LIFE-CREATED">/);
});

test('failures that share only a status code, on different exchanges, stay separate causes', () => {
  const r = report([
    failedPut('CAP-PUT-201', 'wfmck-p-f45a290fe1', 200, '201'),
    failedPut('CAP-PUT-400', 'wfmck-p-0c1d2e3f4a', 200, '400'),
    failedPut('DS-GET-200', 'wfmck-p-f45a290fe1', 200, '201', 'https://127.0.0.1:8443/api/v1/desired-state/'),
  ]);
  assert.deepEqual(r.rootCauses.map((c) => [c.id, c.alsoFailed]).sort(), [
    ['CAP-PUT-201', undefined],
    ['CAP-PUT-400', undefined],
    ['DS-GET-200', undefined],
  ]);
  const other = exchange({ id: 'y', responseBody: '{"created":false}' });
  assert.notEqual(exchangeKey(exchange(), '200'), exchangeKey(other, '200'), 'another answer body is another exchange');
});

test('causes are listed by how much they block, most first, ties in report order; on the console and the page', () => {
  const records = [
    failedPut('CAP-LIFE-CREATED', 'wfmck-m-af6c3f7ff9', 200, '201'),
    failedPut('CAP-PUT-201', 'wfmck-p-f45a290fe1', 204, '201'),
    blockedBy('CAP-PUT-201', 'CAP-PUT-200'),
    blockedBy('CAP-PUT-201', 'CAP-DELETE-204'),
    blockedBy('CAP-LIFE-CREATED', 'CAP-LIFE-UPDATED'),
    // A cause that did not fail here sits between them by its count.
    blockedBy('CAP-PUT-400', 'CAP-DELETE-404'),
    blockedBy('CAP-PUT-400', 'CAP-LIFE-DELETED'),
    blockedBy('CAP-PUT-400', 'CAP-PUT-403'),
  ];
  const r = report(records);
  assert.deepEqual(
    r.rootCauses.map((c) => [c.id, c.blocks.length]),
    [
      ['CAP-PUT-400', 3],
      ['CAP-PUT-201', 2],
      ['CAP-LIFE-CREATED', 1],
    ],
  );
  const heads = findingLines(r)
    .filter((l) => /^ {2}\S/.test(l))
    .map((l) => /[A-Z]+(?:-[A-Z0-9]+)+/.exec(l)?.[0]);
  assert.deepEqual(heads, ['CAP-PUT-400', 'CAP-PUT-201', 'CAP-LIFE-CREATED']);
  const html = causesHtml(r);
  assert.ok(
    html.indexOf('#CAP-PUT-400') < html.indexOf('#CAP-PUT-201') && html.indexOf('#CAP-PUT-201') < html.indexOf('#CAP-LIFE-CREATED'),
  );
});

test("each failure cause's replay line on the console carries its --grep", () => {
  const lines = findingLines(report(faultRun()));
  const replays = lines.filter((l) => l.startsWith('    replay: '));
  assert.deepEqual(replays, ["    replay: npx wfmck run --config /out/replay.yaml --seed 7 --grep 'CAP-PUT-201'"]);
});

test('one failed test that judged two requirements is one cause, evidence or not; its held requirement is none', () => {
  const both: TestRecord = {
    requirementIds: ['CAP-PUT-400', 'CAP-PUT-201', 'CAP-PUT-200'],
    title: 'CAP-PUT-400 CAP-PUT-201 CAP-PUT-200 a property',
    file: 'suites/capabilities-properties.spec.ts',
    line: 20,
    status: 'fail',
    durationMs: 5,
    held: ['CAP-PUT-200'],
  };
  const r = report([both]);
  assert.deepEqual(r.rootCauses, [{ id: 'CAP-PUT-201', level: 'MUST', status: 'fail', blocks: [], alsoFailed: ['CAP-PUT-400'] }]);
});
