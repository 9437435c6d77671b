// The transcript: a bounded ring, redaction of credentials (signatures kept), trimmed bodies, curl reproductions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { renderBody, retrim, trimInfo } from '../../protocol/evidence.ts';
import { Transcript } from '../../simulators/transport/transcript.ts';
import type { Exchange } from '../../simulators/transport/types.ts';

const seed = process.env.WFMCK_SEED ? Number(process.env.WFMCK_SEED) : undefined;
const run = (numRuns: number) => ({ numRuns, ...(seed !== undefined ? { seed } : {}) });

function exchange(over: Partial<Exchange> = {}): Exchange {
  return {
    id: 'x1',
    method: 'PUT',
    url: 'https://127.0.0.1:8443/api/v1/capabilities/dev-1',
    requestHeaders: { 'content-type': 'application/json' },
    startedAt: '2025-01-01T00:00:00.000Z',
    durationMs: 12.3,
    attempt: 1,
    status: 201,
    ...over,
  };
}

test('the ring keeps the newest maxExchanges, oldest first, and counts what it dropped', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 60 }), (max, count) => {
      const t = new Transcript({ maxExchanges: max });
      for (let i = 0; i < count; i++) t.record(exchange({ id: String(i) }));
      const expected = Array.from({ length: count }, (_, i) => String(i)).slice(-max);
      assert.deepEqual(
        t.all().map((x) => x.id),
        expected,
      );
      assert.equal(t.dropped, Math.max(0, count - max));
    }),
    run(200),
  );
});

test('forTest returns the exchanges of one test id', () => {
  const t = new Transcript();
  t.record(exchange({ id: 'a', testId: 'CAP-201' }));
  t.record(exchange({ id: 'b', testId: 'CAP-404' }));
  t.record(exchange({ id: 'c', testId: 'CAP-201' }));
  assert.deepEqual(
    t.forTest('CAP-201').map((x) => x.id),
    ['a', 'c'],
  );
});

test('credentials are redacted; signature headers are kept as evidence', () => {
  const t = new Transcript();
  t.record(
    exchange({
      url: 'https://user:secret@127.0.0.1/v2/',
      requestHeaders: {
        Authorization: 'Bearer abc',
        cookie: 'sid=1',
        signature: 'sig1=:AAAA:',
        'signature-input': 'sig1=("@method")',
        'content-digest': 'sha-256=:x:',
      },
      responseHeaders: { 'set-cookie': 'sid=2', etag: '"e"' },
      responseBody: '{"token":"eyJhbGciOi","expires_in":300}',
    }),
  );
  const [x] = t.all();
  assert.equal(x!.requestHeaders['Authorization'], '<redacted>');
  assert.equal(x!.requestHeaders['cookie'], '<redacted>');
  assert.equal(x!.responseHeaders!['set-cookie'], '<redacted>');
  assert.equal(x!.requestHeaders['signature'], 'sig1=:AAAA:');
  assert.equal(x!.requestHeaders['signature-input'], 'sig1=("@method")');
  assert.equal(x!.requestHeaders['content-digest'], 'sha-256=:x:');
  assert.equal(x!.url, 'https://127.0.0.1/v2/');
  assert.equal(x!.responseBody, '{"token":"<redacted>","expires_in":300}');
});

test('bodies are trimmed with a mark saying how much there was; binary is named, not shown', () => {
  const big = Buffer.from('a'.repeat(10_000));
  const shown = renderBody(big, 4096)!;
  assert.deepEqual(trimInfo(shown), { shown: 4096, total: 10_000, markLength: shown.length - 4096 });
  assert.ok(shown.startsWith('a'.repeat(4096) + '\n…[wfmck: body trimmed'));
  assert.equal(renderBody(Buffer.from('short'), 4096), 'short');
  assert.equal(renderBody(Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xff]), 4096), '<5 bytes binary>');
  assert.equal(renderBody(new Uint8Array(0)), undefined);
  // A multi-byte character cut by the trim is not mistaken for binary.
  assert.ok(!renderBody(Buffer.from('é'.repeat(100)), 51)!.startsWith('<'));
  const t = new Transcript({ trimBytes: 100 });
  t.record(exchange({ requestBody: shown }));
  assert.deepEqual(trimInfo(t.all()[0]!.requestBody!)?.total, 10_000);
  assert.equal(retrim('<5 bytes binary>', 1), '<5 bytes binary>');
});

test('toCurl: a shell-quoted command with headers, CA file and body; trimmed bodies are marked', () => {
  const t = new Transcript({ trimBytes: 8 });
  const x = exchange({
    testId: 'CAP-201',
    requestHeaders: { 'content-type': 'application/json', authorization: 'Basic Zm9vOmJhcg==', host: 'h', 'content-length': '20' },
    requestBody: renderBody(Buffer.from(`{"id":"it's a long body"}`), 8)!,
  });
  const curl = t.toCurl(x, { cacert: '/tmp/ca.pem' });
  assert.match(curl, /^# wfmck exchange x1 \(test CAP-201\), attempt 1: HTTP 201 in 12 ms$/m);
  assert.match(curl, /^# request body trimmed: only the first 8 of 25 bytes are below$/m);
  assert.match(curl, /^curl -sS -i -X PUT 'https:\/\/127\.0\.0\.1:8443\/api\/v1\/capabilities\/dev-1' \\$/m);
  assert.match(curl, /--cacert '\/tmp\/ca\.pem'/);
  assert.match(curl, /-H 'content-type: application\/json'/);
  assert.match(curl, /-H 'authorization: <redacted>'/);
  assert.doesNotMatch(curl, /host: h|content-length/);
  assert.match(curl, /--data-binary '\{"id":"i'$/m);
  const quoted = t.toCurl(exchange({ requestBody: `it's` }));
  assert.match(quoted, /--data-binary 'it'\\''s'$/);
  assert.match(t.toCurl(exchange({ method: 'HEAD' })), /curl -sS -i --head /);
  assert.match(
    t.toCurl(exchange({ status: undefined, error: { code: 'WFMCK_E_TIMEOUT', message: 'late' } })),
    /attempt 1: WFMCK_E_TIMEOUT late/,
  );
});
