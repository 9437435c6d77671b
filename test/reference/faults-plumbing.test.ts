// The fault mechanism itself: response rewrites reach the wire intact, unknown fault ids are usage errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { on, withRewrites } from '../../reference/faults/rewrite.ts';
import { FAULTS, resolveFaults } from '../../reference/faults/catalog.ts';
import type { FaultDefinition } from '../../reference/faults/types.ts';

async function serve(fault: FaultDefinition | undefined, respond: (res: import('node:http').ServerResponse) => void) {
  const server = createServer(withRewrites((_req, res) => respond(res), fault ? [fault] : []));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

const twoHundred: FaultDefinition = {
  id: 'T-1', service: 'wfm', breaks: ['T-1'], description: 'test',
  rewrite: on('PUT', /^\/api\/v1\/capabilities\//, (a) => (a.status === 201 ? { ...a, status: 200, body: Buffer.from('{"rewritten":true}') } : undefined)),
};

test('a rewrite changes status and body of the matching request only, with a correct Content-Length', async () => {
  const s = await serve(twoHundred, (res) => {
    res.setHeader('x-kept', 'yes');
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end('{}');
  });
  try {
    const hit = await fetch(`${s.url}/api/v1/capabilities/dev1`, { method: 'PUT' });
    assert.equal(hit.status, 200);
    assert.deepEqual(await hit.json(), { rewritten: true });
    assert.equal(hit.headers.get('x-kept'), 'yes');
    assert.equal(hit.headers.get('content-length'), String('{"rewritten":true}'.length));
    const other = await fetch(`${s.url}/api/v1/capabilities/dev1`, { method: 'GET' });
    assert.equal(other.status, 201, 'a GET is not the PUT the fault rewrites');
    assert.equal(await other.text(), '{}');
  } finally {
    s.close();
  }
});

test('with a fault on, an answer the fault leaves alone keeps its status: a 204 from writeHead with no headers stays 204', async () => {
  const s = await serve(twoHundred, (res) => {
    res.writeHead(204);
    res.end();
  });
  try {
    const r = await fetch(`${s.url}/api/v1/capabilities/dev1`, { method: 'DELETE' });
    assert.equal(r.status, 204, 'the writeHead status, not res.statusCode (which writeHead never set)');
  } finally {
    s.close();
  }
});

test('a hang rewrite never answers: the request stays open until the client gives up', async () => {
  const hang: FaultDefinition = { id: 'T-2', service: 'wfm', breaks: ['T-2'], description: 'test', rewrite: on('GET', /^\/slow$/, (a) => ({ ...a, hang: true })) };
  const s = await serve(hang, (res) => res.end('{}'));
  try {
    await assert.rejects(fetch(`${s.url}/slow`, { signal: AbortSignal.timeout(500) }), /aborted|timeout/i);
    assert.equal((await fetch(`${s.url}/fast`)).status, 200, 'every other request is answered');
  } finally {
    s.close();
  }
});

test('without faults the listener is untouched (streamed writes pass through)', async () => {
  const s = await serve(undefined, (res) => {
    res.statusCode = 202;
    res.write('a');
    res.end('b');
  });
  try {
    const r = await fetch(s.url);
    assert.deepEqual([r.status, await r.text()], [202, 'ab']);
  } finally {
    s.close();
  }
});

test('fault ids are unique, name a breaking requirement first, and unknown ids are refused', () => {
  const ids = FAULTS.map((f) => f.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const f of FAULTS) assert.equal(f.breaks[0], f.id.split(':')[0], `${f.id} breaks its own requirement first`);
  assert.throws(() => resolveFaults(['NO-SUCH-FAULT']), /unknown fault "NO-SUCH-FAULT"/);
});
