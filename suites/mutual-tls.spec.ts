// profiles.md P10, edition miaf: every Device API request over mutual TLS with X.509-SVIDs. Real handshakes: each
// refusal must happen before any HTTP status, and the evidence is the probe (protocol, certificate, alert or error).
import type { TestInfo } from '@playwright/test';
import { test, expect, type SimulatedClient } from '../fixtures/wfmck.ts';
import { req } from '../fixtures/req.ts';
import { capabilities } from '../fixtures/capabilities.ts';
import { problemName } from '../fixtures/problems.ts';
import { admit, mintSvid, newClientSpiffeId, spiffeTarget, svidFromHook, type ClientSvid, type SpiffeTarget } from '../fixtures/svid.ts';
import { refusedAtTls, tlsProbe, type ProbeOptions, type ProbeResult } from '../scripted/tls-probe.ts';
import type { BadSvidKind } from '../protocol/svid-issuer.ts';
import { issueCertificate, type Issued } from '../protocol/pki.ts';
import { clientSpiffeId } from '../spec/spiffe-id.ts';
import type { RunContext } from '../run/contract/context.ts';
import type { Profile } from '../spec/profile.ts';
import { ACCEPTED } from '../fixtures/capabilities.ts';
import { kitError, requireThat, setup, skipFor, skipIf } from '../fixtures/outcome.ts';
import { sharing } from '../fixtures/shared-state.ts';

test.beforeEach(({ profile }) => {
  skipIf(profile.deviceAuth !== 'mtls', 'disabled', 'P10: the profile authenticates Device API requests by signature, not mutual TLS');
});

/** The target's SPIFFE names (a skip with the reason when the configuration lacks them). */
function target(ctx: RunContext, profile: Profile): SpiffeTarget {
  const t = spiffeTarget(ctx, profile);
  if ('missing' in t) skipFor('disabled', t.missing);
  return t;
}

/** Probes and attaches the probe as evidence. */
async function probe(
  testInfo: TestInfo,
  ctx: RunContext,
  caPems: string[],
  label: string,
  o: Omit<ProbeOptions, 'ca'>,
): Promise<ProbeResult> {
  const result = await tlsProbe(ctx.targets.wfm!, { ca: caPems, ...o });
  await testInfo.attach(`tls probe: ${label}`, { body: JSON.stringify(result, null, 1), contentType: 'application/json' });
  return result;
}

const withSvid = (s: ClientSvid) => ({ cert: s.chainPem, key: s.keyPem });

/** An SVID CA the target trusts, so the kit can mint deliberately bad leaves (a skip when it has none). */
function trustedIssuer(issuer: { ca: Issued; trustedByTarget: boolean }): Issued {
  skipIf(
    !issuer.trustedByTarget,
    'disabled',
    "needs deviceCa: an SVID CA in the target's trust bundle, to mint deliberately bad client SVIDs",
  );
  return issuer.ca;
}

test.describe('P10 mutual TLS: every Device API request, TLS 1.3, HTTP/1.1, no signatures', () => {
  test(
    'MIAF-MTLS-EVERY-REQUEST a connection that presents no client certificate never gets an HTTP status',
    req('MIAF-MTLS-EVERY-REQUEST'),
    async ({ ctx, caPems }, testInfo) => {
      const r = await probe(testInfo, ctx, caPems, 'no client certificate', {});
      expect(refusedAtTls(r), `P10: refused in the TLS layer, got ${r.statusLine}`).toBe(true);
    },
  );

  test(
    'MIAF-TLS13-DEFAULT a client offering TLS 1.3 gets TLS 1.3',
    req('MIAF-TLS13-DEFAULT'),
    async ({ ctx, caPems, device }, testInfo) => {
      const client = await device();
      const r = await probe(testInfo, ctx, caPems, 'admitted SVID', withSvid(client.svid!));
      expect(r.protocol, 'P10: TLS 1.3 by default').toBe('TLSv1.3');
    },
  );

  test('MIAF-HTTP11 the answer to an admitted client is HTTP/1.1', req('MIAF-HTTP11'), async ({ ctx, caPems, device }, testInfo) => {
    const client = await device();
    const r = await probe(testInfo, ctx, caPems, 'admitted SVID', withSvid(client.svid!));
    expect(r.statusLine ?? `(no answer: ${r.error})`, 'P10: HTTP/1.1').toMatch(/^HTTP\/1\.1 \d{3}/);
  });

  test(
    "MIAF-NO-SIGNATURE-NEEDED an admitted client's request without Signature or Content-Digest is answered as any other: 201",
    req('MIAF-NO-SIGNATURE-NEEDED'),
    async ({ device }) => {
      const client = await device();
      const id = client.deviceId();
      const res = await client.api.putCapabilities(id, capabilities(id));
      if (res.exchange.requestHeaders['signature'] !== undefined) kitError('WFMCK_E_INTERNAL', 'the kit signed a request in edition miaf');
      expect(ACCEPTED, `P10: no request signature is needed (the PUT is accepted), got ${res.status}`).toContain(res.status);
    },
  );

  test(
    'MIAF-SERVER-SVID the WFM presents an X.509-SVID of exactly spiffe://<td>/<vendor>/wfm/<wfm-id>',
    req('MIAF-SERVER-SVID'),
    async ({ ctx, caPems, profile, device }, testInfo) => {
      const t = target(ctx, profile);
      const client = await device();
      const r = await probe(testInfo, ctx, caPems, "the WFM's certificate", withSvid(client.svid!));
      requireThat('SVID-KEY-ALG', r.secureConnect, `the handshake with an admitted client's SVID did not complete (${r.error})`);
      expect(r.server?.uris, "P10: one URI SAN, the WFM's SPIFFE ID").toEqual([t.wfmSpiffeId]);
    },
  );
});

/** Each leaf defect of P10, minted from the SVID CA the target trusts: the refusal is about the defect alone. */
const BAD_LEAVES: { ids: string[]; bad: BadSvidKind; what: string }[] = [
  { ids: ['SVID-LEAF-NOT-CA'], bad: 'ca-as-leaf', what: 'a CA certificate as leaf' },
  { ids: ['SVID-LEAF-NO-CERT-SIGN'], bad: 'cert-sign-leaf', what: 'a leaf with keyCertSign' },
  { ids: ['SVID-ONE-URI-SAN'], bad: 'two-uri-sans', what: 'a leaf with two URI SANs' },
  { ids: ['SVID-ONE-URI-SAN'], bad: 'no-uri-san', what: 'a leaf with no URI SAN (only a DNS name)' },
  { ids: ['SVID-SPIFFE-SCHEME'], bad: 'http-scheme', what: 'a URI SAN of scheme http' },
  { ids: ['SVID-SPIFFE-SCHEME'], bad: 'root-path', what: 'a SPIFFE ID without a path' },
  { ids: ['SVID-NOT-EXPIRED'], bad: 'expired', what: 'an expired SVID' },
  { ids: ['SVID-NOT-EXPIRED'], bad: 'not-yet-valid', what: 'an SVID not valid yet' },
  { ids: ['SVID-TRUST-DOMAIN'], bad: 'other-trust-domain', what: 'an SVID of another trust domain' },
];

test.describe('P10 client SVIDs the WFM refuses at the TLS layer (a good SVID of the same CA is the control)', () => {
  for (const leaf of BAD_LEAVES) {
    test(
      `${leaf.ids.join(' ')} ${leaf.what}: no HTTP status, while a good SVID from the same CA gets one`,
      req(...leaf.ids),
      async ({ ctx, caPems, profile, deviceIssuer, hooks }, testInfo) => {
        const t = target(ctx, profile);
        const ca = trustedIssuer(deviceIssuer);
        const { spiffeId } = newClientSpiffeId(t);
        await admit(hooks, spiffeId);
        const good = await probe(testInfo, ctx, caPems, 'control: good SVID', withSvid(await mintSvid(ca, t.trustDomain, spiffeId)));
        requireThat('SVID-KEY-ALG', good.status !== undefined, `control: a good SVID of the same CA got no HTTP status (${good.error})`);
        const bad = await probe(testInfo, ctx, caPems, leaf.what, withSvid(await mintSvid(ca, t.trustDomain, spiffeId, { bad: leaf.bad })));
        expect(refusedAtTls(bad), `P10: ${leaf.what} never gets past the TLS handshake, got ${bad.statusLine}`).toBe(true);
      },
    );
  }

  test(
    'SVID-WFM-ID a client SVID under another wfm-id: no HTTP status',
    req('SVID-WFM-ID'),
    async ({ ctx, caPems, profile, deviceIssuer, hooks }, testInfo) => {
      const t = target(ctx, profile);
      const ca = trustedIssuer(deviceIssuer);
      const other = clientSpiffeId({ ...t, wfmId: `${t.wfmId}-other`, clientId: newClientSpiffeId(t).clientId });
      await admit(hooks, other).catch(() => undefined);
      const r = await probe(testInfo, ctx, caPems, 'another wfm-id', withSvid(await mintSvid(ca, t.trustDomain, other)));
      expect(refusedAtTls(r), `P10: a client of another WFM is refused at the TLS layer, got ${r.statusLine}`).toBe(true);
    },
  );
});

test.describe('P10 client SVIDs the WFM takes: DNS names beside the SPIFFE ID, key algorithms', () => {
  test(
    "SVID-NO-DNS-IDENTITY a DNS SAN beside the SPIFFE ID neither admits nor refuses: the request acts as the SPIFFE ID's client",
    req('SVID-NO-DNS-IDENTITY'),
    async ({ ctx, caPems, profile, deviceIssuer, hooks }, testInfo) => {
      const t = target(ctx, profile);
      const ca = trustedIssuer(deviceIssuer);
      const { spiffeId } = newClientSpiffeId(t);
      await admit(hooks, spiffeId);
      const leaf = await issueCertificate(ca, {
        commonName: 'localhost',
        uris: [spiffeId],
        dnsNames: ['localhost', 'wfm.example'],
        usage: ['client'],
      });
      const id = `wfmck-dns-${Date.now().toString(36)}`;
      const r = await probe(testInfo, ctx, caPems, 'SVID with DNS SANs', {
        cert: leaf.certPem,
        key: leaf.keyPem,
        method: 'PUT',
        path: `/api/v1/capabilities/${id}`,
        body: JSON.stringify(capabilities(id)),
      });
      expect(
        ACCEPTED,
        `P10: DNS names play no part; the SPIFFE ID's client creates its device (201), got ${r.statusLine ?? r.error}`,
      ).toContain(r.status);
    },
  );

  test(
    'SVID-KEY-ALG a client SVID with an ECDSA P-256 key is accepted, and the WFM answers with its own SVID',
    req('SVID-KEY-ALG'),
    async ({ ctx, caPems, profile, deviceIssuer, hooks }, testInfo) => {
      const t = target(ctx, profile);
      const { spiffeId } = newClientSpiffeId(t);
      await admit(hooks, spiffeId);
      // P-256 whatever profile.svidKeyAlgorithm says: the mandatory key is what this check is about.
      const svid = deviceIssuer.trustedByTarget
        ? await mintSvid(deviceIssuer.ca, t.trustDomain, spiffeId, { keyAlgorithm: 'P-256' })
        : await svidFromHook(hooks, spiffeId, 'P-256');
      const r = await probe(testInfo, ctx, caPems, 'P-256 SVID', withSvid(svid));
      expect(r.status, `P10: a P-256 client SVID is mandatory to accept (${r.error})`).toBe(200);
      expect(r.server?.uris, 'P10: the WFM answers with its own SVID').toEqual([t.wfmSpiffeId]);
    },
  );

  for (const keyAlgorithm of ['P-384', 'Ed25519', 'RSA-3072'] as const) {
    test(
      `SVID-KEY-ALG-OPTIONAL a client SVID with a ${keyAlgorithm} key: if the WFM takes it, the request acts as that client`,
      req('SVID-KEY-ALG-OPTIONAL'),
      async ({ ctx, caPems, profile, deviceIssuer, hooks }, testInfo) => {
        const t = target(ctx, profile);
        const ca = trustedIssuer(deviceIssuer);
        const { spiffeId } = newClientSpiffeId(t);
        await admit(hooks, spiffeId);
        const id = `wfmck-key-${Date.now().toString(36)}`;
        const r = await probe(testInfo, ctx, caPems, `${keyAlgorithm} SVID`, {
          ...withSvid(await mintSvid(ca, t.trustDomain, spiffeId, { keyAlgorithm })),
          method: 'PUT',
          path: `/api/v1/capabilities/${id}`,
          body: JSON.stringify(capabilities(id)),
        });
        skipIf(refusedAtTls(r), 'unsupported', `P10 MAY: the WFM does not offer ${keyAlgorithm} client SVIDs (${r.error ?? 'refused'})`);
        expect(ACCEPTED, `P10: once accepted, a ${keyAlgorithm} SVID is a client like any other (201), got ${r.statusLine}`).toContain(
          r.status,
        );
      },
    );
  }
});

test.describe('P10 trust bundle: any anchor of the current bundle, during and after a rotation', () => {
  test(
    'SVID-CHAIN-BUNDLE an SVID of the old and of the new anchor both connect during the overlap; after it only the new one',
    // The rotation changes which SVIDs the target accepts and the bundle that lists them.
    sharing(req('SVID-CHAIN-BUNDLE'), { writes: ['trust-anchor', 'identity-documents'] }),
    async ({ ctx, caPems, profile, hooks }, testInfo) => {
      const t = target(ctx, profile);
      hooks.require('rotateTrustAnchor');
      hooks.require('issueClientSvid');
      // The kit never leaves an overlap open (P5: begin, then finish), so before begin "the old anchor" is well defined.
      const mint = async () => {
        const { spiffeId } = newClientSpiffeId(t, 'rot');
        await admit(hooks, spiffeId);
        return svidFromHook(hooks, spiffeId);
      };
      const old = await mint();
      await hooks.run('rotateTrustAnchor', { phase: 'begin', trustDomain: t.trustDomain });
      const fresh = await mint();
      let during: ProbeResult[];
      try {
        during = [
          await probe(testInfo, ctx, caPems, 'overlap: old anchor', withSvid(old)),
          await probe(testInfo, ctx, caPems, 'overlap: new anchor', withSvid(fresh)),
        ];
      } finally {
        await hooks.run('rotateTrustAnchor', { phase: 'finish', trustDomain: t.trustDomain });
      }
      expect(
        during.map((r) => r.status),
        `P10: during the overlap both anchors validate (${during.map((r) => r.error).join('; ')})`,
      ).toEqual([200, 200]);
      const after = [
        await probe(testInfo, ctx, caPems, 'after: old anchor', withSvid(old)),
        await probe(testInfo, ctx, caPems, 'after: new anchor', withSvid(fresh)),
      ];
      expect(refusedAtTls(after[0]!), `P10: after the rotation the old anchor is out of the bundle, got ${after[0]!.statusLine}`).toBe(
        true,
      );
      expect(after[1]!.status, `P10: the new anchor still validates (${after[1]!.error})`).toBe(200);
    },
  );
});

test.describe('P10 who the client is: the SPIFFE ID, admitted by policy, scoped to itself', () => {
  test(
    'MIAF-CLIENT-IS-SPIFFE-ID two SVIDs (two keys, two connections) with one SPIFFE ID act as one client',
    req('MIAF-CLIENT-IS-SPIFFE-ID'),
    async ({ ctx, caPems, profile, deviceIssuer, hooks }, testInfo) => {
      const t = target(ctx, profile);
      const ca = trustedIssuer(deviceIssuer);
      const { spiffeId } = newClientSpiffeId(t);
      await admit(hooks, spiffeId);
      const id = `wfmck-same-${Date.now().toString(36)}`;
      const put = (s: ClientSvid, label: string) =>
        probe(testInfo, ctx, caPems, label, {
          ...withSvid(s),
          method: 'PUT',
          path: `/api/v1/capabilities/${id}`,
          body: JSON.stringify(capabilities(id)),
        });
      const first = await put(await mintSvid(ca, t.trustDomain, spiffeId), 'first SVID');
      // 201 tells a creation from an update (CAP-PUT-201): without it, the second answer says nothing.
      requireThat(
        'CAP-PUT-201',
        first.status === 201,
        `the first SVID's PUT of a new device answered ${first.statusLine ?? first.error}, not 201`,
      );
      const second = await put(await mintSvid(ca, t.trustDomain, spiffeId), 'second SVID, same SPIFFE ID');
      expect(second.status, 'P10: created by the first, updated by the second (200): the same client').toBe(200);
    },
  );

  test(
    'MIAF-NOT-ADMITTED-403 a valid SVID the policy never admitted, and a retired client: 403 not-authorized',
    req('MIAF-NOT-ADMITTED-403'),
    async ({ device, hooks, profile }) => {
      hooks.require('admitClient');
      hooks.require('retireClient');
      const stranger = await device({ onboard: false });
      const id = stranger.deviceId();
      const refused = await stranger.api.putCapabilities(id, capabilities(id));
      expect(refused.status, 'P10: not admitted: 403').toBe(403);
      expect(problemName(refused, profile), 'P10: problem type not-authorized').toBe('not-authorized');
      const retired: SimulatedClient = await device();
      await hooks.run('retireClient', { clientId: retired.clientId });
      const gone = await retired.api.putCapabilities(id, capabilities(id));
      expect([gone.status, problemName(gone, profile)], 'P10: a retired client: 403 not-authorized').toEqual([403, 'not-authorized']);
    },
  );

  test(
    "MIAF-SCOPE-PER-CLIENT two clients report the same deviceId: two devices, and neither sees or changes the other's",
    req('MIAF-SCOPE-PER-CLIENT'),
    async ({ device }) => {
      const [a, b] = [await device(), await device()];
      const id = a.deviceId('shared');
      await setup('CAP-PUT-201', 'client A creates the device (201)', async () =>
        expect((await a.api.putCapabilities(id, capabilities(id))).status, '§4.1: client A creates it').toBe(201),
      );
      expect((await b.api.putCapabilities(id, capabilities(id))).status, 'P10: client B creates its own device of that id').toBe(201);
      expect((await b.api.deleteCapabilities(id)).status, 'P10: B deletes its own').toBe(204);
      expect((await a.api.putCapabilities(id, capabilities(id))).status, "P10: A's device is untouched: an update").toBe(200);
    },
  );
});
