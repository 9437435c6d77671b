// Faults of §2.5, §2.6, §4.5, §4.6 (discovery document and SPIFFE trust bundle, served by the identity role): rewrites
// of the answers, or decisions of the identity role (reference/identity/decisions.ts).
import { editJson as edit, type Json } from './served.ts';
import { on, type AnswerView, type Rewrite } from './rewrite.ts';
import type { ServiceFaultTable } from './types.ts';

// The identity role serves two resources: discovery at /.well-known/<vendor>, the bundle at any other path.
const DISCOVERY = /^\/\.well-known\//;
const BUNDLE = /^\/(?!\.well-known\/)/;

/** The bundle's `keys` entries that are objects. */
function keysOf(doc: Json): Json[] {
  return Array.isArray(doc.keys) ? doc.keys.filter((k): k is Json => typeof k === 'object' && k !== null) : [];
}

const x509Entries = (doc: Json) => keysOf(doc).filter((k) => k.use === 'x509-svid');

function withoutEtag(a: AnswerView): AnswerView {
  const headers = { ...a.headers };
  delete headers.etag;
  return { ...a, headers };
}

function unauthorized(a: AnswerView): AnswerView | undefined {
  if (a.status !== 200 && a.status !== 304) return undefined;
  const body = Buffer.from(JSON.stringify({ error: 'credentials required' }));
  return { ...a, status: 401, headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer realm="wfmck"' }, body };
}

/** A 404 answered as 200 with `body` instead (a withdrawn document served as an empty one). */
function emptyInsteadOf404(body: object): (a: AnswerView) => AnswerView | undefined {
  return (a) =>
    a.status === 404
      ? { ...a, status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)) }
      : undefined;
}

/** The conditional-GET faults of one resource (§4.5 or §4.6): 304 to any If-None-Match, no ETag, never 304. */
function conditionalFaults(prefix: 'DISC' | 'BUNDLE', kind: 'discovery' | 'bundle', path: RegExp): ServiceFaultTable {
  return {
    [`${prefix}-200`]: {
      identity: (base) => ({
        notModified: (k, ifNoneMatch, etag) => (k === kind ? ifNoneMatch !== undefined : base.notModified(k, ifNoneMatch, etag)),
      }),
    },
    [`${prefix}-ETAG`]: { rewrite: () => on('GET', path, withoutEtag) },
    [`${prefix}-304`]: {
      identity: (base) => ({ notModified: (k, ifNoneMatch, etag) => k !== kind && base.notModified(k, ifNoneMatch, etag) }),
    },
  };
}

export const implementations: ServiceFaultTable = {
  // §4.5 discovery
  ...conditionalFaults('DISC', 'discovery', DISCOVERY),
  'DISC-200:not-json': {
    rewrite: () =>
      on('GET', DISCOVERY, (a) =>
        a.status === 200
          ? { ...a, headers: { ...a.headers, 'content-type': 'text/html' }, body: Buffer.from('<html><body>Welcome</body></html>') }
          : undefined,
      ),
  },
  'DISC-WELL-KNOWN': {
    rewrite: () =>
      on('GET', DISCOVERY, (a) => ({
        ...a,
        status: 404,
        headers: { 'content-type': 'application/json' },
        body: Buffer.from('{"error":"not found"}'),
      })),
  },
  'DISC-404': { rewrite: () => on('GET', DISCOVERY, emptyInsteadOf404({})) },
  // The other URLs serve the main domain's document.
  'DISC-SEVERAL-DOMAINS-OTHER-URLS': { identity: () => ({ servesEachDomainsDiscovery: false }) },
  // §2.5 discovery document: the anchors carry the ID of another trust domain.
  'DISC-SPIFFE-ID-IN-DOMAIN': { identity: () => ({ anchorSpiffeId: () => 'spiffe://other.test' }) },
  'DISC-TRUSTDOMAIN-REQUIRED': { rewrite: () => edit(DISCOVERY, (d) => void delete d.trustDomain) },
  'DISC-ONE-TRUST-DOMAIN': { rewrite: () => edit(DISCOVERY, (d) => void (d.trustDomain = `${String(d.trustDomain)} other.test`)) },
  'DISC-TRUSTBUNDLEURI-REQUIRED': { rewrite: () => edit(DISCOVERY, (d) => void delete d.trustBundleUri) },
  'DISC-TRUSTBUNDLEURI-HTTPS': {
    rewrite: () => edit(DISCOVERY, (d) => void (d.trustBundleUri = String(d.trustBundleUri).replace(/^https:/, 'http:'))),
  },
  // A DELETE removes the discovery document (204, then 404).
  'DISC-READ-ONLY': { identity: () => ({ discoveryReadOnly: false }) },
  // §5 authentication of the identity endpoints
  'AUTH-IDENTITY-NO-CREDENTIALS': { rewrite: () => (a) => (a.method === 'GET' ? unauthorized(a) : undefined) },
  'AUTH-IDENTITY-HTTPS': { identity: () => ({ servesHttps: false }) },
  // §4.6 trust bundle endpoint
  ...conditionalFaults('BUNDLE', 'bundle', BUNDLE),
  'BUNDLE-200:not-json': {
    rewrite: () =>
      on('GET', BUNDLE, (a) =>
        a.status === 200
          ? {
              ...a,
              headers: { ...a.headers, 'content-type': 'application/x-pem-file' },
              body: Buffer.from('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n'),
            }
          : undefined,
      ),
  },
  'BUNDLE-404': { rewrite: () => on('GET', BUNDLE, emptyInsteadOf404({ keys: [] })) },
  // §2.6 trust bundle document
  'BUNDLE-JWK-SET': { rewrite: () => edit(BUNDLE, (d) => void (d.keys = Object.fromEntries(keysOf(d).map((k, i) => [String(i), k])))) },
  'BUNDLE-KEY-USE-X509': { rewrite: () => edit(BUNDLE, (d) => void (d.keys = keysOf(d).filter((k) => k.use !== 'x509-svid'))) },
  'BUNDLE-KEY-X5C': {
    rewrite: () =>
      edit(BUNDLE, (d) => {
        for (const k of x509Entries(d))
          k.x5c = [`-----BEGIN CERTIFICATE-----\n${String((k.x5c as string[])[0])}\n-----END CERTIFICATE-----`];
      }),
  },
  'BUNDLE-KEY-EC-COORDS': {
    rewrite: () =>
      edit(BUNDLE, (d) => {
        for (const k of x509Entries(d)) [k.x, k.y] = [k.y, k.x];
      }),
  },
  'BUNDLE-ANCHORS-ONLY': {
    rewrite: () =>
      edit(BUNDLE, (d) => {
        for (const k of x509Entries(d)) k.x5c = [...(k.x5c as string[]), ...(k.x5c as string[])];
      }),
  },
  'BUNDLE-ANCHORS-ONLY:intermediate': { identity: () => ({ listsIntermediateAsAnchor: true }) },
  'BUNDLE-SEQUENCE-NUMBER': { rewrite: () => edit(BUNDLE, (d) => void (d.spiffe_sequence = String(d.spiffe_sequence))) },
  'BUNDLE-SEQUENCE-NUMBER:decreases': { rewrite: () => edit(BUNDLE, (d) => void (d.spiffe_sequence = 1000 - Number(d.spiffe_sequence))) },
  'BUNDLE-SEQUENCE-NUMBER:stuck': { rewrite: () => edit(BUNDLE, (d) => void (d.spiffe_sequence = 1)) },
  'BUNDLE-REFRESH-HINT-OPTIONAL': {
    rewrite: () => edit(BUNDLE, (d) => void (d.spiffe_refresh_hint = `${String(d.spiffe_refresh_hint)}s`)),
  },
  'BUNDLE-ROTATION-OVERLAP': {
    rewrite: () =>
      edit(BUNDLE, (d) => {
        const newest = x509Entries(d).at(-1);
        d.keys = keysOf(d).filter((k) => k.use !== 'x509-svid' || k === newest);
      }),
  },
  // Finishing a rotation keeps the old anchor.
  'BUNDLE-ROTATION-OVERLAP:old-kept': { identity: () => ({ finishDropsOldAnchor: false }) },
};
