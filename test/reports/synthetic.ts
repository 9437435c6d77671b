// A synthetic run over the real catalog: most observable requirements pass, and a handful show every other status,
// including a MUST failure whose evidence carries a hostile body (the report must show it as text).
import { loadRequirements } from '../../spec/requirements.ts';
import { SEED_PROFILE } from '../../spec/profile.ts';
import type { Exchange } from '../../simulators/transport/types.ts';
import { buildReport, type ConformanceReport } from '../../reports/conformance-json.ts';
import { failureOf } from '../../reports/failure.ts';
import type { TestRecord } from '../../reports/matrix.ts';

export const HOSTILE_BODY = '<script>window.__pwned = 1; alert(1)</script><img src=x onerror="window.__pwned = 2">';
export const FAILING_ID = 'CAP-EXT-IGNORED';

export function exchange(over: Partial<Exchange> = {}): Exchange {
  return {
    id: 'x1',
    method: 'PUT',
    url: 'https://127.0.0.1:8443/api/v1/capabilities/dev1',
    requestHeaders: { 'content-type': 'application/json', 'wfmck-test-id': 't-1' },
    requestBody: '{"properties":{"id":"dev1"},"x-acme-extensions":{"a":1}}',
    status: 500,
    responseHeaders: { 'content-type': 'text/html' },
    responseBody: HOSTILE_BODY,
    startedAt: '2025-01-01T00:00:00.000Z',
    durationMs: 12,
    attempt: 1,
    ...over,
  };
}

function record(id: string, status: TestRecord['status'], extra: Partial<TestRecord> = {}): TestRecord {
  return {
    requirementIds: [id],
    title: `${id} checks it`,
    file: 'suites/capabilities.spec.ts',
    line: 10,
    status,
    durationMs: 42,
    ...extra,
  };
}

export function syntheticRecords(): TestRecord[] {
  const ids = loadRequirements().map((r) => r.id);
  const special = new Map<string, TestRecord>([
    [
      FAILING_ID,
      record(FAILING_ID, 'fail', {
        error: failureOf('Error: expect(received).toBe(expected)\n\nExpected: 200\nReceived: 500', FAILING_ID, 42, ids),
        evidence: [
          exchange({
            id: 'x0',
            method: 'GET',
            url: 'https://127.0.0.1:8443/api/v1/capabilities/dev1',
            requestBody: undefined,
            status: 404,
            responseBody: '',
          }),
          exchange(),
        ],
        brokeAt: { exchange: 'x1', expected: '200' },
      }),
    ],
    [
      'CAP-EXT-NOT-REJECTED',
      record('CAP-EXT-NOT-REJECTED', 'fail', {
        error: failureOf(
          'Property failed after 7 tests\n{ seed: 42, path: "6:1:0", endOnFailure: true }\nCounterexample: [{"x-a-extensions":{}}]',
          'CAP-EXT-NOT-REJECTED',
          42,
          ids,
        ),
        evidence: [
          exchange({
            status: 422,
            responseBody: '{"error":"unknown member x-a-extensions"}',
            responseHeaders: { 'content-type': 'application/json' },
          }),
        ],
      }),
    ],
    ['CAP-PUT-403', record('CAP-PUT-403', 'skip', { reason: 'needs hook retireClient' })],
    [
      'REG-TAGS-LAST',
      record('REG-TAGS-LAST', 'error', { error: failureOf('WFMCK_E_INTERNAL: registry fixture crashed', 'REG-TAGS-LAST', 42, ids) }),
    ],
  ]);
  return loadRequirements()
    .filter((r) => r.observer === 'wfm' || r.observer === 'identity' || r.observer === 'registry')
    .filter((r, i) => special.has(r.id) || i % 9 !== 4)
    .map((r) => special.get(r.id) ?? record(r.id, 'pass'));
}

export function syntheticReport(): ConformanceReport {
  return buildReport({
    meta: {
      kit: { name: 'wfmck', version: '0.1.0' },
      persona: 'wfm',
      edition: 'seed',
      component: { vendor: 'Example Corp', name: 'example-wfm', version: '1.2.3' },
      claims: null,
      signing: null,
      embedded: true,
      targets: {
        wfm: 'https://127.0.0.1:8443',
        identity: 'https://127.0.0.1:8444',
        registry: 'http://127.0.0.1:5000',
        registryRepository: 'wfmck/conformance',
      },
      caFiles: ['/etc/wfmck/ca.pem'],
      profile: SEED_PROFILE,
      strictness: 'default',
      seed: 42,
      runs: 100,
      hooks: ['assignDeployment', 'rotateTrustAnchor'],
      startedAt: '2025-01-01T00:00:00.000Z',
    },
    catalog: loadRequirements(),
    records: syntheticRecords(),
    endedAt: '2025-01-01T00:01:03.000Z',
    interrupted: false,
  });
}
