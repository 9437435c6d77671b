// Faults of profiles.md P10, edition miaf: mutual TLS with SVIDs, the rc.3 paths and schemas, problem details. Each
// runs against the reference services in edition miaf. Behaviour-level faults have their seam in reference/wfm/
// (mtls.ts, auth.ts, http.ts, capabilities.ts, desired-state.ts, ...) or run/embedded.ts, found by the fault id.
import { on } from './rewrite.ts';
import type { FaultDefinition } from './types.ts';

const MANIFEST = /^\/api\/v1\/deployments$/;
const DEPLOYMENT = /^\/api\/v1\/deployments\/[^/]+\/sha[^/]+$/;
const BUNDLE = /^\/api\/v1\/bundles\/[^/]+$/;
const STATUS = /^\/api\/v1\/deployments\/[^/]+\/status$/;

const seam = (id: string, breaks: string[], description: string): FaultDefinition => ({ id, service: 'wfm', edition: 'miaf', breaks, description });
const rewritten = (id: string, description: string, rewrite: FaultDefinition['rewrite']): FaultDefinition => ({ id, service: 'wfm', edition: 'miaf', breaks: [id], description, rewrite });

const unquoted = (etag: unknown) => String(etag ?? '').replace(/^"|"$/g, '');

export const faults: FaultDefinition[] = [
  // Mutual TLS and the SVID rules (reference/wfm/mtls.ts, embedded.ts).
  seam('MIAF-MTLS-EVERY-REQUEST', ['MIAF-MTLS-EVERY-REQUEST'], 'a connection without a client certificate is let in (and answered 403)'),
  seam('MIAF-TLS13-DEFAULT', ['MIAF-TLS13-DEFAULT'], 'TLS 1.2 even with a client that offers TLS 1.3'),
  seam('MIAF-HTTP11', ['MIAF-HTTP11'], 'every answer goes out with an HTTP/1.0 status line'),
  seam('MIAF-NO-SIGNATURE-NEEDED', ['MIAF-NO-SIGNATURE-NEEDED'], 'an admitted client\'s request without an HTTP message signature is answered 401'),
  seam('MIAF-SERVER-SVID', ['MIAF-SERVER-SVID', 'SVID-KEY-ALG'], 'the WFM presents an SVID of another wfm-id'),
  seam('SVID-LEAF-NOT-CA', ['SVID-LEAF-NOT-CA'], 'a CA certificate is accepted as a client leaf'),
  seam('SVID-LEAF-NO-CERT-SIGN', ['SVID-LEAF-NO-CERT-SIGN'], 'a client leaf with keyCertSign is accepted'),
  seam('SVID-ONE-URI-SAN', ['SVID-ONE-URI-SAN'], 'a client leaf with two URI SANs is accepted (the first one counts)'),
  seam('SVID-SPIFFE-SCHEME', ['SVID-SPIFFE-SCHEME'], 'a URI SAN that is no SPIFFE ID is let through the handshake (the client is then named by its CN)'),
  seam('SVID-NOT-EXPIRED', ['SVID-NOT-EXPIRED'], 'an expired (or not yet valid) client SVID is accepted'),
  seam('SVID-TRUST-DOMAIN', ['SVID-TRUST-DOMAIN'], 'a client SVID of another trust domain is accepted when its chain validates'),
  seam('SVID-WFM-ID', ['SVID-WFM-ID'], 'a client SVID under another wfm-id is accepted'),
  seam('SVID-CHAIN-BUNDLE', ['SVID-CHAIN-BUNDLE'], 'the WFM keeps the anchors it started with: a rotation never reaches its TLS'),
  seam('SVID-NO-DNS-IDENTITY', ['SVID-NO-DNS-IDENTITY'], 'a client SVID that also carries DNS names is refused'),
  seam('SVID-KEY-ALG-OPTIONAL', ['SVID-KEY-ALG-OPTIONAL'], 'a client SVID with a P-384, Ed25519 or RSA key passes the handshake, but its requests are never mapped to its client (403)'),
  seam('SVID-KEY-ALG', ['SVID-KEY-ALG'], 'client SVIDs with ECDSA P-256 keys are refused'),
  // Who the client is (auth.ts, admission.ts, capabilities.ts).
  seam('MIAF-CLIENT-IS-SPIFFE-ID', ['MIAF-CLIENT-IS-SPIFFE-ID'], 'a client is bound to its first certificate: a second SVID of the same SPIFFE ID is refused 403'),
  seam('MIAF-NOT-ADMITTED-403', ['MIAF-NOT-ADMITTED-403'], 'any valid SVID is admitted on first use'),
  seam('MIAF-SCOPE-PER-CLIENT', ['MIAF-SCOPE-PER-CLIENT'], 'a deviceId belongs to the first client that reported it, and any other client\'s PUT of it is answered 403'),
  // Capabilities (router.ts, capabilities.ts).
  seam('MIAF-CAP-PATHS', ['MIAF-CAP-PATHS', 'PROBLEM-ABOUT-BLANK'], 'POST on a capabilities path is taken as a PUT'),
  seam('MIAF-CAP-ROOT-CLOSED', ['MIAF-CAP-ROOT-CLOSED'], 'the capabilities root stays open: apiVersion, kind and unknown keys accepted'),
  seam('MIAF-CAP-PROPS-REQUIRED', ['MIAF-CAP-PROPS-REQUIRED'], 'properties without cpus is refused 422'),
  seam('MIAF-ENUMS-CLOSED', ['MIAF-ENUMS-CLOSED'], 'enum values are not checked: any cpu architecture, peripheral or interface type is accepted'),
  // Desired state (desired-state.ts, manifest.ts, manifest-faults.ts).
  rewritten('MIAF-DS-GET-200', 'GET /api/v1/deployments answers 200 with {} instead of the state manifest', on('GET', MANIFEST, (a) => (a.status === 200 ? { ...a, body: Buffer.from('{}') } : undefined))),
  seam('MIAF-DS-CACHE-PRIVATE', ['MIAF-DS-CACHE-PRIVATE'], 'the state manifest is served Cache-Control: public'),
  rewritten('MIAF-DS-ETAG-QUOTED-DIGEST', 'the state manifest\'s ETag is the digest without quotes', on('GET', MANIFEST, (a) => (a.status === 200 ? { ...a, headers: { ...a.headers, etag: unquoted(a.headers.etag) } } : undefined))),
  rewritten('MIAF-DS-406-PROBLEM', 'the 406 of the state manifest is a problem of type about:blank', on('GET', MANIFEST, (a) => {
    if (a.status !== 406) return undefined;
    const problem = JSON.parse(a.body.toString('utf8')) as Record<string, unknown>;
    return { ...a, body: Buffer.from(JSON.stringify({ ...problem, type: 'about:blank' })) };
  })),
  seam('MIAF-DS-FIRST-VERSION-1', ['MIAF-DS-FIRST-VERSION-1'], 'the first state manifest is version 0'),
  seam('MIAF-DS-BUNDLE-NULL', ['MIAF-DS-BUNDLE-NULL'], 'a manifest without deployments offers a bundle of an empty archive instead of null'),
  rewritten('MIAF-DEPLOYMENT-GET', 'deployment YAMLs are labelled text/plain', on('GET', DEPLOYMENT, (a) => (a.status === 200 ? { ...a, headers: { ...a.headers, 'content-type': 'text/plain' } } : undefined))),
  seam('MIAF-DEPLOYMENT-CACHE', ['MIAF-DEPLOYMENT-CACHE'], 'deployment YAMLs are served Cache-Control: no-cache'),
  seam('MIAF-DEPLOYMENT-404', ['MIAF-DEPLOYMENT-404'], 'a deployment URL with any digest serves the current YAML'),
  rewritten('MIAF-BUNDLE-GET', 'the bundle\'s ETag is its digest without quotes', on('GET', BUNDLE, (a) => (a.status === 200 ? { ...a, headers: { ...a.headers, etag: unquoted(a.headers.etag) } } : undefined))),
  seam('MIAF-BUNDLE-CACHE', ['MIAF-BUNDLE-CACHE'], 'bundles are served Cache-Control: public, as the seed edition does'),
  seam('MIAF-PROFILE-TYPE', ['MIAF-PROFILE-TYPE'], 'the deployment profile type is kustomize'),
  seam('MIAF-REVISION-SEMVER', ['MIAF-REVISION-SEMVER'], 'component revisions are written with a leading v'),
  seam('MIAF-TIMEOUT-FORMAT', ['MIAF-TIMEOUT-FORMAT'], 'component timeouts are written in seconds (330s)'),
  // Status (status.ts).
  rewritten('MIAF-STATUS-POST', 'a valid status report is answered 202', on('POST', STATUS, (a) => (a.status === 201 || a.status === 200 ? { ...a, status: 202 } : undefined))),
  seam('MIAF-STATUS-REQUIRED', ['MIAF-STATUS-REQUIRED'], 'a component without state is read as installed instead of refused'),
  // Problem details (http.ts, handler.ts).
  seam('PROBLEM-JSON', ['PROBLEM-JSON'], 'problems are labelled application/json'),
  seam('PROBLEM-RESERVED-TYPE', ['PROBLEM-RESERVED-TYPE', 'MIAF-DS-406-PROBLEM', 'MIAF-NOT-ADMITTED-403'], 'reserved conditions are answered with type about:blank'),
  seam('PROBLEM-RESERVED-TYPE:missing', ['PROBLEM-RESERVED-TYPE', 'PROBLEM-JSON'], 'problems carry no type member'),
  seam('PROBLEM-ABOUT-BLANK', ['PROBLEM-ABOUT-BLANK'], 'conditions without a reserved type are answered invalid-request'),
  seam('PROBLEM-422-ERRORS', ['PROBLEM-422-ERRORS'], 'a 422 problem carries no errors list'),
  seam('PROBLEM-RETRY-AFTER', ['PROBLEM-RETRY-AFTER'], 'the 429 of the rate limit comes without Retry-After'),
  seam('PROBLEM-NOT-RETRYABLE', ['PROBLEM-NOT-RETRYABLE'], 'every problem says retryable true'),
];
