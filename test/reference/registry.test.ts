// The reference registry's routing and robustness: version check, names, unknown paths and methods, size caps,
// HTTPS, mounting the handler elsewhere, and no 5xx whatever the request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import fc from 'fast-check';
import { createRootCa, issueCertificate } from '../../protocol/pki.ts';
import { createRegistryHandler, RegistryStore, startRegistry } from '../../reference/registry/server.ts';
import { digestOf, errorCodes, pushImage, replayParameters, useRegistry } from './registry-helpers.ts';

const registry = useRegistry({ maxBlobBytes: 1024, maxManifestBytes: 512 });
const base = () => registry.current.url;

test('GET /v2/ answers 200 {} with Docker-Distribution-API-Version registry/2.0', async () => {
  const res = await fetch(`${base()}/v2/`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('docker-distribution-api-version'), 'registry/2.0');
  assert.deepEqual(await res.json(), {});
});

test('multi-segment names work: the endpoint is read from the right of the path', async () => {
  for (const name of ['acme/apps/hello', 'a/blobs/b', 'x/manifests/y/tags']) {
    const { digest } = await pushImage(base(), name, '1.0.0');
    const res = await fetch(`${base()}/v2/${name}/manifests/1.0.0`);
    assert.equal(res.status, 200, name);
    assert.equal(res.headers.get('docker-content-digest'), digest);
    assert.deepEqual(await (await fetch(`${base()}/v2/${name}/tags/list`)).json(), { name, tags: ['1.0.0'] });
  }
});

test('names outside the OCI name grammar are 400 NAME_INVALID', async () => {
  for (const name of ['Acme/app', 'acme//app', '-acme', 'acme_', 'ac..me', 'acme/app/', 'a%2Fb', 'a'.repeat(256)]) {
    const res = await fetch(`${base()}/v2/${name}/tags/list`);
    assert.equal(res.status, 400, name);
    assert.deepEqual(await errorCodes(res), ['NAME_INVALID'], name);
  }
});

test('names the grammar allows (dots, underscores, double underscores, dash runs) are accepted', async () => {
  for (const name of ['a.b', 'a_b', 'a__b', 'a---b', '0/1/2']) {
    const res = await fetch(`${base()}/v2/${name}/blobs/uploads/`, { method: 'POST' });
    assert.equal(res.status, 202, name);
  }
});

test('unknown paths are 404 with an OCI error body', async () => {
  for (const path of [
    '/',
    '/v1/',
    '/v2/acme',
    '/v2/acme/unknown/thing',
    '/v2/acme/tags',
    '/v2/acme/blobs/',
    '/v2/acme/manifests/',
    '/v2/acme/manifests/%zz',
  ]) {
    const res = await fetch(`${base()}${path}`);
    assert.equal(res.status, 404, path);
    const body = (await res.json()) as { errors: { code: string; message: string }[] };
    assert.match(body.errors[0]!.code, /^[A-Z_]+$/, path);
  }
});

test('a method an endpoint does not answer is 405 with Allow', async () => {
  const res = await fetch(`${base()}/v2/acme/tags/list`, { method: 'DELETE' });
  assert.equal(res.status, 405);
  assert.equal(res.headers.get('allow'), 'GET');
  assert.deepEqual(await errorCodes(res), ['UNSUPPORTED']);
  assert.equal((await fetch(`${base()}/v2/acme/blobs/uploads/`, { method: 'GET' })).status, 405);
});

test('a blob over the cap is 413 with an OCI error, declared or streamed', async () => {
  const digest = digestOf('x'.repeat(2000));
  const declared = await fetch(`${base()}/v2/acme/blobs/uploads/?digest=${digest}`, { method: 'POST', body: 'x'.repeat(2000) });
  assert.equal(declared.status, 413);
  assert.deepEqual(await errorCodes(declared), ['BLOB_UPLOAD_INVALID']);
  const body = new ReadableStream({
    start(c) {
      for (let i = 0; i < 4; i++) c.enqueue(new Uint8Array(500));
      c.close();
    },
  });
  const streamed = await fetch(`${base()}/v2/acme/blobs/uploads/?digest=${digest}`, {
    method: 'POST',
    body,
    duplex: 'half',
  } as RequestInit);
  assert.equal(streamed.status, 413);
  assert.equal((await fetch(`${base()}/v2/`)).status, 200, 'the registry still answers');
});

test('chunks that together pass the blob cap are 413', async () => {
  const post = await fetch(`${base()}/v2/acme/blobs/uploads/`, { method: 'POST' });
  const location = new URL(post.headers.get('location')!, base());
  const first = await fetch(location, { method: 'PATCH', body: 'a'.repeat(1000), headers: { 'Content-Range': '0-999' } });
  assert.equal(first.status, 202);
  const second = await fetch(location, { method: 'PATCH', body: 'a'.repeat(100), headers: { 'Content-Range': '1000-1099' } });
  assert.equal(second.status, 413);
});

test('a manifest over the cap is 413 with an OCI error', async () => {
  const res = await fetch(`${base()}/v2/acme/manifests/big`, {
    method: 'PUT',
    body: ' '.repeat(600),
    headers: { 'Content-Type': 'application/vnd.oci.image.manifest.v1+json' },
  });
  assert.equal(res.status, 413);
  assert.deepEqual(await errorCodes(res), ['MANIFEST_INVALID']);
});

test('no request shape makes the registry answer 5xx', async () => {
  const segment = fc.constantFrom(
    'v2',
    'acme',
    'A',
    'blobs',
    'uploads',
    'manifests',
    'tags',
    'list',
    'referrers',
    '',
    '..',
    '%3A',
    'sha256:abc',
    digestOf('x'),
  );
  const method = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS');
  const query = fc.constantFrom('', '?digest=sha256:zz', '?n=-1', '?n=2&last=%FF', '?mount=x&from=Y', `?digest=${digestOf('')}`);
  const headers = fc.record(
    { 'content-range': fc.constantFrom('0-0', '5-1', 'x', '0-99999999999'), accept: fc.string() },
    { requiredKeys: [] },
  );
  await fc.assert(
    fc.asyncProperty(
      method,
      fc.array(segment, { maxLength: 7 }),
      query,
      fc.string({ maxLength: 64 }),
      headers,
      async (m, segs, q, body, hdrs) => {
        const init: RequestInit = { method: m, headers: hdrs };
        if (m !== 'GET' && m !== 'HEAD') init.body = body;
        const res = await fetch(`${base()}/${segs.join('/')}${q}`, init);
        await res.arrayBuffer();
        assert.ok(res.status < 500, `${m} /${segs.join('/')}${q} -> ${res.status}`);
      },
    ),
    { numRuns: 300, ...replayParameters() },
  );
});

test('with tls the registry serves HTTPS', async () => {
  const ca = await createRootCa('wfmck registry test');
  const leaf = await issueCertificate(ca, { commonName: '127.0.0.1', ipAddresses: ['127.0.0.1'], usage: ['server'] });
  const secure = await startRegistry({ tls: { cert: leaf.certPem, key: leaf.keyPem } });
  try {
    assert.match(secure.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    const res = await request(`${secure.url}/v2/`, { dispatcher: new Agent({ connect: { ca: ca.certPem } }) });
    assert.equal(res.statusCode, 200);
    assert.equal(await res.body.text(), '{}');
  } finally {
    await secure.close();
  }
});

test('createRegistryHandler mounts on another server over a shared store', async () => {
  const store = new RegistryStore();
  const server = createServer(createRegistryHandler(store));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await pushImage(url, 'acme/app', 'v1');
    assert.deepEqual(store.tags('acme/app'), ['v1']);
  } finally {
    server.close();
  }
});

test('a thrown bug is a logged 500, and the registry keeps serving', async () => {
  const logged: string[] = [];
  const store = new RegistryStore();
  const faulty = await startRegistry({
    store,
    log: (message) => logged.push(message),
    decisions: {
      pageTags: () => {
        throw new Error('boom');
      },
    },
  });
  try {
    await pushImage(faulty.url, 'acme/app', 'v1');
    const res = await fetch(`${faulty.url}/v2/acme/app/tags/list`);
    assert.equal(res.status, 500);
    assert.equal(logged.length, 1);
    assert.equal((await fetch(`${faulty.url}/v2/`)).status, 200);
  } finally {
    await faulty.close();
  }
});
