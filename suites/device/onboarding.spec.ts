// Persona device, interfaces.md §1, §2.3, §4.3 and P3: how the client under test starts. The kit is the WFM; only
// what the client shows on the wire is judged (the recorded exchanges are the evidence).
import { test, expect } from '../../fixtures/wfmck.ts';
import { req } from '../../fixtures/req.ts';
import { expectEach, type TaggedFinding } from '../../fixtures/expect-each.ts';
import {
  capabilitiesPathId,
  isCapabilitiesPut,
  isManifestPoll,
  jsonBody,
  onboardedCertificate,
  pathOf,
} from '../../fixtures/client-under-test.ts';
import type { RecordedExchange } from '../../protocol/judging-record.ts';
import { validate } from '../../spec/schemas/index.ts';
import { x509 } from '../../spec/x509.ts';
import { requireThat } from '../../fixtures/outcome.ts';
import { REPORTS_WHILE_APPLYING } from '../../fixtures/device-deployments.ts';

const isOnboarding = (x: RecordedExchange) => x.method === 'POST' && pathOf(x) === '/api/v1/onboarding';

test.describe('§1 the client sequence', () => {
  test(
    'CAP-FIRST-EXCHANGE after it is provisioned (onboarded, or connected over mutual TLS) the first Device API exchange is PUT capabilities',
    req('CAP-FIRST-EXCHANGE'),
    async ({ clientUnderTest, profile }) => {
      const client = await clientUnderTest();
      const exchanges = await client.waitFor('its first capabilities', (xs) => (xs.some(isCapabilitiesPut) ? xs : undefined));
      // seed: everything after the accepted onboarding; miaf: everything (there is no onboarding).
      const start = profile.edition === 'seed' ? exchanges.findIndex((x) => isOnboarding(x) && x.status === 201) + 1 : 0;
      requireThat(
        'ONB-SIGNED',
        start > (profile.edition === 'seed' ? 0 : -1),
        'the client sent its capabilities without being onboarded first',
      );
      const first = exchanges[start];
      expect(first && `${first.method} ${pathOf(first)}`, '§1: capabilities are the first exchange').toMatch(
        /^PUT \/api\/v1\/capabilities\//,
      );
    },
  );
});

test.describe('§2.3, §4.3 OnboardingRequest', () => {
  test(
    "ONB-APIVERSION-REQUIRED ONB-KIND ONB-CERT-BASE64 the onboarding body is an OnboardingRequest carrying the client's own certificate, base64",
    req('ONB-APIVERSION-REQUIRED', 'ONB-KIND', 'ONB-CERT-BASE64'),
    async ({ clientUnderTest, profile }) => {
      const client = await clientUnderTest();
      const onboarding = await client.waitFor('an onboarding request', (xs) => xs.find(isOnboarding), undefined, 'ONB-SIGNED');
      const body = jsonBody(onboarding);
      const checked = validate('OnboardingRequest', body, { vendor: profile.vendor });
      // Each schema error names the field it is about; one about no field says the body is no OnboardingRequest (kind).
      const about = (e: { path: string; message: string }) => `${e.path} ${e.message}`;
      const findings: TaggedFinding[] = (checked.ok ? [] : checked.errors).map((e) => ({
        id: /apiVersion/.test(about(e)) ? 'ONB-APIVERSION-REQUIRED' : /certificate/.test(about(e)) ? 'ONB-CERT-BASE64' : 'ONB-KIND',
        message: `§2.3: ${about(e)}`,
      }));
      const sent = onboardedCertificate(body);
      if (!(sent && Buffer.from(sent.rawData).equals(Buffer.from(new x509.X509Certificate(client.certPem).rawData)))) {
        findings.push({
          id: 'ONB-CERT-BASE64',
          message: "§2.3: certificate is not the client's own certificate as base64 (of DER or PEM)",
        });
      }
      expectEach(findings, '§2.3: apiVersion, kind OnboardingRequest, certificate');
    },
  );

  test(
    'ONB-SIGNED the onboarding request carries an HTTP message signature by the key of the certificate it onboards',
    req('ONB-SIGNED'),
    async ({ clientUnderTest }) => {
      const client = await clientUnderTest();
      const onboarding = await client.waitFor('an onboarding request', (xs) => xs.find(isOnboarding));
      expect(
        Boolean(onboarding.headers['signature'] && onboarding.headers['signature-input']),
        '§4.3, P3: Signature and Signature-Input on the onboarding request',
      ).toBe(true);
      expect(
        /;\s*keyid="([^"]*)"/.exec(onboarding.headers['signature-input'] ?? '')?.[1],
        "P3: signed by the onboarded certificate's key",
      ).toBe(client.who);
    },
  );
});

test.describe('§4 the shape of every request', () => {
  test(
    'API-JSON-REQUESTS CAP-DEVICEID-GRAMMAR every request body is JSON, and every capabilities path names a deviceId of unreserved segments',
    req('API-JSON-REQUESTS', 'CAP-DEVICEID-GRAMMAR'),
    async ({ clientUnderTest }) => {
      const client = await clientUnderTest();
      const exchanges = await client.waitFor(
        'its capabilities',
        (xs) => (xs.some(isCapabilitiesPut) ? xs : undefined),
        undefined,
        'CAP-FIRST-EXCHANGE',
      );
      expectEach(
        [
          ...exchanges
            .filter((x) => x.body !== undefined && jsonBody(x) === undefined)
            .map((x) => ({
              id: 'API-JSON-REQUESTS',
              message: `§4: ${x.method} ${pathOf(x)}: a body that is no JSON: ${x.body!.slice(0, 60)}`,
            })),
          ...exchanges
            .filter(isCapabilitiesPut)
            .map(capabilitiesPathId)
            .filter((id) => !/^[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(id))
            .map((id) => ({ id: 'CAP-DEVICEID-GRAMMAR', message: `§4.1: ${id} is not <id>[/<id>...] of RFC 3986 unreserved characters` })),
        ],
        '§4: JSON bodies; §4.1: deviceIds of unreserved segments',
      );
    },
  );
});

/** What P3 asks of each signed request, each finding tagged with the one requirement it breaks. */
function signatureFindings(x: RecordedExchange, who: string): TaggedFinding[] {
  const line = `${x.method} ${pathOf(x)}`;
  const input = x.headers['signature-input'];
  const out: TaggedFinding[] = [];
  if (x.body !== undefined && !x.headers['content-digest'])
    out.push({ id: 'SIG-CONTENT-DIGEST', message: `${line}: a body without Content-Digest` });
  if (!input || !x.headers['signature']) return [...out, { id: 'SIG-DEVICE-API-SIGNED', message: `${line}: unsigned` }];
  const keyid = /;\s*keyid="([^"]*)"/.exec(input)?.[1];
  if (keyid !== who) out.push({ id: 'SIG-KEYID', message: `${line}: keyid ${keyid} is not the SHA-256 of its certificate` });
  const covered =
    /=\(([^)]*)\)/
      .exec(input)?.[1]
      ?.split(/\s+/)
      .map((c) => c.replace(/"/g, '')) ?? [];
  // A Content-Digest it did not send cannot be covered: that is SIG-CONTENT-DIGEST's finding, not this one's.
  const needed = [
    '@method',
    '@target-uri',
    ...(x.body !== undefined ? [...(x.headers['content-digest'] ? ['content-digest'] : []), 'content-type'] : []),
  ];
  const missing = [...needed.filter((c) => !covered.includes(c)), ...(/;\s*created=\d+/.test(input) ? [] : ['created'])];
  if (missing.length)
    out.push({ id: 'SIG-COVERED-COMPONENTS', message: `${line}: covers ${covered.join(' ')}; missing ${missing.join(', ')}` });
  // A signature that looks right yet does not verify was made with another key than the certificate's.
  if (x.status === 401 && out.length === 0)
    out.push({ id: 'SIG-DEVICE-API-SIGNED', message: `${line}: the WFM could not verify the signature (401)` });
  return out;
}

test.describe('P3 every Device API request signed (RFC 9421) with Content-Digest', () => {
  test(
    "SIG-DEVICE-API-SIGNED SIG-KEYID SIG-COVERED-COMPONENTS SIG-CONTENT-DIGEST every request the client made is signed by its certificate's key, covers the P3 components, and every body has a Content-Digest",
    req('SIG-DEVICE-API-SIGNED', 'SIG-KEYID', 'SIG-COVERED-COMPONENTS', 'SIG-CONTENT-DIGEST'),
    async ({ clientUnderTest }) => {
      const client = await clientUnderTest();
      // Through its first capabilities and a few polls of the desired state, or until the WFM refused a request (400 no digest, 401 signature).
      const exchanges = await client.waitFor(
        'three polls of the desired state',
        (xs) => (xs.filter(isManifestPoll).length >= 3 || xs.some((x) => x.status === 400 || x.status === 401) ? xs : undefined),
        undefined,
        REPORTS_WHILE_APPLYING,
      );
      const findings = exchanges
        .filter((e) => pathOf(e) !== '/api/v1/onboarding/certificate')
        .flatMap((x) => signatureFindings(x, client.who));
      expectEach(findings, 'P3: every request signed, with the right key, components and digest');
    },
  );
});
