// interfaces.md §5 with profiles.md P3: onboarding MUST carry an HTTP Message Signature, and every Device API request
// is signed (RFC 9421) with a Content-Digest (RFC 9530); 400 for the digest, 401 for the signature, 403 for trust.
import { randomBytes } from 'node:crypto';
import { test, expect } from '../fixtures/wfmck.ts';
import { req } from '../fixtures/req.ts';
import { hostingDocument } from '../fixtures/documents/capabilities.ts';
import {
  clientIdOf,
  mintAuthority,
  mintCredentials,
  onboardRaw,
  sendRaw,
  trustedCredentials,
  type Credentials,
  type Defect,
  type KeyKind,
} from '../fixtures/onboarding.ts';
import type { UndiciTransport } from '../simulators/transport/undici-transport.ts';
import { deviceApiPaths, type Profile } from '../spec/profile.ts';
import { ACCEPTED } from '../fixtures/capabilities.ts';
import { setup, skipIf } from '../fixtures/outcome.ts';
import { warnUnlessStrict } from '../fixtures/errata.ts';

/** A PUT of a valid capabilities document for a new deviceId, signed with `creds` except for `defect`. */
function putCapabilities(
  wfm: UndiciTransport,
  profile: Profile,
  creds: Credentials,
  defect: Defect,
  id = `wfmck-sig-${randomBytes(5).toString('hex')}`,
  clientId?: string,
) {
  return sendRaw(wfm, {
    method: 'PUT',
    path: deviceApiPaths(profile).capabilities(id, clientId),
    body: hostingDocument(id),
    signer: creds.signer,
    defect,
  });
}

/** A beforeEach of the signature checks: a profile that does not sign requests skips them. */
function signaturesOnly({ profile }: { profile: Profile }) {
  skipIf(profile.deviceAuth !== 'signature', 'disabled', 'P3: the profile does not use request signatures (deviceAuth is not `signature`)');
}

/** Trusted credentials, onboarded with a valid request. */
async function onboarded(
  wfm: UndiciTransport,
  ctx: Parameters<typeof trustedCredentials>[0],
  hooks: Parameters<typeof trustedCredentials>[1],
  key?: KeyKind,
) {
  const creds = await trustedCredentials(ctx, hooks, key ? { key } : {});
  return { creds, clientId: clientIdOf(await onboardRaw(wfm, creds)) };
}

test.describe('§5, P3: the onboarding request MUST be signed', () => {
  test.beforeEach(signaturesOnly);

  test(
    'AUTH-ONB-SIGNATURE SIG-MISSING-SIGNATURE-REJECTED an unsigned OnboardingRequest is refused (400, 401 or 403) and onboards nothing',
    req('AUTH-ONB-SIGNATURE', 'SIG-MISSING-SIGNATURE-REJECTED'),
    async ({ wfm, profile, ctx, hooks }) => {
      const creds = await trustedCredentials(ctx, hooks);
      const res = await onboardRaw(wfm, creds, 'unsigned');
      expect([400, 401, 403], '§5, P3: an onboarding request without a signature is refused with 400, 401 or 403').toContain(res.status);
      const after = await putCapabilities(wfm, profile, creds, 'none');
      expect(
        after.status,
        '§5: the refused request onboarded nobody, so a request signed by that key is still refused',
      ).toBeGreaterThanOrEqual(400);
    },
  );

  test(
    "AUTH-ONB-SIGNATURE an OnboardingRequest signed by another key than its certificate's is refused and onboards nothing",
    req('AUTH-ONB-SIGNATURE'),
    async ({ wfm, profile, ctx, hooks }) => {
      const creds = await trustedCredentials(ctx, hooks);
      const res = await onboardRaw(wfm, creds, 'foreign-signature');
      expect(res.status, '§5: the WFM never onboards a client whose request lacks a valid signature').toBeGreaterThanOrEqual(400);
      const after = await putCapabilities(wfm, profile, creds, 'none');
      expect(
        after.status,
        '§5: the refused request onboarded nobody, so a request signed by that key is still refused',
      ).toBeGreaterThanOrEqual(400);
    },
  );

  test(
    'SIG-BAD-SIGNATURE-401 an OnboardingRequest whose signature does not verify: 401',
    req('SIG-BAD-SIGNATURE-401'),
    async ({ wfm, ctx, hooks }) => {
      const creds = await trustedCredentials(ctx, hooks);
      expect((await onboardRaw(wfm, creds, 'foreign-signature')).status, 'P3: a signature that does not verify answers 401').toBe(401);
    },
  );
});

test.describe('P3: every Device API request is signed, with a Content-Digest when it has a body', () => {
  test.beforeEach(signaturesOnly);

  test(
    'SIG-BAD-SIGNATURE-401 a capabilities PUT whose signature does not verify: 401',
    req('SIG-BAD-SIGNATURE-401'),
    async ({ wfm, profile, ctx, hooks }) => {
      const { creds, clientId } = await onboarded(wfm, ctx, hooks);
      const res = await putCapabilities(wfm, profile, creds, 'foreign-signature', undefined, clientId);
      expect(res.status, 'P3: a request whose signature does not verify answers 401').toBe(401);
    },
  );

  test(
    'SIG-MISSING-SIGNATURE-REJECTED an unsigned capabilities PUT is refused (400, 401 or 403) and creates nothing',
    req('SIG-MISSING-SIGNATURE-REJECTED'),
    async ({ wfm, profile, ctx, hooks }) => {
      const { creds, clientId } = await onboarded(wfm, ctx, hooks);
      const id = `wfmck-sig-${randomBytes(5).toString('hex')}`;
      const res = await putCapabilities(wfm, profile, creds, 'unsigned', id, clientId);
      expect([400, 401, 403], 'P3: a Device API request without a signature is refused with 400, 401 or 403').toContain(res.status);
      const signed = await putCapabilities(wfm, profile, creds, 'none', id, clientId);
      // A 200 says the unsigned PUT created it, unless this WFM answers 200 to every creation: that is CAP-PUT-201's finding.
      if (signed.status === 200)
        await setup('CAP-PUT-201', 'a signed PUT of a new device answers 201 (so 200 means the unsigned PUT had an effect)', async () =>
          expect((await putCapabilities(wfm, profile, creds, 'none', undefined, clientId)).status).toBe(201),
        );
      expect(signed.status, 'P3: the unsigned PUT had no effect, so the first signed PUT creates the device: 201').toBe(201);
    },
  );

  test(
    'SIG-MISSING-DIGEST-400 a signed PUT with a body but no Content-Digest: 400',
    req('SIG-MISSING-DIGEST-400'),
    async ({ wfm, profile, ctx, hooks }) => {
      const { creds, clientId } = await onboarded(wfm, ctx, hooks);
      const res = await putCapabilities(wfm, profile, creds, 'no-content-digest', undefined, clientId);
      expect(res.status, 'P3: a request with a body and no Content-Digest answers 400').toBe(400);
    },
  );

  test(
    'SIG-WRONG-DIGEST-400 a PUT whose Content-Digest does not match its body: 400',
    req('SIG-WRONG-DIGEST-400'),
    async ({ wfm, profile, ctx, hooks }) => {
      const { creds, clientId } = await onboarded(wfm, ctx, hooks);
      const res = await putCapabilities(wfm, profile, creds, 'wrong-content-digest', undefined, clientId);
      expect(res.status, 'P3: a Content-Digest that does not match the body answers 400 (even under a valid signature)').toBe(400);
    },
  );

  // Errata of SIG-DIGEST-UNCOVERED-401: P3 lists content-digest among the covered components and RFC 9421 §3.2.1 makes
  // verification fail without it, so a 2xx always fails; 401 is P3's answer, 400 or 403 are readings that warn.
  test(
    'SIG-DIGEST-UNCOVERED-401 a PUT whose signature does not cover content-digest (its Content-Digest matches): refused, 401',
    req('SIG-DIGEST-UNCOVERED-401'),
    async ({ wfm, profile, ctx, hooks }) => {
      const { creds, clientId } = await onboarded(wfm, ctx, hooks);
      const res = await putCapabilities(wfm, profile, creds, 'uncovered-content-digest', undefined, clientId);
      expect(
        [400, 401, 403],
        `P3, RFC 9421 §3.2.1: a signature that leaves content-digest uncovered binds no body and must not verify; got ${res.status}`,
      ).toContain(res.status);
      warnUnlessStrict(
        ctx.strictness,
        res.status !== 401,
        `P3: refused with ${res.status}; a signature that does not verify answers 401 (errata of SIG-DIGEST-UNCOVERED-401)`,
      );
    },
  );
});

test.describe('P3: the signatures the WFM verifies: trusted certificates and key algorithms', () => {
  test.beforeEach(signaturesOnly);

  // Errata of SIG-UNTRUSTED-CERT-403: a certificate the WFM never onboarded is a keyid it does not know, so to it the
  // signature cannot verify (P3: 401) as much as the certificate is untrusted (403). Either answer conforms.
  test(
    'SIG-UNTRUSTED-CERT-403 a PUT signed with the key of a certificate the WFM never onboarded: 403 (or 401)',
    req('SIG-UNTRUSTED-CERT-403'),
    async ({ wfm, profile }) => {
      const creds = await mintCredentials(await mintAuthority());
      const res = await putCapabilities(wfm, profile, creds, 'none');
      expect(
        [401, 403],
        `P3: an untrusted certificate answers 403; to a WFM that never saw it, its keyid is unknown and the signature cannot verify, so 401 conforms too; got ${res.status}`,
      ).toContain(res.status);
    },
  );

  test(
    'SIG-WFM-ECDSA-P256 a client with a P-256 key onboards and its ecdsa-p256-sha256 signed PUT is accepted',
    req('SIG-WFM-ECDSA-P256'),
    async ({ wfm, profile, ctx, hooks }) => {
      const { creds, clientId } = await onboarded(wfm, ctx, hooks, 'P-256');
      const res = await putCapabilities(wfm, profile, creds, 'none', undefined, clientId);
      expect(ACCEPTED, `P3: the WFM verifies ecdsa-p256-sha256 signatures (the PUT creates the device), got ${res.status}`).toContain(
        res.status,
      );
    },
  );

  for (const [key, algorithm] of [
    ['RSA-3072', 'rsa-pss-sha512'],
    ['Ed25519', 'ed25519'],
  ] as const) {
    test(
      `SIG-WFM-OTHER-ALGS a client with an ${key} key, once onboarded, has its ${algorithm} signed PUT accepted`,
      req('SIG-WFM-OTHER-ALGS'),
      async ({ wfm, profile, ctx, hooks }) => {
        const creds = await trustedCredentials(ctx, hooks, { key });
        const res = await onboardRaw(wfm, creds);
        // MAY: a WFM that verifies only ecdsa-p256-sha256 refuses the onboarding; that answer is the evidence.
        skipIf([400, 401, 403].includes(res.status), 'unsupported', `onboarding with an ${algorithm} signature answered ${res.status}`);
        const put = await putCapabilities(wfm, profile, creds, 'none', undefined, clientIdOf(res));
        expect(
          ACCEPTED,
          `P3: a WFM that onboarded an ${key} client verifies its ${algorithm} signatures (the PUT is accepted), got ${put.status}`,
        ).toContain(put.status);
      },
    );
  }
});

test.describe('§5: a retired client relationship', () => {
  test(
    'AUTH-RETIRED-CLIENT-403 a capabilities PUT after the client is retired: 403',
    req('AUTH-RETIRED-CLIENT-403'),
    async ({ device, hooks }) => {
      hooks.require('retireClient');
      const client = await device();
      const id = client.deviceId();
      await hooks.run('retireClient', { clientId: client.clientId });
      const res = await client.api.putCapabilities(id, hostingDocument(id));
      expect(res.status, '§5: capabilities requests of a retired client answer 403').toBe(403);
    },
  );
});
