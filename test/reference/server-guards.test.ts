// Every reference server answers what Node's HTTP parser refuses by itself with a status and a body in its own error
// format (never a bare "400 Bad Request" without a body, never a reset), and the admin API answers odd paths 404.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect as tcp } from 'node:net';
import { connect as tls } from 'node:tls';
import { startEmbedded, type Embedded } from '../../run/processes/embedded.ts';
import { startRegistry } from '../../reference/registry/server.ts';

let embedded: Embedded;
before(async () => (embedded = await startEmbedded()));
after(() => embedded.close());

/** Sends raw bytes and reads everything until the server closes (or 20 s pass). */
function raw(url: string, bytes: string, opts: { keepOpen?: boolean } = {}): Promise<string> {
  const { hostname, port, protocol } = new URL(url);
  return new Promise((resolve, reject) => {
    const host = hostname.replace(/^\[|\]$/g, '');
    const socket =
      protocol === 'https:'
        ? tls({ host, port: Number(port), ca: embedded.caPem, servername: 'localhost' })
        : tcp({ host, port: Number(port) });
    let text = '';
    const timer = setTimeout(() => (socket.destroy(), reject(new Error(`no close within 20 s; got: ${text}`))), 20_000);
    socket.on(protocol === 'https:' ? 'secureConnect' : 'connect', () => (opts.keepOpen ? socket.write(bytes) : socket.end(bytes)));
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('close', () => (clearTimeout(timer), resolve(text)));
    socket.on('error', reject);
  });
}

const services = () => ({ wfm: embedded.wfm, identity: embedded.identity, registry: embedded.registry, admin: embedded.admin.url });

function statusAndBody(answer: string): { status: number; type: string; body: unknown } {
  const [head, body = ''] = answer.split('\r\n\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head ?? '')?.[1]);
  const type = /\r\ncontent-type: ([^\r]+)/i.exec(head ?? '')?.[1] ?? '';
  return { status, type, body: JSON.parse(body) };
}

test('a malformed request line is answered 400 with a JSON body by the WFM, identity role, registry and admin API', async () => {
  for (const [name, url] of Object.entries(services())) {
    const answer = statusAndBody(await raw(url, 'GET / HTTP/1.1 garbage\r\n\r\n'));
    assert.equal(answer.status, 400, `${name}: ${JSON.stringify(answer)}`);
    assert.match(answer.type, /json/, name);
    assert.ok(answer.body && typeof answer.body === 'object', name);
  }
});

test("headers past Node's limit are answered 431 with a JSON body, in each service's format", async () => {
  const huge = `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`;
  for (const [name, url] of Object.entries(services())) {
    const answer = statusAndBody(await raw(url, huge));
    assert.equal(answer.status, 431, name);
    if (name === 'registry')
      assert.deepEqual(
        (answer.body as { errors: { code: string }[] }).errors.map((e) => e.code),
        ['SIZE_INVALID'],
      );
    if (name === 'admin' || name === 'identity') assert.match(String((answer.body as { error: string }).error), new RegExp(`^${name}: `));
  }
});

test('the admin API answers GET // with 404 (it was a 500 "Invalid URL")', async () => {
  const res = await fetch(`${embedded.admin.url}//`, { headers: { authorization: `Bearer ${embedded.admin.token}` } });
  assert.equal(res.status, 404);
  assert.match(((await res.json()) as { error: string }).error, /no hook at \/\//);
});

test('a registry body that stalls is cut at the deadline with 408 and an OCI error body', async () => {
  const registry = await startRegistry({ requestTimeoutMs: 1_000 });
  try {
    const started = Date.now();
    const answer = await raw(
      registry.url,
      'POST /v2/acme/app/blobs/uploads/?digest=sha256:' + '0'.repeat(64) + ' HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc',
      { keepOpen: true },
    );
    const { status, body } = statusAndBody(answer);
    assert.equal(status, 408);
    assert.deepEqual(
      (body as { errors: { code: string }[] }).errors.map((e) => e.code),
      ['UNKNOWN'],
    );
    assert.ok(Date.now() - started < 5_000, `cut after ${Date.now() - started} ms`);
  } finally {
    await registry.close();
  }
});
