// SPIFFE IDs of the miaf edition (P10, SPIFFE-ID §2): built and parsed here only.
// Client `spiffe://<td>/<vendor>/wfm/<wfm-id>/client/<client-id>`; WFM `spiffe://<td>/<vendor>/wfm/<wfm-id>`.

export interface SpiffeId {
  /** Lowercase letters, digits, `.`, `-`, `_` (SPIFFE-ID §2.1). */
  trustDomain: string;
  /** Non-empty: P10 names workloads, never a bare trust domain. */
  segments: string[];
}

/** Why a text is not a SPIFFE ID of a workload; stable codes, so tests and findings can name them. */
export type SpiffeIdReason =
  | 'too-long'
  | 'scheme'
  | 'userinfo'
  | 'port'
  | 'query'
  | 'fragment'
  | 'empty-trust-domain'
  | 'trust-domain-too-long'
  | 'trust-domain-chars'
  | 'root-path'
  | 'empty-segment'
  | 'dot-segment'
  | 'segment-chars';

export type SpiffeIdResult = { ok: true; id: SpiffeId } | { ok: false; reason: SpiffeIdReason; message: string };

export type SpiffeRole = 'client' | 'wfm';

/** SPIFFE-ID §2.3: URIs up to 2048 bytes; §2.1: trust domain names up to 255 characters. */
export const MAX_SPIFFE_ID_BYTES = 2048;
export const MAX_TRUST_DOMAIN_LENGTH = 255;
const SCHEME = 'spiffe://';
const TRUST_DOMAIN = /^[a-z0-9._-]+$/;
const SEGMENT = /^[A-Za-z0-9._-]+$/;

const refuse = (reason: SpiffeIdReason, message: string): SpiffeIdResult => ({ ok: false, reason, message });

export function parseSpiffeId(text: string): SpiffeIdResult {
  if (Buffer.byteLength(text, 'utf8') > MAX_SPIFFE_ID_BYTES) return refuse('too-long', `longer than ${MAX_SPIFFE_ID_BYTES} bytes`);
  // The scheme is compared exactly: SPIFFE-ID §2 writes it lowercase and verifiers (go-spiffe) match it so.
  if (!text.startsWith(SCHEME)) return refuse('scheme', 'does not start with "spiffe://"');
  const rest = text.slice(SCHEME.length);
  if (rest.includes('#')) return refuse('fragment', 'a SPIFFE ID has no fragment');
  if (rest.includes('?')) return refuse('query', 'a SPIFFE ID has no query');
  const slash = rest.indexOf('/');
  const authority = slash === -1 ? rest : rest.slice(0, slash);
  if (authority.includes('@')) return refuse('userinfo', 'a SPIFFE ID has no userinfo');
  if (authority.includes(':')) return refuse('port', 'a SPIFFE ID has no port');
  if (authority === '') return refuse('empty-trust-domain', 'the trust domain is empty');
  if (authority.length > MAX_TRUST_DOMAIN_LENGTH)
    return refuse('trust-domain-too-long', `the trust domain is longer than ${MAX_TRUST_DOMAIN_LENGTH} characters`);
  if (!TRUST_DOMAIN.test(authority)) {
    return refuse(
      'trust-domain-chars',
      `trust domain ${JSON.stringify(authority)} has a character outside lowercase letters, digits, ".", "-", "_"`,
    );
  }
  if (slash === -1) return refuse('root-path', 'the path is empty: a bare trust domain names no workload');
  const segments = rest.slice(slash + 1).split('/');
  for (const s of segments) {
    if (s === '') return refuse('empty-segment', 'the path has an empty segment (a "//" or a trailing "/")');
    if (s === '.' || s === '..') return refuse('dot-segment', `the path has a ${JSON.stringify(s)} segment`);
    if (!SEGMENT.test(s))
      return refuse('segment-chars', `path segment ${JSON.stringify(s)} has a character outside letters, digits, ".", "-", "_"`);
  }
  return { ok: true, id: { trustDomain: authority, segments } };
}

/** SPIFFE-ID §2.1: a trust domain name (lowercase letters, digits, `.`, `-`, `_`; at most 255 characters). */
export function isTrustDomainName(name: string): boolean {
  return name.length <= MAX_TRUST_DOMAIN_LENGTH && TRUST_DOMAIN.test(name);
}

/**
 * The trust domain a SPIFFE ID names, for workload IDs and for the bare `spiffe://<td>` a signing certificate
 * carries (X509-SVID §3.2); undefined when the text is no SPIFFE ID by this module's grammar.
 */
export function trustDomainOf(text: string): string | undefined {
  const parsed = parseSpiffeId(text);
  if (parsed.ok) return parsed.id.trustDomain;
  return parsed.reason === 'root-path' ? text.slice(SCHEME.length) : undefined;
}

export function formatSpiffeId(id: SpiffeId): string {
  return `${SCHEME}${id.trustDomain}/${id.segments.join('/')}`;
}

export interface WfmIdentity {
  trustDomain: string;
  vendor: string;
  wfmId: string;
}

export interface ClientIdentity extends WfmIdentity {
  clientId: string;
}

/** `spiffe://<td>/<vendor>/wfm/<wfm-id>`; throws RangeError when a part breaks the grammar. */
export function wfmSpiffeId(w: WfmIdentity): string {
  return checked({ trustDomain: w.trustDomain, segments: [w.vendor, 'wfm', w.wfmId] });
}

/** `spiffe://<td>/<vendor>/wfm/<wfm-id>/client/<client-id>`; throws RangeError when a part breaks the grammar. */
export function clientSpiffeId(c: ClientIdentity): string {
  return checked({ trustDomain: c.trustDomain, segments: [c.vendor, 'wfm', c.wfmId, 'client', c.clientId] });
}

function checked(id: SpiffeId): string {
  const text = formatSpiffeId(id);
  const parsed = parseSpiffeId(text);
  // A part holding "/" would parse into other segments: building must never change the shape.
  if (!parsed.ok) throw new RangeError(`not a SPIFFE ID: ${text}: ${parsed.message}`);
  if (parsed.id.segments.length !== id.segments.length) throw new RangeError(`a part of ${text} holds "/"`);
  return text;
}

export type Identity = ({ role: 'wfm' } & WfmIdentity) | ({ role: 'client' } & ClientIdentity);

/** The P10 identity an ID names, or undefined when it is a SPIFFE ID of another shape (or none at all). */
export function identityOf(id: string | SpiffeId): Identity | undefined {
  const parsed = typeof id === 'string' ? parseSpiffeId(id) : parseSpiffeId(formatSpiffeId(id));
  if (!parsed.ok) return undefined;
  const { trustDomain, segments: s } = parsed.id;
  if (s[1] !== 'wfm') return undefined;
  if (s.length === 3) return { role: 'wfm', trustDomain, vendor: s[0]!, wfmId: s[2]! };
  if (s.length === 5 && s[3] === 'client') return { role: 'client', trustDomain, vendor: s[0]!, wfmId: s[2]!, clientId: s[4]! };
  return undefined;
}

export function roleOf(id: string | SpiffeId): SpiffeRole | undefined {
  return identityOf(id)?.role;
}
