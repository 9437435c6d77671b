// A target that goes dark mid-run: its failures on no answer are one finding per origin, on the console and the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { outages } from '../../reports/outages.ts';
import { findingLines } from '../../reports/console.ts';
import { causesHtml } from '../../reports/html/causes.ts';
import type { RequirementResult, TestRecord } from '../../reports/matrix.ts';
import { OUTAGE_CAUSE, blockByOutage, stoppedLine, type DeclaredOutage } from '../../reports/outage-declared.ts';
import { buildReport, fallbackMeta, type ConformanceReport } from '../../reports/conformance-json.ts';
import { loadRequirements } from '../../spec/requirements.ts';
import type { Exchange } from '../../protocol/exchange.ts';

const WFM = 'https://127.0.0.1:8443';

function failed(id: string, path: string, at: string, code: 'WFMCK_E_CONNECTION' | 'WFMCK_E_TIMEOUT' | undefined): RequirementResult {
  const x: Exchange = {
    id: `x-${id}`,
    method: 'GET',
    url: `${WFM}${path}`,
    requestHeaders: {},
    startedAt: at,
    durationMs: 1,
    attempt: 1,
    ...(code ? { error: { code, message: 'no answer' } } : { status: 500 }),
  };
  return {
    id,
    section: '4.1',
    level: 'MUST',
    observer: 'wfm',
    text: id,
    status: 'fail',
    tests: [],
    evidence: [x],
    reason: code ?? 'HTTP 500',
  } as unknown as RequirementResult;
}

test('five failures on no answer over three paths of one origin are one outage, from the first', () => {
  const results = [
    failed('CAP-PUT-201', '/api/v1/capabilities/a', '2026-11-26T10:00:05Z', 'WFMCK_E_CONNECTION'),
    failed('CAP-PUT-200', '/api/v1/capabilities/b', '2026-11-26T10:00:03Z', 'WFMCK_E_CONNECTION'),
    failed('DS-GET-200', '/api/v1/clients/c/deployments', '2026-11-26T10:00:07Z', 'WFMCK_E_TIMEOUT'),
    failed('STATUS-POST-201', '/api/v1/deployments/d/status', '2026-11-26T10:00:09Z', 'WFMCK_E_CONNECTION'),
    failed('CAP-DELETE-204', '/api/v1/capabilities/e', '2026-11-26T10:00:11Z', 'WFMCK_E_CONNECTION'),
    failed('CERT-GET-200', '/api/v1/onboarding/certificate', '2026-11-26T09:59:00Z', undefined),
  ];
  const [o, ...rest] = outages(results);
  assert.deepEqual(rest, []);
  assert.deepEqual(o, {
    origin: WFM,
    since: '2026-11-26T10:00:03Z',
    codes: ['WFMCK_E_CONNECTION', 'WFMCK_E_TIMEOUT'],
    requirements: ['CAP-PUT-201', 'CAP-PUT-200', 'DS-GET-200', 'STATUS-POST-201', 'CAP-DELETE-204'],
  });
  const lines = findingLines({ requirements: results, rootCauses: [], outages: [o!] });
  assert.match(
    lines[1]!,
    /^ {2}https:\/\/127\.0\.0\.1:8443 stopped answering at 2026-11-26T10:00:03Z \(WFMCK_E_CONNECTION, WFMCK_E_TIMEOUT\): 5 requirements failed on no answer: /,
  );
  assert.deepEqual(
    lines.slice(2).map((l) => l.trim().split(' ')[0]),
    ['CERT-GET-200'],
    'the one failure with an answer stays its own',
  );
  assert.match(causesHtml({ requirements: results, rootCauses: [], outages: [o!] }), /stopped answering at 2026-11-26T10:00:03Z/);
});

test('one endpoint that hangs (a single path) is its own findings, not an outage', () => {
  const hang = ['CERT-GET-200', 'CERT-NO-AUTH', 'CERT-API-SERVED', 'CERT-IS-ROOT-CA', 'ONB-201-CLIENTID'].map((id, i) =>
    failed(id, '/api/v1/onboarding/certificate', `2026-11-26T10:00:0${i}Z`, 'WFMCK_E_TIMEOUT'),
  );
  assert.deepEqual(outages(hang), []);
});

// An outage the run declared itself (cli/outage-watch.ts): what it cut short or kept from running is blocked by it.
const declared: DeclaredOutage = {
  target: 'WFM',
  origin: WFM,
  origins: [WFM],
  lastAnswerAt: '2026-11-26T10:00:02Z',
  firstFailureAt: '2026-11-26T10:00:04Z',
  declaredAt: '2026-11-26T10:00:07Z',
  afterCheck: 3,
  probes: ['2026-11-26T10:00:04Z WFM https://127.0.0.1:8443: connection refused'],
};

function record(id: string, status: TestRecord['status'], x?: Partial<Exchange>, extra: Partial<TestRecord> = {}): TestRecord {
  const evidence: Exchange[] | undefined = x && [
    { id: `x-${id}`, method: 'GET', url: `${WFM}/api/v1/x`, requestHeaders: {}, startedAt: '', durationMs: 1, attempt: 1, ...x },
  ];
  return {
    requirementIds: [id],
    title: `${id} t`,
    file: 'f.spec.ts',
    line: 1,
    status,
    durationMs: 1,
    ...(evidence && { evidence }),
    ...extra,
  };
}

const refused = { code: 'WFMCK_E_CONNECTION' as const, message: 'ECONNREFUSED' };

test('a declared outage blocks the checks cut short on no answer after it began and those never run; the rest stand', () => {
  const records = [
    record('CAP-PUT-201', 'pass', { status: 201, startedAt: '2026-11-26T10:00:01Z' }),
    record('CAP-PUT-200', 'fail', { status: 500, startedAt: '2026-11-26T10:00:01Z' }),
    record('CERT-GET-200', 'fail', { error: { code: 'WFMCK_E_TIMEOUT', message: 'late' }, startedAt: '2026-11-26T09:59:00Z' }),
    record('DS-GET-200', 'fail', { error: refused, startedAt: '2026-11-26T10:00:03Z' }),
    // In flight when the target died: started before the last answered probe, broken after it.
    record('STATUS-OBJECT', 'fail', {
      error: { code: 'WFMCK_E_CONNECTION', message: 'socket hang up' },
      startedAt: '2026-11-26T10:00:01.000Z',
      durationMs: 2500,
    }),
    // Broken before the last answered probe: the target dropped this one while it answered others.
    record('STATUS-PRECEDENCE', 'fail', {
      error: { code: 'WFMCK_E_CONNECTION', message: 'socket hang up' },
      startedAt: '2026-11-26T10:00:01.000Z',
      durationMs: 500,
    }),
    record('STATUS-POST-201', 'blocked', { error: refused, startedAt: '2026-11-26T10:00:05Z' }, { blockedBy: 'CAP-PUT-201' }),
    record('CAP-DELETE-204', 'fail', { error: refused, url: 'https://127.0.0.1:9999/x', startedAt: '2026-11-26T10:00:05Z' }),
    record('ONB-201-CLIENTID', 'skip', undefined, { skipCause: 'interrupted', reason: 'not run: the run was interrupted' }),
    record('CAP-PROPERTIES-REQUIRED', 'skip', undefined, { skipCause: 'disabled', reason: 'needs hook x' }),
  ];
  const blocked = blockByOutage(records, declared);
  assert.deepEqual(
    blocked.map((r) => `${r.requirementIds[0]} ${r.status}${r.blockedBy ? ` ${r.blockedBy}` : ''}`),
    [
      'CAP-PUT-201 pass',
      'CAP-PUT-200 fail',
      'CERT-GET-200 fail',
      `DS-GET-200 blocked ${OUTAGE_CAUSE}`,
      `STATUS-OBJECT blocked ${OUTAGE_CAUSE}`,
      'STATUS-PRECEDENCE fail',
      `STATUS-POST-201 blocked ${OUTAGE_CAUSE}`,
      'CAP-DELETE-204 fail',
      `ONB-201-CLIENTID blocked ${OUTAGE_CAUSE}`,
      'CAP-PROPERTIES-REQUIRED skip',
    ],
    'an answer (500), a hang begun and a connection broken before the last answered probe, and another origin stay findings; a configured skip stays',
  );
  assert.equal(blocked[8]!.skipCause, undefined);

  const report = buildReport({
    meta: fallbackMeta('0', '2026-11-26T10:00:00Z', {}),
    catalog: loadRequirements(),
    records,
    endedAt: '',
    interrupted: true,
    outage: declared,
  });
  const [o, ...rest] = report.outages;
  assert.deepEqual(rest, [], 'one outage');
  assert.equal(o!.since, '2026-11-26T10:00:03Z', 'it began at the first exchange that got no answer after the last answer');
  assert.deepEqual(o!.codes, ['WFMCK_E_CONNECTION']);
  assert.deepEqual(o!.requirements.sort(), ['DS-GET-200', 'ONB-201-CLIENTID', 'STATUS-OBJECT', 'STATUS-POST-201']);
  assert.deepEqual([o!.stopped!.checks, o!.stopped!.notRun, o!.stopped!.afterCheck], [10, 4, 3]);
  assert.deepEqual(
    o!.evidence!.map((x) => x.id),
    ['x-CAP-PUT-201', 'x-CAP-PUT-200', 'x-STATUS-OBJECT', 'x-DS-GET-200', 'x-STATUS-POST-201'],
    'the last answers before it, then the first exchanges that got none',
  );
  assert.equal(byId(report, 'DS-GET-200').status, 'blocked');
  assert.deepEqual(byId(report, 'DS-GET-200').blockedBy, [OUTAGE_CAUSE]);
  assert.equal(
    report.rootCauses.some((c) => c.id === OUTAGE_CAUSE),
    false,
  );
  assert.equal(report.problems.length, 0, report.problems.join('\n'));
  assert.match(
    stoppedLine(o!),
    /^the WFM at https:\/\/127\.0\.0\.1:8443 stopped answering at \d\d:\d\d:\d\d after check 3 of 10; 4 checks not run or cut short/,
  );
  assert.match(
    findingLines(report).join('\n'),
    /the WFM at https:\/\/127\.0\.0\.1:8443 stopped answering .*: 4 requirements blocked by it: /,
  );
});

test('no outage declared: the after-the-fact grouping alone, nothing blocked by an outage', () => {
  const records = [record('DS-GET-200', 'fail', { error: refused, startedAt: '2026-11-26T10:00:03Z' })];
  const report = buildReport({ meta: fallbackMeta('0', '', {}), catalog: loadRequirements(), records, endedAt: '', interrupted: false });
  assert.deepEqual(report.outages, []);
  assert.equal(byId(report, 'DS-GET-200').status, 'fail');
});

const byId = (r: ConformanceReport, id: string) => r.requirements.find((q) => q.id === id)!;

test('a check that ended on the client refusing the server SVID is blocked by MIAF-SERVER-SVID; its own check still fails', () => {
  const identity = { code: 'WFMCK_E_SERVER_IDENTITY' as const, message: 'the server is spiffe://td/v/wfm/other, not the WFM' };
  const records = [
    record('CAP-PUT-201', 'fail', { error: identity, startedAt: '2026-11-26T10:00:01Z' }),
    record('MIAF-SERVER-SVID', 'fail', { error: identity, startedAt: '2026-11-26T10:00:01Z' }),
    record('CAP-PUT-200', 'fail', { error: refused, startedAt: '2026-11-26T10:00:01Z' }),
  ];
  const report = buildReport({ meta: fallbackMeta('0', '', {}), catalog: loadRequirements(), records, endedAt: '', interrupted: false });
  assert.deepEqual(byId(report, 'CAP-PUT-201').blockedBy, ['MIAF-SERVER-SVID']);
  assert.equal(byId(report, 'CAP-PUT-200').status, 'fail', 'any other transport failure stays what it was');
  assert.deepEqual(report.rootCauses.find((c) => c.id === 'MIAF-SERVER-SVID')?.blocks, ['CAP-PUT-201']);
});
