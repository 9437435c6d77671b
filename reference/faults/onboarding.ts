// Faults of §2.3, §4.3, §5, P2, P3 (onboarding, Certificate API, request signatures). Behaviour-level faults have their
// seam in reference/wfm/onboarding.ts or auth.ts, found by the fault id.
import { on } from './rewrite.ts';
import type { AnswerView, FaultDefinition } from './types.ts';

const CERTIFICATE_API = /^\/api\/v1\/onboarding\/certificate$/;
const ONBOARDING = /^\/api\/v1\/onboarding$/;

/** A self-signed-looking leaf that is no CA: issued by a throwaway CA, basicConstraints cA=false (base64 DER). */
const LEAF_NOT_CA =
  'MIIBSTCB8aADAgECAgEBMAoGCCqGSM49BAMCMCwxKjAoBgNVBAMTIXdmbWNrIGZhdWx0OiBub3QgYSByb290IENBIGlzc3VlcjAgFw0yMDAxMDEwMDAwMDBaGA8yMTIwMDEwMTAwMDAwMFowHjEcMBoGA1UEAxMTd2ZtY2sgZmF1bHQ6IGEgbGVhZjBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABI4BF+FZrRxjOCTzbZjsWYpdpCfp4adiwGZLbgoF01RGGf5fs1YJVFiesRGb6QEw6ECE0uTJNYYGDUqipmLckuOjEDAOMAwGA1UdEwEB/wQCMAAwCgYIKoZIzj0EAwIDRwAwRAIgLBsIlZtd+x83z7/D5cMOfvcTQT+SW1nBvGL/3yM5RtgCIDKSxOaLJlvuc0rrjpCBh1FUEv/AuO212rhpO+3xV4jy';

function withJson(a: AnswerView, change: (body: Record<string, unknown>) => Record<string, unknown>): AnswerView {
  return { ...a, body: Buffer.from(JSON.stringify(change(JSON.parse(a.body.toString('utf8')) as Record<string, unknown>))) };
}

const seam = (id: string, breaks: string[], description: string): FaultDefinition => ({ id, service: 'wfm', breaks, description });

export const faults: FaultDefinition[] = [
  {
    id: 'CERT-GET-200',
    service: 'wfm',
    // CERT-IS-ROOT-CA is blocked by CERT-GET-200: no certificate to judge.
    breaks: ['CERT-GET-200', 'CERT-API-SERVED'],
    description: 'the Certificate API answers 200 with {"ca": ...} instead of {"certificate": ...}',
    rewrite: on('GET', CERTIFICATE_API, (a) => (a.status === 200 ? withJson(a, ({ certificate, ...rest }) => ({ ...rest, ca: certificate })) : undefined)),
  },
  seam('CERT-NO-AUTH', ['CERT-NO-AUTH', 'CERT-GET-200', 'CERT-API-SERVED'], 'the Certificate API answers 401 to a request without a signature'),
  {
    id: 'CERT-GET-200:hang',
    service: 'wfm',
    // CERT-IS-ROOT-CA is blocked by CERT-GET-200: no certificate to judge.
    breaks: ['CERT-GET-200', 'CERT-NO-AUTH', 'CERT-API-SERVED'],
    description: 'the Certificate API never answers: the request hangs until the client gives up (every other endpoint answers)',
    rewrite: on('GET', CERTIFICATE_API, (a) => ({ ...a, hang: true })),
  },
  {
    id: 'CERT-IS-ROOT-CA',
    service: 'wfm',
    breaks: ['CERT-IS-ROOT-CA'],
    description: 'the Certificate API serves a leaf certificate (cA=false, not self-signed) instead of the root CA',
    rewrite: on('GET', CERTIFICATE_API, (a) => (a.status === 200 ? withJson(a, () => ({ certificate: LEAF_NOT_CA })) : undefined)),
  },
  {
    id: 'ONB-201-CLIENTID',
    service: 'wfm',
    breaks: ['ONB-201-CLIENTID'],
    description: 'a successful onboarding answers 200 instead of 201',
    rewrite: on('POST', ONBOARDING, (a) => (a.status === 201 ? { ...a, status: 200 } : undefined)),
  },
  {
    id: 'ONB-CLIENTID-URL-SAFE',
    service: 'wfm',
    breaks: ['ONB-CLIENTID-URL-SAFE'],
    description: 'the clientId carries "#", which is not URL-safe',
    rewrite: on('POST', ONBOARDING, (a) => (a.status === 201 ? withJson(a, (b) => ({ ...b, clientId: `${String(b['clientId'])}#0` })) : undefined)),
  },
  seam('ONB-CLIENTID-UNIQUE', ['ONB-CLIENTID-UNIQUE'], 'a new client gets the clientId of the previous one'),
  {
    id: 'ONB-400-CERT-FORMAT',
    service: 'wfm',
    breaks: ['ONB-400-CERT-FORMAT', 'ERR-ONB-400'],
    description: 'an invalid certificate format or structure answers 422 instead of 400',
    rewrite: on('POST', ONBOARDING, (a) => (a.status === 400 && /invalid certificate/.test(a.body.toString('utf8')) ? { ...a, status: 422 } : undefined)),
  },
  seam('ONB-403-UNTRUSTED', ['ONB-403-UNTRUSTED', 'ERR-ONB-403'], 'onboards a certificate whatever CA issued it'),
  seam('ONB-403-UNTRUSTED:expired', ['ONB-403-UNTRUSTED', 'ERR-ONB-403'], 'onboards an expired certificate of a trusted CA'),
  seam('ONB-403-REJECTED', ['ONB-403-REJECTED', 'ERR-ONB-403'], 'onboards a retired client again (201) when it sends its certificate'),
  seam('AUTH-ONB-SIGNATURE', ['AUTH-ONB-SIGNATURE', 'SIG-MISSING-SIGNATURE-REJECTED'], 'onboards a client whose OnboardingRequest carries no signature'),
  seam('AUTH-ONB-SIGNATURE:bad-signature', ['AUTH-ONB-SIGNATURE', 'SIG-BAD-SIGNATURE-401'], 'onboards a client whose OnboardingRequest signature does not verify'),
  seam('SIG-MISSING-SIGNATURE-REJECTED', ['SIG-MISSING-SIGNATURE-REJECTED', 'AUTH-ONB-SIGNATURE'], 'answers an unsigned OnboardingRequest 401, yet onboards its client'),
  {
    id: 'SIG-MISSING-SIGNATURE-REJECTED:device-api',
    service: 'wfm',
    breaks: ['SIG-MISSING-SIGNATURE-REJECTED'],
    description: 'answers a Device API request without a signature with 500 instead of 400, 401 or 403',
    rewrite: (a) => (a.status === 401 && !ONBOARDING.test(a.url.split('?')[0]!) && /signature missing/.test(a.body.toString('utf8')) ? { ...a, status: 500 } : undefined),
  },
  seam('SIG-MISSING-DIGEST-400', ['SIG-MISSING-DIGEST-400'], 'lets a request with a body but no Content-Digest through to the signature check (401)'),
  seam('SIG-WRONG-DIGEST-400', ['SIG-WRONG-DIGEST-400'], 'accepts a request whose Content-Digest does not match its body'),
  seam('SIG-BAD-SIGNATURE-401', ['SIG-BAD-SIGNATURE-401'], 'answers a signature that does not verify with 403 instead of 401'),
  seam('SIG-UNTRUSTED-CERT-403', ['SIG-UNTRUSTED-CERT-403'], 'answers a request signed by the key of an unknown certificate with 400 (a malformed request) instead of 403 or 401'),
  seam('SIG-WFM-ECDSA-P256', ['SIG-WFM-ECDSA-P256'], 'onboards a P-256 client, then refuses its ecdsa-p256-sha256 signatures (401)'),
  seam('SIG-WFM-OTHER-ALGS', ['SIG-WFM-OTHER-ALGS'], 'onboards RSA and Ed25519 clients, then refuses their rsa-pss-sha512 and ed25519 signatures (401)'),
  seam('AUTH-RETIRED-CLIENT-403', ['AUTH-RETIRED-CLIENT-403', 'STATUS-POST-403', 'ERR-STATUS-403'], 'a retired client is still served: no 403 after retirement'),
];
