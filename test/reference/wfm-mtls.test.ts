// The reference WFM in edition miaf (P10): mutual TLS with SVIDs judged at the handshake, the policy's admission,
// the rc.3 paths, problem details, and a trust bundle rotation reaching its TLS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startEmbedded, type Embedded } from '../../run/processes/embedded.ts';
import { resolveProfile } from '../../spec/profile.ts';
import { tlsProbe, type ProbeResult } from '../../scripted/tls-probe.ts';
import { mintSvid, newClientSpiffeId, type SpiffeTarget } from '../../fixtures/svid.ts';
import { wfmSpiffeId } from '../../spec/spiffe-id.ts';
import { generateKeys, privateKeyPem } from '../../protocol/pki.ts';
import { x509 } from '../../spec/x509.ts';

const profile = resolveProfile({ edition: 'miaf' });

async function withEmbedded(fn: (e: Embedded, t: SpiffeTarget) => Promise<void>, faults: string[] = []): Promise<void> {
  const e = await startEmbedded({ profile, faults });
  const t = {
    trustDomain: e.spiffe!.trustDomain,
    vendor: profile.vendor,
    wfmId: e.spiffe!.wfmId,
    wfmSpiffeId: wfmSpiffeId({ trustDomain: e.spiffe!.trustDomain, vendor: profile.vendor, wfmId: e.spiffe!.wfmId }),
  };
  try {
    await fn(e, t);
  } finally {
    await e.close();
  }
}

async function admittedSvid(e: Embedded, t: SpiffeTarget) {
  const { spiffeId } = newClientSpiffeId(t);
  await e.hooks['admitClient']!({ spiffeId });
  return mintSvid(e.deviceCa, t.trustDomain, spiffeId);
}

const get = (e: Embedded, s: { chainPem: string; keyPem: string } | undefined, path = '/api/v1/deployments'): Promise<ProbeResult> =>
  tlsProbe(e.wfm, { ca: [e.caPem], ...(s && { cert: s.chainPem, key: s.keyPem }), path });

test("miaf: TLS 1.3 with an admitted SVID: the caller's manifest, version 1, bundle null; the WFM presents its SPIFFE ID", async () => {
  await withEmbedded(async (e, t) => {
    const r = await get(e, await admittedSvid(e, t));
    assert.equal(r.protocol, 'TLSv1.3');
    assert.equal(r.status, 200, r.error);
    assert.deepEqual(r.server?.uris, [t.wfmSpiffeId]);
    assert.deepEqual(JSON.parse(r.body!), { manifestVersion: 1, bundle: null, deployments: [] });
  });
});

test('miaf: no certificate is refused with the TLS 1.3 certificate_required alert; bad leaves are closed before HTTP', async () => {
  await withEmbedded(async (e, t) => {
    const none = await get(e, undefined);
    assert.equal(none.status, undefined);
    assert.match(none.error ?? '', /certificate required/);
    for (const bad of ['expired', 'ca-as-leaf', 'other-trust-domain', 'two-uri-sans'] as const) {
      const { spiffeId } = newClientSpiffeId(t);
      await e.hooks['admitClient']!({ spiffeId });
      const r = await get(e, await mintSvid(e.deviceCa, t.trustDomain, spiffeId, { bad }));
      assert.equal(r.status, undefined, `${bad}: ${r.statusLine}`);
      assert.match(r.error ?? '', /closed the connection|alert/, bad);
    }
  });
});

test('miaf: a valid SVID the policy never admitted gets 403 not-authorized as application/problem+json', async () => {
  await withEmbedded(async (e, t) => {
    const { spiffeId } = newClientSpiffeId(t);
    const r = await get(e, await mintSvid(e.deviceCa, t.trustDomain, spiffeId));
    assert.equal(r.status, 403);
    const problem = JSON.parse(r.body!) as Record<string, unknown>;
    assert.equal(problem['type'], 'https://docs.platform.org/specification/platform-management-interface/problem-types#not-authorized');
    assert.equal(problem['status'], 403);
    assert.equal(problem['retryable'], false);
  });
});

test('miaf: the seed paths are gone (no Certificate API, no onboarding, no per-client manifest): 404 about:blank', async () => {
  await withEmbedded(async (e, t) => {
    const svid = await admittedSvid(e, t);
    for (const path of ['/api/v1/onboarding/certificate', '/api/v1/clients/x/deployments']) {
      const r = await get(e, svid, path);
      assert.equal(r.status, 404, path);
      assert.equal((JSON.parse(r.body!) as { type: string }).type, 'about:blank', path);
    }
  });
});

test("miaf: issueClientSvid mints from the newest anchor of the devices' domain; a rotation reaches the WFM's TLS", async () => {
  await withEmbedded(async (e, t) => {
    const mint = async () => {
      const { spiffeId } = newClientSpiffeId(t);
      await e.hooks['admitClient']!({ spiffeId });
      const keys = await generateKeys('P-256');
      const csr = await x509.Pkcs10CertificateRequestGenerator.create({
        name: 'CN=c',
        keys,
        signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
      });
      const { certificateChainPem } = (await e.hooks['issueClientSvid']!({ spiffeId, csrPem: csr.toString('pem') })) as {
        certificateChainPem: string;
      };
      return { chainPem: certificateChainPem, keyPem: await privateKeyPem(keys.privateKey) };
    };
    const old = await mint();
    assert.equal((await get(e, old)).status, 200);
    await e.hooks['rotateTrustAnchor']!({ phase: 'begin', trustDomain: t.trustDomain });
    const fresh = await mint();
    assert.deepEqual([(await get(e, old)).status, (await get(e, fresh)).status], [200, 200], 'both anchors during the overlap');
    await e.hooks['rotateTrustAnchor']!({ phase: 'finish', trustDomain: t.trustDomain });
    assert.deepEqual([(await get(e, old)).status, (await get(e, fresh)).status], [undefined, 200], 'only the new one after it');
    await assert.rejects(
      e.hooks['issueClientSvid']!({ spiffeId: 'spiffe://other.test/platform/wfm/reference/client/x', csrPem: '' }),
      /not a client SPIFFE ID of trust domain/,
    );
  });
});

test('miaf: the per-client budget answers 429 with Retry-After and a retryable problem', async () => {
  await withEmbedded(async (e, t) => {
    const svid = await admittedSvid(e, t);
    const answers = await Promise.all(Array.from({ length: 130 }, () => get(e, svid)));
    const busy = answers.find((r) => r.status === 429);
    assert.ok(busy, `statuses: ${[...new Set(answers.map((r) => r.status))].join(',')}`);
    const problem = JSON.parse(busy.body!) as Record<string, unknown>;
    assert.deepEqual(
      [problem['retryable'], problem['backoffStrategy'], typeof problem['retryAfterSeconds']],
      [true, 'exponential', 'number'],
    );
  });
});
