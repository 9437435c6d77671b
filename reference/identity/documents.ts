// The identity role's two documents (interfaces.md §2.5, §2.6) as exact bytes with strong entity tags.
import { createHash } from 'node:crypto';
import type { BundleJwk, DiscoveryDocument, TrustBundle } from '../../spec/types.ts';

export interface Representation {
  body: Buffer;
  /** Strong ETag: the quoted SHA-256 of exactly `body`. */
  etag: string;
}

/** Where the bundle of a trust domain lives on the identity origin (the one place this path is chosen). */
export function bundlePath(trustDomain: string): string {
  return `/bundle/${encodeURIComponent(trustDomain)}.json`;
}

export function discoveryDocument(trustDomain: string, trustBundleUri: string): DiscoveryDocument {
  return { trustDomain, trustBundleUri };
}

/** spiffe_refresh_hint is in seconds, as in the SPIFFE bundle format (interfaces.md leaves the unit unshown). */
export function trustBundle(sequence: number, refreshHintSeconds: number, keys: BundleJwk[]): TrustBundle {
  return { spiffe_sequence: sequence, spiffe_refresh_hint: refreshHintSeconds, keys };
}

/** Callers build documents with a fixed key order, so the same state always gives the same bytes and tag. */
export function represent(document: DiscoveryDocument | TrustBundle): Representation {
  const body = Buffer.from(JSON.stringify(document));
  return { body, etag: `"sha256:${createHash('sha256').update(body).digest('hex')}"` };
}
