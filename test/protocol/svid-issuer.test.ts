// The SVID issuer: good leaves pass every P10 leaf rule, each bad leaf breaks exactly the rules its name says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request } from 'node:https';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { BAD_SVID_KINDS, createSvidCa, issueBadSvid, issueSvid, nativeSvidIssuer, type BadSvidKind } from '../../protocol/svid-issuer.ts';
import { generateKeys, type CryptoKey } from '../../protocol/pki.ts';
import { svidKeyAlgorithm, svidLeafFindings } from '../../spec/rules/svid-leaf.ts';
import { clientSpiffeId } from '../../spec/spiffe-id.ts';
import { x509 } from '../../spec/x509.ts';
import { fcOptions } from '../support/fc.ts';

const TD = 'wfmck.test';
const ID = clientSpiffeId({ trustDomain: TD, vendor: 'platform', wfmId: 'wfm-1', clientId: 'dev-1' });
const rules = (cert: x509.X509Certificate) =>
  svidLeafFindings(cert, { at: new Date(), trustDomain: TD })
    .map((f) => f.rule)
    .sort();

const BREAKS: Record<BadSvidKind, string[]> = {
  'ca-as-leaf': ['svid-leaf-ca'], // cA true with digitalSignature only, so OpenSSL's purpose check lets it reach the WFM's own rule
  'cert-sign-leaf': ['svid-leaf-cert-sign'],
  'two-uri-sans': ['svid-one-uri-san'],
  'no-uri-san': ['svid-one-uri-san'],
  expired: ['svid-validity'],
  'not-yet-valid': ['svid-validity'],
  'other-trust-domain': ['svid-trust-domain'],
  'http-scheme': ['svid-spiffe-id'],
  'root-path': ['svid-spiffe-id'],
};

test('a good SVID from a root and one from an intermediate pass every leaf rule; the chain is leaf then intermediate', async () => {
  for (const intermediate of [false, true]) {
    const ca = await createSvidCa({ trustDomain: TD, intermediate });
    const svid = await issueSvid(ca, ID);
    assert.deepEqual(rules(svid.cert), [], `intermediate: ${intermediate}`);
    assert.equal(svid.spiffeId, ID);
    const chain = svid.chainPem
      .match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g)!
      .map((p) => new x509.X509Certificate(p));
    assert.equal(chain.length, intermediate ? 2 : 1);
    const signer = intermediate ? chain[1]! : ca.root.cert;
    assert.equal(await chain[0]!.verify({ publicKey: signer.publicKey, signatureOnly: true }), true);
    if (intermediate) assert.equal(await signer.verify({ publicKey: ca.root.cert.publicKey, signatureOnly: true }), true);
    assert.deepEqual(svidKeyAlgorithm(svid.cert), { known: 'P-256' }, 'ECDSA P-256 by default');
  }
});

test('each bad SVID breaks exactly the rules its defect names', async () => {
  const ca = await createSvidCa({ trustDomain: TD, intermediate: true });
  assert.deepEqual(Object.keys(BREAKS).sort(), [...BAD_SVID_KINDS].sort());
  for (const kind of BAD_SVID_KINDS) {
    const bad = await issueBadSvid(ca, kind, ID);
    assert.deepEqual(rules(bad.cert), [...BREAKS[kind]].sort(), kind);
  }
});

test('an SVID for a public key the caller holds carries that key and no private key', async () => {
  const ca = await createSvidCa({ trustDomain: TD });
  const keys = await generateKeys('P-384');
  const svid = await issueSvid(ca, ID, { publicKey: keys.publicKey });
  assert.equal(svid.keyPem, '');
  assert.equal(svid.privateKey, undefined);
  const spki = async (k: CryptoKey) => Buffer.from(await crypto.subtle.exportKey('spki', k)).toString('hex');
  assert.equal(Buffer.from(svid.cert.publicKey.rawData).toString('hex'), await spki(keys.publicKey));
  assert.deepEqual(rules(svid.cert), []);
});

test('property: every P10 key algorithm, for the CA and the leaf, gives an SVID that passes and names its algorithm', async () => {
  const algs = fc.constantFrom('P-256' as const, 'P-384' as const, 'Ed25519' as const, 'RSA-3072' as const);
  await fc.assert(
    fc.asyncProperty(algs, algs, fc.boolean(), async (caAlg, leafAlg, intermediate) => {
      const ca = await createSvidCa({ trustDomain: TD, keyAlgorithm: caAlg, intermediate });
      const svid = await issueSvid(ca, ID, { keyAlgorithm: leafAlg });
      assert.deepEqual(rules(svid.cert), []);
      assert.deepEqual(svidKeyAlgorithm(svid.cert), { known: leafAlg });
      assert.equal(await svid.cert.verify({ publicKey: (ca.intermediate ?? ca.root).cert.publicKey, signatureOnly: true }), true);
    }),
    fcOptions(6),
  );
});

test('a TLS server trusting only the root accepts a client presenting its chain (leaf + intermediate) on loopback', async () => {
  const ca = await createSvidCa({ trustDomain: TD, intermediate: true });
  const server = await issueSvid(ca, `spiffe://${TD}/platform/wfm/wfm-1`);
  const client = await issueSvid(ca, ID);
  const srv = createServer(
    { cert: server.chainPem, key: server.keyPem, ca: ca.bundlePem, requestCert: true, rejectUnauthorized: true, minVersion: 'TLSv1.3' },
    (req, res) => {
      const peer = (req.socket as import('node:tls').TLSSocket).getPeerCertificate();
      res.end(peer.subjectaltname ?? '');
    },
  );
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  try {
    const port = (srv.address() as AddressInfo).port;
    // SVIDs carry no DNS name: the client checks the server's SPIFFE ID instead of a host name (P10).
    const get = (cert: string) =>
      new Promise<string>((resolve, reject) => {
        const req = request(
          { host: '127.0.0.1', port, cert, key: client.keyPem, ca: ca.bundlePem, checkServerIdentity: () => undefined, agent: false },
          (res) => {
            let text = '';
            res.on('data', (c) => (text += c));
            res.on('end', () => resolve(text));
          },
        );
        req.on('error', reject);
        req.end();
      });
    assert.equal(await get(client.chainPem), `URI:${ID}`);
    // The negative control: without its intermediate the leaf does not chain to the root.
    await assert.rejects(get(client.certPem));
  } finally {
    srv.close();
  }
});

test('nativeSvidIssuer: the leaf issueSvid makes, minted natively, passes every P10 leaf rule; its chain carries the intermediate', async () => {
  for (const intermediate of [false, true]) {
    const ca = await createSvidCa({ trustDomain: TD, intermediate });
    for (const keyAlgorithm of ['P-256', 'P-384', 'Ed25519'] as const) {
      const svid = nativeSvidIssuer(ca)(ID, keyAlgorithm);
      const cert = new x509.X509Certificate(svid.certPem);
      assert.deepEqual(rules(cert), [], `${keyAlgorithm}, intermediate ${intermediate}`);
      assert.deepEqual(svidKeyAlgorithm(cert), { known: keyAlgorithm });
      assert.equal(cert.subject, `CN=${ID.slice(0, 64)}`);
      assert.equal(svid.chainPem, svid.certPem + (ca.intermediate?.certPem ?? ''));
      const signer = ca.intermediate ?? ca.root;
      assert.equal(await cert.verify({ publicKey: signer.cert.publicKey, signatureOnly: true }), true);
    }
  }
});
