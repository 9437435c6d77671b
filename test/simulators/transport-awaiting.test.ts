// A request still waiting for its answer is in the transcript's `awaiting()` (with its deadline and the wait so far), so
// a check that runs out of time attaches it as evidence; once it ends, answered or not, it is an ordinary exchange.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import * as hostile from '../../scripted/hostile-servers.ts';
import { Transcript } from '../../simulators/transport/transcript.ts';
import { createTransport } from '../../simulators/transport/undici-transport.ts';

const servers: hostile.HostileServer[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

test('a request to a peer that never answers: awaiting while it waits, recorded with WFMCK_E_TIMEOUT after its deadline', async () => {
  const s = await hostile.hangServer();
  servers.push(s);
  const transcript = new Transcript();
  const transport = createTransport({ timeoutMs: 1_500, transcript, testId: 't-wait' });
  try {
    const pending = transport
      .request({ method: 'GET', url: s.url, headers: { authorization: 'Bearer secret-token' } })
      .catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 300));
    const [waiting, ...rest] = transcript.awaiting();
    assert.equal(rest.length, 0);
    assert.deepEqual(
      [waiting?.method, waiting?.testId, waiting?.awaiting, waiting?.status],
      ['GET', 't-wait', { deadlineMs: 1_500 }, undefined],
    );
    assert.ok(waiting!.durationMs >= 250 && waiting!.durationMs < 1_500, `waited ${waiting!.durationMs} ms so far`);
    assert.doesNotMatch(JSON.stringify(waiting), /secret-token/, 'redacted like every exchange');
    assert.match(transcript.toCurl(waiting!), /^# .*attempt 1: no answer yet after \d+ ms \(deadline 1500 ms\)$/m);
    assert.equal(transcript.all().length, 0);
    await pending;
    assert.deepEqual(transcript.awaiting(), []);
    assert.equal(transcript.all()[0]?.error?.code, 'WFMCK_E_TIMEOUT');
  } finally {
    await transport.close();
  }
});

test('a request sent after the kit closed its transport (a check that ran on past its teardown) is WFMCK_E_ABORTED, not the peer', async () => {
  const transcript = new Transcript();
  const transport = createTransport({ timeoutMs: 1_500, transcript });
  await transport.close();
  await assert.rejects(transport.request({ method: 'GET', url: 'https://127.0.0.1:9/x' }), { code: 'WFMCK_E_ABORTED' });
  assert.match(transcript.all()[0]!.error!.message, /^not sent: the kit had closed this transport \(UND_ERR_(CLOSED|DESTROYED)/);
});
