// Client faults of how the client talks to its WFM: P3 signatures, §2.3 onboarding, P10 mutual TLS and Retry-After
// (simulators/device/decisions/connection.ts).
import type { ClientFaultImplementation, ClientFaultTable } from './types.ts';

/** A client whose SPIFFE ID check of the server overlooks one thing (see SpiffeCheckLeniency). */
const lenient =
  (leniency: 'trustDomain' | 'firstUri' | 'caLeaf'): ClientFaultImplementation =>
  (base) => ({ serverIdLeniency: { ...base.serverIdLeniency, [leniency]: true } });

export const implementations: ClientFaultTable = {
  // Onboarding signed, so the client gets in; nothing after it (so no Content-Digest, which signing adds).
  'SIG-DEVICE-API-SIGNED': () => ({ unsignedRequests: 'after-onboarding' }),
  'SIG-CONTENT-DIGEST': () => ({ signatureOmits: 'content-digest' }),
  'SIG-COVERED-COMPONENTS': () => ({ signatureOmits: 'target-uri' }),
  // The onboarding unsigned; what follows stays signed.
  'ONB-SIGNED': () => ({ unsignedRequests: 'onboarding' }),
  'SIG-KEYID': () => ({ keyIdHash: 'sha1' }),
  'ONB-KIND': () => ({ onboardingBody: (certificate) => ({ apiVersion: 'v1', kind: 'Onboarding', certificate }) }),
  'ONB-APIVERSION-REQUIRED': () => ({ onboardingBody: (certificate) => ({ kind: 'OnboardingRequest', certificate }) }),
  // The DER as hex: neither base64 of DER nor of PEM.
  'ONB-CERT-BASE64': () => ({
    onboardingBody: (certificate) => ({
      apiVersion: 'v1',
      kind: 'OnboardingRequest',
      certificate: Buffer.from(certificate, 'base64').toString('hex'),
    }),
  }),
  // No client certificate on the connection.
  'MIAF-CLIENT-SVID': () => ({ presentsSvid: false }),
  'MIAF-CLIENT-CHECKS-SERVER-ID': () => ({ checksServerSpiffeId: false }),
  'MIAF-CLIENT-CHECKS-SERVER-ID:trust-domain': lenient('trustDomain'),
  'MIAF-CLIENT-CHECKS-SERVER-ID:first-uri': lenient('firstUri'),
  'MIAF-CLIENT-VERIFIES-SERVER-SVID': lenient('caLeaf'),
  'MIAF-CLIENT-VERIFIES-SERVER-SVID:expired': () => ({ acceptsUnverifiedServer: true }),
  'MIAF-CLIENT-TLS13-HTTP11': () => ({ maxTlsVersion: 'TLSv1.2' }),
  // Retry-After is not a hold, and retries come at the policy's pace.
  'MIAF-CLIENT-HONOURS-RETRY-AFTER': () => ({ honoursRetryAfter: false }),
};
