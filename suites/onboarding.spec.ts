// interfaces.md §1 (steps 2-5), §2.3, §4.3, §7 (onboarding rows) and profiles.md P2: the Certificate API and
// POST /api/v1/onboarding, judged only by what a client sees.
import { test, expect } from '../fixtures/wfmck.ts';
import { req } from '../fixtures/req.ts';
import { expectEach } from '../fixtures/expect-each.ts';
import {
  keyIdOf,
  mintAuthority,
  mintCredentials,
  onboardingRequest,
  sendRaw,
  trustedCredentials,
  type Credentials,
} from '../fixtures/onboarding.ts';
import { warnUnlessStrict } from '../fixtures/errata.ts';
import { DeviceApiClient } from '../simulators/device-api.ts';
import type { UndiciTransport } from '../simulators/transport/undici-transport.ts';
import type { Profile } from '../spec/profile.ts';
import { x509 } from '../spec/x509.ts';
import { requireThat, setup, skipIf } from '../fixtures/outcome.ts';

/** RFC 3986 unreserved characters: a clientId P4 can put in a path segment as it is. */
const UNRESERVED = /^[A-Za-z0-9._~-]+$/;
/** Standard base64 adds these: the errata of ONB-CLIENTID-URL-SAFE calls them ambiguous. */
const BASE64_EXTRA = /^[A-Za-z0-9._~+/=-]+$/;
const DAY = 86_400_000;

/** A client of the Device API that signs (P3) with `creds` instead of the fixture's own device key. */
function apiFor(wfm: UndiciTransport, profile: Profile, creds: Credentials): DeviceApiClient {
  return new DeviceApiClient({ transport: wfm, profile, signer: creds.signer, retry: 'never' });
}

test.describe('P2 Certificate API: GET {base_url}/api/v1/onboarding/certificate', () => {
  test(
    'CERT-GET-200 CERT-NO-AUTH CERT-API-SERVED a GET without credentials answers 200 with {certificate}, a base64 certificate',
    req('CERT-GET-200', 'CERT-NO-AUTH', 'CERT-API-SERVED'),
    async ({ wfm, profile }) => {
      const ca = await new DeviceApiClient({ transport: wfm, profile }).fetchRootCa();
      const status = ca.response.status;
      // A refusal for want of credentials breaks all three; any other failure is the API's, not its authentication.
      const unserved = (message: string) => ['CERT-GET-200', 'CERT-API-SERVED'].map((id) => ({ id, message }));
      expectEach(
        [
          ...(status === 401 || status === 403
            ? [{ id: 'CERT-NO-AUTH', message: `a request without credentials is refused: HTTP ${status}` }, ...unserved(`HTTP ${status}`)]
            : status !== 200
              ? unserved(`HTTP ${status}, not 200`)
              : ca.problem !== undefined
                ? unserved(`the body is not JSON {"certificate": base64 of a PEM or DER certificate}: ${ca.problem}`)
                : []),
        ],
        'P2: the Certificate API answers a request that carries no credentials at all with 200 and {certificate}',
      );
    },
  );

  test('CERT-IS-ROOT-CA the served certificate is a self-signed CA certificate', req('CERT-IS-ROOT-CA'), async ({ wfm, profile }) => {
    const ca = await setup('CERT-GET-200', 'GET the Certificate API', () => new DeviceApiClient({ transport: wfm, profile }).fetchRootCa());
    requireThat(
      'CERT-GET-200',
      ca.pem !== undefined,
      `the Certificate API serves no certificate: HTTP ${ca.response.status} ${ca.problem ?? ''}`,
    );
    const cert = new x509.X509Certificate(ca.pem!.trim());
    const constraints = cert.getExtension(x509.BasicConstraintsExtension);
    expect(constraints?.ca === true, 'P2: the WFM root CA certificate has basicConstraints cA=true').toBe(true);
    expect(await cert.isSelfSigned(), 'P2: a root CA certificate is self-signed (issuer = subject, signed by its own key)').toBe(true);
  });
});

test.describe('§4.3 POST /api/v1/onboarding: success', () => {
  test(
    'ONB-201-CLIENTID a trusted, signed OnboardingRequest answers 201 with JSON {clientId}',
    req('ONB-201-CLIENTID'),
    async ({ device }) => {
      const client = await device({ onboard: false });
      const { response } = await client.api.onboard(client.certificate);
      expect(response.status, '§4.3: a successful onboarding answers 201').toBe(201);
      const body = response.json<{ clientId?: unknown }>();
      expect(typeof body?.clientId === 'string' && body.clientId !== '', '§2.3: the 201 body carries clientId, a non-empty string').toBe(
        true,
      );
    },
  );

  test('ONB-CLIENTID-URL-SAFE the clientId is a URL-safe string', req('ONB-CLIENTID-URL-SAFE'), async ({ device, ctx }) => {
    const id = (await device()).clientId!;
    expect(BASE64_EXTRA.test(id), `§2.3: clientId "${id}" is a base64-encoded UUID or another URL-safe identifier`).toBe(true);
    if (UNRESERVED.test(id)) return;
    const note = `§2.3 errata: clientId "${id}" has +, / or =, which standard base64 allows but a path segment does not`;
    expect(ctx.strictness !== 'strict', `${note} (strict strictness fails it)`).toBe(true);
    test.info().annotations.push({ type: 'warning', description: note });
  });

  test(
    'ONB-CLIENTID-UNIQUE two clients with different certificates get different clientIds',
    req('ONB-CLIENTID-UNIQUE'),
    async ({ device }) => {
      const [a, b] = [await device(), await device()];
      expect(a.clientId, '§1 step 5: each onboarded client receives a unique client id').not.toBe(b.clientId);
    },
  );
});

test.describe('§4.3 POST /api/v1/onboarding: refusals (§7)', () => {
  test.beforeEach(({ profile }) =>
    skipIf(
      profile.deviceAuth === 'mtls',
      'disabled',
      'P3 mtls: these checks present certificates the kit mints per request, which mtls carries on the TLS connection; not implemented yet',
    ),
  );

  test(
    'ONB-400-CERT-FORMAT ERR-ONB-400 a certificate whose DER is cut short: 400',
    req('ONB-400-CERT-FORMAT', 'ERR-ONB-400'),
    async ({ wfm, profile, ctx, hooks }) => {
      const creds = await trustedCredentials(ctx, hooks);
      const der = Buffer.from(creds.certificate, 'base64');
      const truncated = der.subarray(0, der.length - 40);
      const api = apiFor(wfm, profile, { ...creds, signer: { ...creds.signer, keyId: keyIdOf(truncated) } });
      const { response } = await api.onboard(truncated.toString('base64'));
      expect(response.status, '§4.3, §7: an invalid certificate format or structure answers 400').toBe(400);
    },
  );

  test(
    'ONB-403-UNTRUSTED ERR-ONB-403 a certificate from a CA the WFM does not trust: 403',
    req('ONB-403-UNTRUSTED', 'ERR-ONB-403'),
    async ({ wfm, profile }) => {
      const creds = await mintCredentials(await mintAuthority());
      const { response } = await apiFor(wfm, profile, creds).onboard(creds.certificate);
      expect(response.status, '§4.3, §7: a certificate that is not trusted answers 403').toBe(403);
    },
  );

  test(
    'ONB-403-UNTRUSTED ERR-ONB-403 an expired certificate from a trusted CA: 403',
    req('ONB-403-UNTRUSTED', 'ERR-ONB-403'),
    async ({ wfm, profile, ctx, hooks }) => {
      const creds = await trustedCredentials(ctx, hooks, {
        notBefore: new Date(Date.now() - 10 * DAY),
        notAfter: new Date(Date.now() - DAY),
      });
      const { response } = await apiFor(wfm, profile, creds).onboard(creds.certificate);
      expect(response.status, '§4.3, §7: an expired certificate is not trusted: 403').toBe(403);
    },
  );

  // Errata of ONB-KIND-REFUSED: §2.3 binds kind on the document, but §4.3 and §7 give the WFM no answer for another
  // kind, so refusing is allowed, not a duty: onboarding such a client warns in default and fails in strict.
  test(
    'ONB-KIND-REFUSED a trusted, signed onboarding body whose kind is not OnboardingRequest is refused (400, 403 or 422)',
    req('ONB-KIND-REFUSED'),
    async ({ wfm, ctx, hooks }) => {
      const creds = await trustedCredentials(ctx, hooks);
      const body = { ...onboardingRequest(creds.certificate), kind: 'DeploymentStatusManifest' };
      const res = await sendRaw(wfm, { method: 'POST', path: '/api/v1/onboarding', body, signer: creds.signer, defect: 'none' });
      const onboarded = res.status >= 200 && res.status < 300;
      expect(
        onboarded || [400, 403, 422].includes(res.status),
        `§2.3, §4.3, P9: a body of kind DeploymentStatusManifest is refused (400, 403 or 422) or, per the errata, onboarded; got ${res.status}`,
      ).toBe(true);
      warnUnlessStrict(
        ctx.strictness,
        onboarded,
        `§2.3: kind MUST be OnboardingRequest, yet a body of kind DeploymentStatusManifest onboarded its client (${res.status})`,
      );
    },
  );

  test(
    'ONB-403-REJECTED ERR-ONB-403 a retired client onboarding again with its certificate: 403',
    req('ONB-403-REJECTED', 'ERR-ONB-403'),
    async ({ device, hooks }) => {
      hooks.require('retireClient');
      const client = await device();
      await hooks.run('retireClient', { clientId: client.clientId });
      const { response } = await client.api.onboard(client.certificate);
      expect(response.status, '§4.3, §7: the WFM rejects the client (its relationship is retired): 403').toBe(403);
    },
  );
});
