// §2.5, §2.6, §4.6 client rules 1-7: which bundle entries are X.509 trust anchors, when a client takes them, discovery.
import { createPublicKey, type JsonWebKey } from 'node:crypto';
import type { BundleJwk, TrustBundle } from '../types.ts';
import { x509 } from '../x509.ts';
import { finding, type Finding } from './finding.ts';
import { isTrustDomainName } from '../spiffe-id.ts';

export interface Anchor {
  /** Position in `keys`. */
  index: number;
  kid?: string;
  /** `x5c[0]`: base64 DER of the authority certificate. */
  x5c: string;
  certificate: x509.X509Certificate;
}

export interface IgnoredEntry {
  index: number;
  reason: string;
  /** Set when an x509-svid entry is defective (a finding against the bundle), unset when §2.6 says to ignore it. */
  rule?: string;
}

export type BundleAcceptance = { accepted: true; anchors: Anchor[] } | { accepted: false; reason: string };
export type Retrieval = { ok: true; bundle: unknown } | { ok: false; error: string };
export interface RetrievalOutcome {
  anchors: Anchor[] | undefined;
  /** True when the retrieval was accepted and replaced the anchors (even with equal ones). */
  changed: boolean;
  reason?: string;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** §2.6: x509-svid entries whose `x5c[0]` is a certificate carrying the JWK's own key; every other entry is ignored. */
export function x509Anchors(bundle: TrustBundle): { anchors: Anchor[]; ignored: IgnoredEntry[] } {
  const anchors: Anchor[] = [];
  const ignored: IgnoredEntry[] = [];
  const keys: unknown[] = Array.isArray(bundle.keys) ? bundle.keys : [];
  for (const [index, key] of keys.entries()) {
    const outcome = classify(key, index);
    if ('certificate' in outcome) anchors.push(outcome);
    else ignored.push(outcome);
  }
  return { anchors, ignored };
}

function classify(key: unknown, index: number): Anchor | IgnoredEntry {
  if (!isObject(key)) return { index, reason: 'not a JSON object (RFC 7517: ignored)' };
  const jwk = key as BundleJwk;
  if (jwk.use !== 'x509-svid') return { index, reason: `use ${JSON.stringify(jwk.use)} is not x509-svid (§2.6: MUST be ignored)` };
  const der = Array.isArray(jwk.x5c) ? jwk.x5c[0] : undefined;
  if (typeof der !== 'string' || der === '') {
    return { index, rule: 'x5c-present', reason: '§2.6: an x509-svid entry carries the authority certificate in x5c' };
  }
  const certificate = parseDer(der);
  if (!certificate) return { index, rule: 'x5c-certificate', reason: '§2.6: x5c[0] is not a base64 DER X.509 certificate' };
  const mismatch = keyMismatch(jwk, certificate);
  if (mismatch) return { index, rule: 'jwk-matches-certificate', reason: `§2.6: the JWK's key is not the certificate's key (${mismatch})` };
  return jwk.kid === undefined ? { index, x5c: der, certificate } : { index, kid: jwk.kid, x5c: der, certificate };
}

function parseDer(b64: string): x509.X509Certificate | undefined {
  if (!BASE64.test(b64)) return undefined;
  try {
    return new x509.X509Certificate(Buffer.from(b64, 'base64'));
  } catch {
    return undefined;
  }
}

/** The JWK members that carry key material, per key type (RFC 7518 §6). */
const MATERIAL: Record<string, (keyof JsonWebKey)[]> = { EC: ['crv', 'x', 'y'], RSA: ['n', 'e'], OKP: ['crv', 'x'] };

function keyMismatch(jwk: BundleJwk, certificate: x509.X509Certificate): string | undefined {
  let own: JsonWebKey;
  try {
    own = createPublicKey({ key: Buffer.from(certificate.publicKey.rawData), format: 'der', type: 'spki' }).export({ format: 'jwk' });
  } catch {
    return 'the certificate key cannot be exported as a JWK';
  }
  if (jwk.kty !== own.kty) return `kty ${JSON.stringify(jwk.kty)} but the certificate key is ${own.kty}`;
  const differing = (MATERIAL[own.kty ?? ''] ?? []).filter((m) => (jwk as Record<string, unknown>)[m] !== own[m]);
  return differing.length ? `${differing.join(', ')} differ` : undefined;
}

/** Findings against a served bundle: defective x509-svid entries, and x5c holding more than the authority certificate. */
export function anchorFindings(bundle: TrustBundle): Finding[] {
  const out = x509Anchors(bundle).ignored.flatMap((e) => (e.rule ? [finding(e.rule, e.reason, `/keys/${e.index}`)] : []));
  for (const [index, key] of (Array.isArray(bundle.keys) ? bundle.keys : []).entries()) {
    if (isObject(key) && key.use === 'x509-svid' && Array.isArray(key.x5c) && key.x5c.length > 1) {
      out.push(
        finding(
          'x5c-one-certificate',
          '§2.6: the bundle holds trust anchors only; intermediates travel with the SVID chain',
          `/keys/${index}/x5c`,
        ),
      );
    }
  }
  return out;
}

/** §4.6 rule 1 and §2.6: a JWK Set with at least one X.509 anchor is accepted; unknown fields are tolerated. */
export function acceptBundle(bundle: unknown): BundleAcceptance {
  if (!isObject(bundle) || !Array.isArray(bundle.keys))
    return { accepted: false, reason: '§2.6: the body is not a JWK Set (no keys array)' };
  const { anchors } = x509Anchors(bundle as TrustBundle);
  if (anchors.length === 0) return { accepted: false, reason: '§4.6 rule 1: the bundle has no X.509 trust anchor (fail closed)' };
  return { accepted: true, anchors };
}

/** §4.6 rules 2, 3, 5: failures and rejections change nothing; acceptance replaces every previous anchor. */
export function applyRetrieval(current: Anchor[] | undefined, retrieval: Retrieval): RetrievalOutcome {
  if (!retrieval.ok)
    return {
      anchors: current,
      changed: false,
      reason: `§4.6 rules 2 and 5: retrieval failed (${retrieval.error}); keeping the current bundle`,
    };
  const verdict = acceptBundle(retrieval.bundle);
  if (!verdict.accepted) return { anchors: current, changed: false, reason: verdict.reason };
  return { anchors: verdict.anchors, changed: true };
}

/** §4.6: an absolute URL with the https scheme and a host; anything else is rejected. */
export function isHttpsUri(uri: string): boolean {
  if (!/^https:\/\/[^/\\?#]/i.test(uri)) return false;
  try {
    const url = new URL(uri);
    return url.protocol === 'https:' && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * §4.6 rule 4: `spiffe_refresh_hint` when present, else the operator interval. The hint's unit is not shown:
 * read as seconds, as in the SPIFFE bundle format. HTTP cache headers are deliberately not an input.
 */
export function refreshDelayMs(bundle: TrustBundle | undefined, operatorIntervalMs: number): number {
  const hint = bundle?.spiffe_refresh_hint;
  return typeof hint === 'number' && Number.isFinite(hint) && hint > 0 ? hint * 1000 : operatorIntervalMs;
}

/** §2.6 spiffe_sequence: an integer that never goes down and goes up whenever the anchor set changes. */
export function sequenceFindings(prev: TrustBundle | undefined, next: TrustBundle): Finding[] {
  const seq = next.spiffe_sequence;
  const path = '/spiffe_sequence';
  if (seq !== undefined && !(Number.isInteger(seq) && seq >= 0)) {
    return [finding('spiffe-sequence-integer', `§2.6: spiffe_sequence is a non-negative integer, got ${JSON.stringify(seq)}`, path)];
  }
  if (!prev) return [];
  const before = prev.spiffe_sequence;
  if (seq !== undefined && typeof before === 'number' && seq < before) {
    return [finding('spiffe-sequence-decreases', `§2.6: spiffe_sequence went from ${before} down to ${seq}`, path)];
  }
  if (sameAnchorSet(prev, next)) return [];
  if (seq === undefined || typeof before !== 'number' || seq <= before) {
    return [
      finding('spiffe-sequence-increases', `§2.6: the anchors changed but spiffe_sequence did not increase (${before} -> ${seq})`, path),
    ];
  }
  return [];
}

function sameAnchorSet(a: TrustBundle, b: TrustBundle): boolean {
  const set = (t: TrustBundle) => [...new Set(x509Anchors(t).anchors.map((x) => x.x5c))].sort().join(' ');
  return set(a) === set(b);
}

/** Reading: the discovery document's trustDomain is the bare name; a `spiffe://name` form is tolerated. */
function bareTrustDomain(trustDomain: string): string {
  return trustDomain.replace(/^spiffe:\/\//i, '').replace(/\/$/, '');
}

/** §2.5: trustDomain a string, trustBundleUri an absolute https URL; unknown fields are ignored. */
export function discoveryFindings(doc: unknown): Finding[] {
  if (!isObject(doc)) return [finding('discovery-document-object', '§2.5: the discovery document is a JSON object')];
  const out: Finding[] = [];
  const { trustDomain, trustBundleUri } = doc;
  if (typeof trustDomain !== 'string' || trustDomain === '') {
    out.push(finding('discovery-trust-domain', '§2.5: trustDomain is a required string', '/trustDomain'));
  } else if (!isTrustDomainName(bareTrustDomain(trustDomain))) {
    out.push(
      finding('trust-domain-name', `§2.5: trustDomain ${JSON.stringify(trustDomain)} is not a SPIFFE trust domain name`, '/trustDomain'),
    );
  }
  if (typeof trustBundleUri !== 'string' || !isHttpsUri(trustBundleUri)) {
    out.push(
      finding(
        'discovery-trust-bundle-uri',
        `§2.5, §4.6: trustBundleUri is an absolute https URL, got ${JSON.stringify(trustBundleUri)}`,
        '/trustBundleUri',
      ),
    );
  }
  return out;
}

/** §4.6 rule 6: a client holding an SVID treats a trust domain other than its own as a configuration error. */
export function trustDomainFindings(discovery: { trustDomain: string }, ownSpiffeId?: string): Finding[] {
  if (ownSpiffeId === undefined) return [];
  const m = /^spiffe:\/\/([^/?#]+)(?:\/[^?#]*)?$/i.exec(ownSpiffeId);
  if (!m) return [finding('spiffe-id', `§4.6 rule 6: the client's own SPIFFE ID ${JSON.stringify(ownSpiffeId)} does not parse`)];
  const own = m[1]!.toLowerCase();
  const served = bareTrustDomain(discovery.trustDomain).toLowerCase();
  if (own === served) return [];
  return [
    finding(
      'trust-domain-mismatch',
      `§4.6 rule 6: discovery names trust domain ${served} but the client's SVID is in ${own} (configuration error)`,
      '/trustDomain',
    ),
  ];
}

/** §4.6 rule 7: a bundle on another origin than the discovery document needs initial-trust material for that origin. */
export function bundleOriginFindings(discoveryUrl: string, trustBundleUri: string, coveredOrigins: string[]): Finding[] {
  const bundleOrigin = originOf(trustBundleUri);
  if (bundleOrigin !== undefined && bundleOrigin === originOf(discoveryUrl)) return [];
  if (bundleOrigin !== undefined && coveredOrigins.map(originOf).includes(bundleOrigin)) return [];
  return [
    finding(
      'bundle-origin-covered',
      `§4.6 rule 7: no initial-trust material covers the bundle origin ${bundleOrigin ?? trustBundleUri}`,
      '/trustBundleUri',
    ),
  ];
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
