// The registry's answer-shaping decisions as small pure functions. A faulty variant (tag pages that ignore
// `last`, a blob digest check that lets anything through...) replaces one of them through
// `createRegistryHandler(store, { decisions })` instead of rewriting a route.
import { sha256Digest } from './grammar.ts';
import type { ManifestRecord } from './store.ts';

export interface TagPage {
  tags: string[];
  /** Present when tags remain after this page: the query of the `Link: rel="next"` request. */
  next?: { n: number; last: string };
}

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  artifactType?: string;
  annotations?: Record<string, string>;
}

/** One entry of a token's `access` claim (distribution token spec): `{type: "repository", name, actions}`. */
export interface Access {
  type: string;
  name: string;
  actions: string[];
}

export interface RegistryDecisions {
  /** One page of the sorted tag list: tags strictly after `last`, at most `n` of them. */
  pageTags(sorted: readonly string[], n: number | undefined, last: string | undefined): TagPage;
  /** Whether a stored manifest is served to a request with this `Accept` header (else 404 MANIFEST_UNKNOWN). */
  serveManifest(accept: string | undefined, mediaType: string): boolean;
  /** Whether uploaded bytes match the digest the client named. */
  digestMatches(parts: readonly Buffer[], digest: string): boolean;
  /** The descriptor of a referrer in the referrers API's image index. */
  referrerDescriptor(record: ManifestRecord): Descriptor;
  /** The tags a manifest pushed under `tag` is stored under (a faulty registry adds its own, such as `latest`). */
  tagsOnPush(tag: string): string[];
  /** Whether a verified token's access (undefined: no valid token) lets its holder `action` on repository `name`. */
  grantsAccess(access: readonly Access[] | undefined, name: string, action: string): boolean;
}

export function pageTags(sorted: readonly string[], n: number | undefined, last: string | undefined): TagPage {
  // `>` on strings is the same code-unit order the store sorts with.
  const after = last === undefined ? sorted : sorted.filter((tag) => tag > last);
  if (n === undefined) return { tags: [...after] };
  const tags = after.slice(0, n);
  // n=0 MUST be an empty list without a Link header.
  if (n === 0 || after.length <= n) return { tags };
  return { tags, next: { n, last: tags[tags.length - 1]! } };
}

/**
 * Content negotiation: we always serve the stored manifest, whatever `Accept` says.
 * - No `Accept`: the OCI spec makes the header a client SHOULD ("The client SHOULD include an Accept header"),
 *   says "A GET request to an existing manifest URL MUST provide the expected manifest, with a response code
 *   that MUST be 200 OK", and defers negotiation to RFC 7231, whose §5.3.2 reads "A request without any Accept
 *   header field implies that the user agent will accept any media type in response". So 200; a 404 here
 *   (which some registries answer) reports an existing manifest as absent, against that MUST.
 * - An `Accept` that does not list the stored type: RFC 7231 §5.3.2 lets the server either answer 406 or
 *   "disregard the header field by treating the response as if it is not subject to content negotiation".
 *   The registry MUST keep the exact pushed bytes and has no other representation to convert to, so we
 *   disregard it; the client sees the real type in `Content-Type` and decides.
 */
export function serveManifest(_accept: string | undefined, _mediaType: string): boolean {
  return true;
}

export function digestMatches(parts: readonly Buffer[], digest: string): boolean {
  return sha256Digest(parts) === digest;
}

/** Spec "Listing Referrers": artifactType from the manifest, else an image manifest's config mediaType; annotations copied. */
export function referrerDescriptor(record: ManifestRecord): Descriptor {
  const descriptor: Descriptor = { mediaType: record.mediaType, digest: record.digest, size: record.bytes.length };
  if (record.artifactType) descriptor.artifactType = record.artifactType;
  if (record.annotations) descriptor.annotations = record.annotations;
  return descriptor;
}

export function tagsOnPush(tag: string): string[] {
  return [tag];
}

/** Access control: the token must name this very repository and action; a token for another scope opens nothing. */
export function grantsAccess(access: readonly Access[] | undefined, name: string, action: string): boolean {
  return (access ?? []).some((a) => a.type === 'repository' && a.name === name && a.actions.includes(action));
}

export const defaultDecisions: RegistryDecisions = { pageTags, serveManifest, digestMatches, referrerDescriptor, tagsOnPush, grantsAccess };
