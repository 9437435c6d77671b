// P4 desired state: the state manifest sequence a WFM serves, content digests and If-None-Match.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { StateManifest } from '../types.ts';
import type { TarEntry } from './compose-archive.ts';
import { finding, type Finding } from './finding.ts';
import { checkVersionSequence, manifestVersionFindings } from './manifest-version.ts';

/** OCI-registered digest algorithms and the length of their lowercase hex encoding. */
const DIGEST_HEX_LENGTH: Record<string, number> = { sha256: 64, sha512: 128 };

/**
 * §2.4.1 rule 7 with P4. Reading: re-serving the same manifestVersion is fine only with identical content
 * (same bundle and the same set of deployments, key and array order ignored); a changed manifest needs a
 * strictly greater version; a greater version with unchanged content is allowed; a lower one never is.
 */
export function judgeStateManifestSequence(prev: StateManifest | undefined, next: StateManifest): Finding[] {
  const own = manifestVersionFindings(next.manifestVersion);
  if (!prev || own.length > 0) return own;
  if (prev.manifestVersion === next.manifestVersion && sameContent(prev, next)) return [];
  const ofNext = checkVersionSequence([prev.manifestVersion, next.manifestVersion]).filter((f) => f.path === '/1');
  return ofNext.map((f) => ({
    ...f,
    message: `${f.message} (previous manifest ${prev.manifestVersion}, content ${sameContent(prev, next) ? 'unchanged' : 'changed'})`,
    path: '/manifestVersion',
  }));
}

/** Same bundle and same deployments, ignoring key order and the order of `deployments`. */
export function sameContent(a: StateManifest, b: StateManifest): boolean {
  return canonical(contentOf(a)) === canonical(contentOf(b));
}

function contentOf(m: StateManifest): unknown {
  const deployments = [...(m.deployments ?? [])].map(canonical).sort();
  return { bundle: m.bundle ?? null, deployments };
}

/** JSON with object keys sorted at every depth, so equal documents compare equal as strings. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** P4: `<algorithm>:<lowercase hex>` over the exact bytes. */
export function digestOf(bytes: Uint8Array, alg = 'sha256'): string {
  if (!(alg in DIGEST_HEX_LENGTH)) throw new Error(`unsupported digest algorithm ${alg}`);
  return `${alg}:${createHash(alg).update(bytes).digest('hex')}`;
}

/** True when `digest` is a well-formed sha256/sha512 digest (lowercase hex, right length) of `bytes`. */
export function verifyDigest(bytes: Uint8Array, digest: string): boolean {
  const m = /^([a-z0-9]+):([0-9a-f]+)$/.exec(digest);
  if (!m || DIGEST_HEX_LENGTH[m[1]!] !== m[2]!.length) return false;
  const expected = Buffer.from(digestOf(bytes, m[1]!));
  const given = Buffer.from(digest);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * RFC 9110 §13.1.2 If-None-Match: `*`, or a list of entity-tags compared weakly (W/ ignored on both sides).
 * `etag` is the current ETag as sent (`"x"` or `W/"x"`); a bare value is read as the opaque tag itself.
 */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const current = opaqueTag(etag.trim()) ?? etag.trim();
  return parseEntityTags(ifNoneMatch).includes(current);
}

/** The opaque-tags of a comma-separated entity-tag list; malformed members are skipped. */
export function parseEntityTags(list: string): string[] {
  const tags: string[] = [];
  let i = 0;
  while (i < list.length) {
    while (i < list.length && (list[i] === ',' || list[i] === ' ' || list[i] === '\t')) i++;
    if (i >= list.length) break;
    if (list.startsWith('W/', i)) i += 2;
    const end = list[i] === '"' ? list.indexOf('"', i + 1) : -1;
    if (end === -1) {
      // Not an entity-tag: skip to the next comma (etagc excludes DQUOTE, so a comma outside quotes separates).
      const comma = list.indexOf(',', i);
      i = comma === -1 ? list.length : comma + 1;
      continue;
    }
    tags.push(list.slice(i + 1, end));
    i = end + 1;
  }
  return tags;
}

function opaqueTag(etag: string): string | undefined {
  const m = /^(?:W\/)?"([^"]*)"$/.exec(etag);
  return m ? m[1] : undefined;
}

/**
 * P4: a deployment bundle is a gzip tar holding exactly the deployment YAML files of its state manifest. Files are
 * matched by digest (P4 names no file names): a finding for each entry that is no referenced YAML (or not a regular
 * file), and for each referenced deployment whose YAML is not in it.
 */
export function bundleContentFindings(
  entries: readonly TarEntry[],
  deployments: readonly { deploymentId: string; digest: string }[],
): Finding[] {
  const wanted = new Map(deployments.map((d) => [d.digest.toLowerCase(), d.deploymentId]));
  const found = new Set<string>();
  const out: Finding[] = [];
  for (const e of entries) {
    if (e.type === 'directory' || e.type === 'pax-header' || e.type === 'pax-global-header') continue;
    const digest = (e.type === 'file' || e.type === 'contiguous-file') && e.content ? digestOf(e.content) : undefined;
    if (digest === undefined || !wanted.has(digest))
      out.push(finding('bundle-extra-entry', `P4: ${e.name} is no deployment YAML of the state manifest`, `/${e.name}`));
    else found.add(digest);
  }
  for (const [digest, id] of wanted)
    if (!found.has(digest))
      out.push(finding('bundle-missing-deployment', `P4: the YAML of deployment ${id} (${digest}) is not in the bundle`));
  return out;
}

/** The bytes of the bundle entry whose digest is `digest`, if one is. */
export function bundleEntryBytes(entries: readonly TarEntry[], digest: string): Uint8Array | undefined {
  return entries.find(
    (e) => (e.type === 'file' || e.type === 'contiguous-file') && e.content && verifyDigest(e.content, digest.toLowerCase()),
  )?.content;
}
