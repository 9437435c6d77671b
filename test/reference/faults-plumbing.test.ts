// The fault mechanism itself: response rewrites reach the wire intact, and a variant's faulty decisions replace the
// clean ones of that instance only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { on, withRewrites, type Rewrite } from '../../reference/faults/rewrite.ts';
import { identityVariant, registryVariant, wfmVariant } from '../../reference/faults/index.ts';
import { cleanWfmDecisions } from '../../reference/wfm/decisions/index.ts';
import type { Client } from '../../reference/wfm/store.ts';
import type { DeviceCapabilities } from '../../spec/types.ts';

async function serve(rewrite: Rewrite | undefined, respond: (res: import('node:http').ServerResponse) => void) {
  const server = createServer(withRewrites((_req, res) => respond(res), rewrite ? [rewrite] : []));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

const twoHundred: Rewrite = on('PUT', /^\/api\/v1\/capabilities\//, (a) =>
  a.status === 201 ? { ...a, status: 200, body: Buffer.from('{"rewritten":true}') } : undefined,
);

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
  const hang: Rewrite = on('GET', /^\/slow$/, (a) => ({ ...a, hang: true }));
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

test('a variant replaces the decisions its faults name, keeps the clean rest, and gathers their rewrites in order', () => {
  assert.equal(wfmVariant([]).decisions, cleanWfmDecisions, 'no fault: the clean decisions themselves');
  const v = wfmVariant(['CAP-LIFE-DELETED', 'CAP-PUT-201', 'DS-304']);
  assert.equal(v.decisions.deleteRemoves({} as Client, 'd'), false);
  assert.equal(v.decisions.manifestNotModified('"x"', '"x"'), false);
  assert.equal(v.decisions.requiresCpus, cleanWfmDecisions.requiresCpus);
  assert.equal(v.rewrites.length, 1, 'CAP-PUT-201 is a rewrite');
  assert.equal(registryVariant(['REG-TAGS-N']).decisions.pageTags(['a', 'b', 'c'], 1, 'a').tags.length, 2, 'n ignored');
  assert.equal(identityVariant(['AUTH-IDENTITY-HTTPS']).decisions.servesHttps, false);
});

test('faults on the same decision compose: each builds on the one before', () => {
  const d = wfmVariant(['SIG-MISSING-DIGEST-400', 'SIG-WRONG-DIGEST-400']).decisions;
  assert.deepEqual(
    ['ok', 'missing', 'mismatch', 'malformed'].map((v) => d.acceptsContentDigest(v as never)),
    [true, true, true, false],
  );
});

test('what a faulty decision remembers belongs to its own instance', () => {
  const doc = { properties: { id: 'd' } } as DeviceCapabilities;
  const client = { devices: new Map() } as unknown as Client;
  const first = wfmVariant(['CAP-LIFE-CREATED']).decisions;
  assert.equal(first.answersCreated(client, 'd', undefined, doc), true);
  assert.equal(first.answersCreated(client, 'd', doc, doc), true, 'its first update is answered 201 again');
  const second = wfmVariant(['CAP-LIFE-CREATED']).decisions;
  assert.equal(second.answersCreated(client, 'd', doc, doc), false, 'another WFM never saw that document created');
});

test('a fault of another service is refused, naming it', () => {
  assert.throws(() => wfmVariant(['DISC-READ-ONLY']), /changes the identity's decisions, not the wfm's/);
  assert.throws(() => wfmVariant(['NO-SUCH-FAULT']), /no implementation/);
});
