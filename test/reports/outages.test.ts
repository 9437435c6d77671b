// A target that goes dark mid-run: its failures on no answer are one finding per origin, on the console and the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { outages } from '../../reports/outages.ts';
import { findingLines } from '../../reports/console.ts';
import { causesHtml } from '../../reports/html/causes.ts';
import type { RequirementResult } from '../../reports/matrix.ts';
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
