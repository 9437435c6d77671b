// Faults of §2.5, §2.6, §4.5, §4.6 (discovery document and SPIFFE trust bundle, served by the identity role).
// Faults with neither rewrite nor registry are seams in reference/identity/server.ts and anchors.ts (search the id).
import { editJson as edit, type Json, type Rewrite } from './served.ts';
import { on } from './rewrite.ts';
import type { AnswerView, FaultDefinition } from './types.ts';

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
  return (a) => (a.status === 404 ? { ...a, status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)) } : undefined);
}

/** The conditional-GET faults of one resource (§4.5 or §4.6); 200 and 304 are seams in reference/identity/server.ts. */
function conditionalFaults(prefix: 'DISC' | 'BUNDLE', path: RegExp, what: string): FaultDefinition[] {
  const fault = (suffix: string, description: string, rewrite?: Rewrite): FaultDefinition => ({
    id: `${prefix}-${suffix}`, service: 'identity', breaks: [`${prefix}-${suffix}`], description, ...(rewrite ? { rewrite } : {}),
  });
  return [
    fault('200', `answers 304 to any If-None-Match, even a tag it never sent (a 304 for a changed ${what})`),
    fault('ETAG', `serves the ${what} without an ETag`, on('GET', path, withoutEtag)),
    fault('304', `ignores If-None-Match on the ${what}: never 304, always the whole document`),
  ];
}

export const faults: FaultDefinition[] = [
  // §4.5 discovery
  ...conditionalFaults('DISC', DISCOVERY, 'discovery document'),
  {
    id: 'DISC-200:not-json', service: 'identity', breaks: ['DISC-200'],
    description: 'answers the discovery path with 200 and an HTML page instead of the discovery document',
    rewrite: on('GET', DISCOVERY, (a) => (a.status === 200 ? { ...a, headers: { ...a.headers, 'content-type': 'text/html' }, body: Buffer.from('<html><body>Welcome</body></html>') } : undefined)),
  },
  {
    id: 'DISC-WELL-KNOWN', service: 'identity', breaks: ['DISC-WELL-KNOWN', 'DISC-200'],
    description: 'serves no discovery document at /.well-known/<vendor> (404) although the origin serves one trust domain',
    rewrite: on('GET', DISCOVERY, (a) => ({ ...a, status: 404, headers: { 'content-type': 'application/json' }, body: Buffer.from('{"error":"not found"}') })),
  },
  {
    id: 'DISC-404', service: 'identity', breaks: ['DISC-404', 'ERR-DISC-404'],
    description: 'answers 200 with an empty JSON object instead of 404 when no discovery document exists',
    rewrite: on('GET', DISCOVERY, emptyInsteadOf404({})),
  },
  {
    id: 'DISC-SEVERAL-DOMAINS-OTHER-URLS', service: 'identity', breaks: ['DISC-SEVERAL-DOMAINS-OTHER-URLS'],
    description: "serves the main trust domain's discovery document at the other discovery URLs of its further trust domains",
  },
  // §2.5 discovery document
  {
    id: 'DISC-SPIFFE-ID-IN-DOMAIN', service: 'identity', breaks: ['DISC-SPIFFE-ID-IN-DOMAIN'],
    description: 'its trust anchors (SVID signing certificates) carry the SPIFFE ID spiffe://other.test, outside trustDomain',
  },
  {
    id: 'DISC-TRUSTDOMAIN-REQUIRED', service: 'identity', breaks: ['DISC-TRUSTDOMAIN-REQUIRED'],
    description: 'serves a discovery document without trustDomain',
    rewrite: edit(DISCOVERY, (d) => void delete d.trustDomain),
  },
  {
    id: 'DISC-ONE-TRUST-DOMAIN', service: 'identity', breaks: ['DISC-ONE-TRUST-DOMAIN'],
    description: 'names two trust domains in trustDomain ("wfmck.test other.test")',
    rewrite: edit(DISCOVERY, (d) => void (d.trustDomain = `${String(d.trustDomain)} other.test`)),
  },
  {
    id: 'DISC-TRUSTBUNDLEURI-REQUIRED', service: 'identity', breaks: ['DISC-TRUSTBUNDLEURI-REQUIRED'],
    description: 'serves a discovery document without trustBundleUri',
    rewrite: edit(DISCOVERY, (d) => void delete d.trustBundleUri),
  },
  {
    id: 'DISC-TRUSTBUNDLEURI-HTTPS', service: 'identity', breaks: ['DISC-TRUSTBUNDLEURI-HTTPS'],
    description: 'names a trustBundleUri with the http scheme instead of https',
    rewrite: edit(DISCOVERY, (d) => void (d.trustBundleUri = String(d.trustBundleUri).replace(/^https:/, 'http:'))),
  },
  {
    id: 'DISC-READ-ONLY', service: 'identity', breaks: ['DISC-READ-ONLY'],
    description: 'a DELETE of the discovery document removes it (204, then 404)',
  },
  // §5 authentication of the identity endpoints
  {
    id: 'AUTH-IDENTITY-NO-CREDENTIALS', service: 'identity', breaks: ['AUTH-IDENTITY-NO-CREDENTIALS'],
    description: 'answers discovery and bundle requests without credentials with 401 and a Bearer challenge',
    rewrite: (a) => (a.method === 'GET' ? unauthorized(a) : undefined),
  },
  {
    id: 'AUTH-IDENTITY-HTTPS', service: 'identity', breaks: ['AUTH-IDENTITY-HTTPS'],
    description: 'serves discovery and the trust bundle over plain HTTP',
  },
  // §4.6 trust bundle endpoint
  ...conditionalFaults('BUNDLE', BUNDLE, 'trust bundle'),
  {
    id: 'BUNDLE-200:not-json', service: 'identity', breaks: ['BUNDLE-200'],
    description: 'answers the bundle URI with 200 and PEM text instead of the SPIFFE bundle',
    rewrite: on('GET', BUNDLE, (a) => (a.status === 200 ? { ...a, headers: { ...a.headers, 'content-type': 'application/x-pem-file' }, body: Buffer.from('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n') } : undefined)),
  },
  {
    id: 'BUNDLE-404', service: 'identity', breaks: ['BUNDLE-404', 'ERR-BUNDLE-404'],
    description: 'answers 200 with a bundle without keys instead of 404 when the bundle is unavailable',
    rewrite: on('GET', BUNDLE, emptyInsteadOf404({ keys: [] })),
  },
  // §2.6 trust bundle document
  {
    id: 'BUNDLE-JWK-SET', service: 'identity', breaks: ['BUNDLE-JWK-SET'],
    description: 'serves keys as an object keyed by position instead of a JWK array',
    rewrite: edit(BUNDLE, (d) => void (d.keys = Object.fromEntries(keysOf(d).map((k, i) => [String(i), k])))),
  },
  {
    id: 'BUNDLE-KEY-USE-X509', service: 'identity', breaks: ['BUNDLE-KEY-USE-X509'],
    description: 'serves a bundle with only its jwt-svid key: no x509-svid trust anchor',
    rewrite: edit(BUNDLE, (d) => void (d.keys = keysOf(d).filter((k) => k.use !== 'x509-svid'))),
  },
  {
    id: 'BUNDLE-KEY-X5C', service: 'identity', breaks: ['BUNDLE-KEY-X5C'],
    description: "writes an anchor's x5c as PEM text instead of base64 DER",
    rewrite: edit(BUNDLE, (d) => {
      for (const k of x509Entries(d)) k.x5c = [`-----BEGIN CERTIFICATE-----\n${String((k.x5c as string[])[0])}\n-----END CERTIFICATE-----`];
    }),
  },
  {
    id: 'BUNDLE-KEY-EC-COORDS', service: 'identity', breaks: ['BUNDLE-KEY-EC-COORDS'],
    description: "swaps x and y of each anchor's EC key, so they no longer describe the x5c certificate's key",
    rewrite: edit(BUNDLE, (d) => {
      for (const k of x509Entries(d)) [k.x, k.y] = [k.y, k.x];
    }),
  },
  {
    id: 'BUNDLE-ANCHORS-ONLY', service: 'identity', breaks: ['BUNDLE-ANCHORS-ONLY'],
    description: "puts a chain in each anchor's x5c (the authority certificate followed by a second certificate)",
    rewrite: edit(BUNDLE, (d) => {
      for (const k of x509Entries(d)) k.x5c = [...(k.x5c as string[]), ...(k.x5c as string[])];
    }),
  },
  {
    id: 'BUNDLE-ANCHORS-ONLY:intermediate', service: 'identity', breaks: ['BUNDLE-ANCHORS-ONLY'],
    description: 'lists an intermediate CA (issued by the anchor) as an x509-svid entry (fails in strict strictness, per the errata)',
  },
  {
    id: 'BUNDLE-SEQUENCE-NUMBER', service: 'identity', breaks: ['BUNDLE-SEQUENCE-NUMBER'],
    description: 'serves spiffe_sequence as a string',
    rewrite: edit(BUNDLE, (d) => void (d.spiffe_sequence = String(d.spiffe_sequence))),
  },
  {
    id: 'BUNDLE-SEQUENCE-NUMBER:decreases', service: 'identity', breaks: ['BUNDLE-SEQUENCE-NUMBER'],
    description: 'spiffe_sequence goes down on every change of the anchors',
    rewrite: edit(BUNDLE, (d) => void (d.spiffe_sequence = 1000 - Number(d.spiffe_sequence))),
  },
  {
    id: 'BUNDLE-SEQUENCE-NUMBER:stuck', service: 'identity', breaks: ['BUNDLE-SEQUENCE-NUMBER'],
    description: 'spiffe_sequence stays 1 when the anchors change',
    rewrite: edit(BUNDLE, (d) => void (d.spiffe_sequence = 1)),
  },
  {
    id: 'BUNDLE-REFRESH-HINT-OPTIONAL', service: 'identity', breaks: ['BUNDLE-REFRESH-HINT-OPTIONAL'],
    description: 'serves spiffe_refresh_hint as the string "300s" (a MAY: the failed check only warns)',
    rewrite: edit(BUNDLE, (d) => void (d.spiffe_refresh_hint = `${String(d.spiffe_refresh_hint)}s`)),
  },
  {
    id: 'BUNDLE-ROTATION-OVERLAP', service: 'identity', breaks: ['BUNDLE-ROTATION-OVERLAP'],
    description: 'serves only the newest x509-svid anchor during a rotation: no overlap',
    rewrite: edit(BUNDLE, (d) => {
      const newest = x509Entries(d).at(-1);
      d.keys = keysOf(d).filter((k) => k.use !== 'x509-svid' || k === newest);
    }),
  },
  {
    id: 'BUNDLE-ROTATION-OVERLAP:old-kept', service: 'identity', breaks: ['BUNDLE-ROTATION-OVERLAP'],
    description: 'keeps the old anchor after the rotation finished',
  },
];
