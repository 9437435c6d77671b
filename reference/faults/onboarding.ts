// Faults of §2.3, §4.3, §5, P2, P3 (onboarding, Certificate API, request signatures): rewrites of the answers, or
// onboarding and auth decisions of the reference WFM (reference/wfm/decisions/onboarding.ts, auth.ts).
import { on, type AnswerView } from './rewrite.ts';
import type { ServiceFaultTable } from './types.ts';

const CERTIFICATE_API = /^\/api\/v1\/onboarding\/certificate$/;
const ONBOARDING = /^\/api\/v1\/onboarding$/;

/** A self-signed-looking leaf that is no CA: issued by a throwaway CA, basicConstraints cA=false (base64 DER). */
const LEAF_NOT_CA =
  'MIIBSTCB8aADAgECAgEBMAoGCCqGSM49BAMCMCwxKjAoBgNVBAMTIXdmbWNrIGZhdWx0OiBub3QgYSByb290IENBIGlzc3VlcjAgFw0yMDAxMDEwMDAwMDBaGA8yMTIwMDEwMTAwMDAwMFowHjEcMBoGA1UEAxMTd2ZtY2sgZmF1bHQ6IGEgbGVhZjBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABI4BF+FZrRxjOCTzbZjsWYpdpCfp4adiwGZLbgoF01RGGf5fs1YJVFiesRGb6QEw6ECE0uTJNYYGDUqipmLckuOjEDAOMAwGA1UdEwEB/wQCMAAwCgYIKoZIzj0EAwIDRwAwRAIgLBsIlZtd+x83z7/D5cMOfvcTQT+SW1nBvGL/3yM5RtgCIDKSxOaLJlvuc0rrjpCBh1FUEv/AuO212rhpO+3xV4jy';

function withJson(a: AnswerView, change: (body: Record<string, unknown>) => Record<string, unknown>): AnswerView {
  return { ...a, body: Buffer.from(JSON.stringify(change(JSON.parse(a.body.toString('utf8')) as Record<string, unknown>))) };
}

export const implementations: ServiceFaultTable = {
  // CERT-IS-ROOT-CA is blocked by CERT-GET-200: no certificate to judge.
  'CERT-GET-200': {
    rewrite: () =>
      on('GET', CERTIFICATE_API, (a) =>
        a.status === 200 ? withJson(a, ({ certificate, ...rest }) => ({ ...rest, ca: certificate })) : undefined,
      ),
  },
  'CERT-NO-AUTH': { wfm: () => ({ certificateApiNeedsSignature: true }) },
  'CERT-GET-200:hang': { rewrite: () => on('GET', CERTIFICATE_API, (a) => ({ ...a, hang: true })) },
  'CERT-IS-ROOT-CA': {
    rewrite: () => on('GET', CERTIFICATE_API, (a) => (a.status === 200 ? withJson(a, () => ({ certificate: LEAF_NOT_CA })) : undefined)),
  },
  'ONB-201-CLIENTID': { rewrite: () => on('POST', ONBOARDING, (a) => (a.status === 201 ? { ...a, status: 200 } : undefined)) },
  'ONB-CLIENTID-URL-SAFE': {
    rewrite: () =>
      on('POST', ONBOARDING, (a) =>
        a.status === 201 ? withJson(a, (b) => ({ ...b, clientId: `${String(b['clientId'])}#0` })) : undefined,
      ),
  },
  // The clientId of the previous client is handed out again.
  'ONB-CLIENTID-UNIQUE': { wfm: (base) => ({ newClientId: (store) => [...store.clients.keys()].at(-1) ?? base.newClientId(store) }) },
  'ONB-400-CERT-FORMAT': {
    rewrite: () =>
      on('POST', ONBOARDING, (a) =>
        a.status === 400 && /invalid certificate/.test(a.body.toString('utf8')) ? { ...a, status: 422 } : undefined,
      ),
  },
  'ONB-403-UNTRUSTED': { wfm: () => ({ trustsAnyIssuer: true }) },
  'ONB-403-UNTRUSTED:expired': { wfm: () => ({ checksCertificateValidity: false }) },
  'ONB-403-REJECTED': { wfm: () => ({ onboardsRetiredClient: true }) },
  // kind is never looked at: any document with a certificate onboards.
  'ONB-KIND-REFUSED': { wfm: () => ({ checksOnboardingKind: false }) },
  'AUTH-ONB-SIGNATURE': {
    wfm: (base) => ({ onboardsDespiteSignature: (reason) => reason === 'missing' || base.onboardsDespiteSignature(reason) }),
  },
  'AUTH-ONB-SIGNATURE:bad-signature': {
    wfm: (base) => ({ onboardsDespiteSignature: (reason) => reason === 'bad-signature' || base.onboardsDespiteSignature(reason) }),
  },
  // The unsigned request is refused, yet its client is onboarded.
  'SIG-MISSING-SIGNATURE-REJECTED': { wfm: () => ({ onboardsUnsignedBeforeRefusing: true }) },
  'SIG-MISSING-SIGNATURE-REJECTED:device-api': {
    rewrite: () => (a) =>
      a.status === 401 && !ONBOARDING.test(a.url.split('?')[0]!) && /signature missing/.test(a.body.toString('utf8'))
        ? { ...a, status: 500 }
        : undefined,
  },
  // A missing, or a mismatching, Content-Digest is let through.
  'SIG-MISSING-DIGEST-400': {
    wfm: (base) => ({ acceptsContentDigest: (verdict) => verdict === 'missing' || base.acceptsContentDigest(verdict) }),
  },
  'SIG-WRONG-DIGEST-400': {
    wfm: (base) => ({ acceptsContentDigest: (verdict) => verdict === 'mismatch' || base.acceptsContentDigest(verdict) }),
  },
  // A signature that does not verify is answered as an untrusted client.
  'SIG-BAD-SIGNATURE-401': {
    wfm: (base) => ({ signatureRefusalStatus: (reason) => (reason === 'bad-signature' ? 403 : base.signatureRefusalStatus(reason)) }),
  },
  // The key of an unknown certificate is answered as a malformed request.
  'SIG-UNTRUSTED-CERT-403': { wfm: () => ({ unknownKeyStatus: 400 }) },
  // The digest is checked against the body, but the signature need not cover it: a body and its digest can be swapped.
  'SIG-DIGEST-UNCOVERED-401': {
    wfm: (base) => ({
      requiredCoveredComponents: (hasBody) => base.requiredCoveredComponents(hasBody).filter((c) => c !== 'content-digest'),
    }),
  },
  // A client onboarded with that key type, whose signatures are then refused.
  'SIG-WFM-ECDSA-P256': {
    wfm: (base) => ({ acceptsSignatureAlgorithm: (alg) => alg !== 'ecdsa-p256-sha256' && base.acceptsSignatureAlgorithm(alg) }),
  },
  'SIG-WFM-OTHER-ALGS': {
    wfm: (base) => ({ acceptsSignatureAlgorithm: (alg) => alg === 'ecdsa-p256-sha256' && base.acceptsSignatureAlgorithm(alg) }),
  },
  // Retirement is recorded but never enforced.
  'AUTH-RETIRED-CLIENT-403': { wfm: () => ({ acceptsRetiredClient: true }) },
};
