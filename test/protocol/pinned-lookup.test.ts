// protocol/pinned-lookup.ts (issue 33): `--resolve HOST:PORT:ADDR` sends a name's sockets to a fixed address, while TLS
// still sends and checks the NAME: a certificate that does not carry it fails the hostname check through the pin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { request } from 'undici';
import { checkedPins, installPins, lookup, parsePin, pinnedLookup, pinText } from '../../protocol/pinned-lookup.ts';
import { createRootCa, issueCertificate } from '../../protocol/pki.ts';
import { createSharedAgent } from '../../simulators/transport/undici-transport.ts';
import { connectionProblem } from '../../cli/preflight.ts';
import { speaksTls } from '../../cli/scheme-probe.ts';

test("parsePin reads curl's HOST:PORT:ADDR, IPv6 bare or bracketed, and names what is wrong", () => {
  assert.deepEqual(parsePin('WFM.example.test:8443:127.0.0.1'), { host: 'wfm.example.test', port: 8443, address: '127.0.0.1' });
  assert.deepEqual(parsePin('wfm.example.test:8443:[::1]'), { host: 'wfm.example.test', port: 8443, address: '::1' });
  assert.deepEqual(parsePin('wfm.example.test:8443:::1').address, '::1');
  assert.equal(pinText(parsePin('a.test:1:[::1]')), 'a.test:1:[::1]');
  assert.throws(() => parsePin('wfm.example.test:8443'), /not HOST:PORT:ADDR/);
  assert.throws(() => parsePin('wfm.example.test:0:127.0.0.1'), /0 is not a port/);
  assert.throws(() => parsePin('wfm.example.test:8443:wfm.internal'), /"wfm.internal" is not an IP address/);
  assert.throws(() => parsePin('127.0.0.2:8443:127.0.0.1'), /is not a host name/);
});

test('a name pinned twice must go to one address: the lookup never sees the port', () => {
  const a = parsePin('wfm.example.test:1:127.0.0.1');
  assert.deepEqual(checkedPins([a, parsePin('wfm.example.test:2:127.0.0.1')]).length, 2);
  assert.throws(() => checkedPins([a, parsePin('wfm.example.test:2:127.0.0.2')]), /pinned to both 127\.0\.0\.1 and 127\.0\.0\.2/);
});

test('pinnedLookup answers a pinned name with its address, in both of dns.lookup shapes', async () => {
  const find = pinnedLookup([parsePin('wfm.example.test:1:127.0.0.3')]);
  const one = await new Promise<[string, number | undefined]>((done, fail) =>
    find('WFM.example.test', {}, (err, address, family) => (err ? fail(err) : done([address as string, family]))),
  );
  assert.deepEqual(one, ['127.0.0.3', 4]);
  const all = await new Promise((done, fail) => find('wfm.example.test', { all: true }, (err, a) => (err ? fail(err) : done(a))));
  assert.deepEqual(all, [{ address: '127.0.0.3', family: 4 }]);
  // Any other name is dns.lookup's (localhost: the hosts file, no query leaves the machine).
  const other = await new Promise((done, fail) => find('localhost', { family: 4 }, (err, a) => (err ? fail(err) : done(a))));
  assert.equal(other, '127.0.0.1');
});

/** An HTTPS server on 127.0.0.1 whose certificate names only `name`; it keeps the SNI each connection sent. */
async function namedServer(name: string) {
  const ca = await createRootCa('pinned-lookup test CA');
  const leaf = await issueCertificate(ca, { commonName: name, dnsNames: [name], usage: ['server'] });
  const sni: (string | false | null)[] = [];
  const server = createServer({ cert: leaf.certPem, key: leaf.keyPem }, (req, res) => {
    sni.push((req.socket as TLSSocket).servername);
    res.end('ok');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { ca: ca.certPem, port: (server.address() as AddressInfo).port, sni, close: () => server.close() };
}

test('through the pin, the transport reaches the name certified, sends it as SNI, and a name the certificate lacks fails the hostname check', async (t) => {
  const served = await namedServer('wfm.example.test');
  const agent = createSharedAgent({ ca: served.ca });
  t.after(async () => {
    installPins([]);
    await agent.close();
    served.close();
  });
  installPins([parsePin(`wfm.example.test:${served.port}:127.0.0.1`), parsePin(`other.example.test:${served.port}:127.0.0.1`)]);
  const res = await request(`https://wfm.example.test:${served.port}/`, { dispatcher: agent });
  assert.equal(await res.body.text(), 'ok');
  assert.deepEqual(served.sni, ['wfm.example.test']);
  await assert.rejects(request(`https://other.example.test:${served.port}/`, { dispatcher: agent }), {
    code: 'ERR_TLS_CERT_ALTNAME_INVALID',
  });
  assert.equal(served.sni.length, 1, 'no request reached the server under the wrong name');
});

test("the CLI's pre-flight probes connect through the pin", async (t) => {
  const served = await namedServer('wfm.example.test');
  t.after(() => {
    installPins([]);
    served.close();
  });
  const url = new URL(`https://wfm.example.test:${served.port}`);
  installPins([parsePin(`wfm.example.test:${served.port}:127.0.0.1`)]);
  assert.equal(await connectionProblem(url, [served.ca], 3_000), undefined);
  assert.equal(await speaksTls(url.hostname, served.port, 3_000), true);
  // Seed: the handshake of every check will check the name, so the pre-flight does too, and says what fixes it.
  const other = new URL(`https://other.example.test:${served.port}`);
  installPins([parsePin(`other.example.test:${served.port}:127.0.0.1`)]);
  assert.equal(await connectionProblem(other, [served.ca], 3_000), undefined, 'miaf: the name is not the identity');
  assert.match((await connectionProblem(other, [served.ca], 3_000, true))!, /certificate does not name other\.example\.test.*--hostname/);
});

test('the process lookup with no pins is dns.lookup', async () => {
  installPins([]);
  const address = await new Promise((done, fail) => lookup('localhost', { family: 4 }, (err, a) => (err ? fail(err) : done(a))));
  assert.equal(address, '127.0.0.1');
});
