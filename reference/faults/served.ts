// Rewrites of served JSON documents for response faults, and for the registry ones that keep digests consistent, so a
// fault breaks a package or compose rule and not, by accident, the digest rules: a manifest edited when pulled by tag
// gets its new Docker-Content-Digest, and a swapped layer is named by the new bytes' digest, which the blob route serves.
import { sha256Digest } from '../registry/grammar.ts';
import type { AnswerView, Rewrite } from './rewrite.ts';

export type Json = Record<string, unknown>;

const MANIFEST = /^\/v2\/(.+)\/manifests\/([^/]+)$/;
const BLOB = /^\/v2\/(.+)\/blobs\/([^/]+)$/;
const TAGS = /^\/v2\/(.+)\/tags\/list$/;
const DESCRIPTION_LAYER = /\.app\.description\.v1\+yaml$/;
const COMPOSE_LAYER = /\.component\.compose\.tar\+gzip$/;

export function layersOf(m: Json): Json[] {
  return Array.isArray(m.layers) ? m.layers.filter((l): l is Json => typeof l === 'object' && l !== null) : [];
}

export function annotationsOf(d: Json): Record<string, string> {
  if (typeof d.annotations !== 'object' || d.annotations === null) d.annotations = {};
  return d.annotations as Record<string, string>;
}

export const isAppPackage = (m: Json): boolean => layersOf(m).some((l) => DESCRIPTION_LAYER.test(String(l.mediaType)));
export const isComposeComponent = (m: Json): boolean => layersOf(m).some((l) => COMPOSE_LAYER.test(String(l.mediaType)));
export const isDescriptionLayer = (l: Json): boolean => DESCRIPTION_LAYER.test(String(l.mediaType));
export const isComposeLayer = (l: Json): boolean => COMPOSE_LAYER.test(String(l.mediaType));

/** The JSON object of a 200 answer, or undefined. */
export function jsonBody(a: AnswerView): Json | undefined {
  if (a.status !== 200) return undefined;
  try {
    const doc: unknown = JSON.parse(a.body.toString('utf8'));
    return typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? (doc as Json) : undefined;
  } catch {
    return undefined;
  }
}

/** The repository and reference of a GET of a manifest by tag (a digest reference is left alone: its bytes are fixed). */
function manifestByTag(a: AnswerView): { name: string; tag: string } | undefined {
  const m = a.method === 'GET' ? MANIFEST.exec(a.url.split('?')[0]!) : null;
  const tag = m ? decodeURIComponent(m[2]!) : '';
  return m && !tag.includes(':') ? { name: m[1]!, tag } : undefined;
}

/** Serves `doc` as the manifest answer, with the digest header of its new bytes. */
export function serveManifest(a: AnswerView, doc: Json): AnswerView {
  const body = Buffer.from(JSON.stringify(doc));
  return { ...a, headers: { ...a.headers, 'docker-content-digest': sha256Digest(body) }, body };
}

/** Edits the manifests `select` picks when pulled by tag; `change` edits in place (false: leave this one). */
export function editManifest(
  select: (m: Json) => boolean,
  change: (m: Json, at: { name: string; tag: string }) => boolean | void,
): Rewrite {
  return (a) => {
    const at = manifestByTag(a);
    const doc = at && jsonBody(a);
    if (!at || !doc || !select(doc) || change(doc, at) === false) return undefined;
    return serveManifest(a, doc);
  };
}

/** Edits the JSON object of a 200 GET answer whose path matches. */
export function editJson(path: RegExp, change: (doc: Json) => void): Rewrite {
  return (a) => {
    const doc = a.method === 'GET' && path.test(a.url.split('?')[0]!) ? jsonBody(a) : undefined;
    if (!doc) return undefined;
    change(doc);
    return { ...a, body: Buffer.from(JSON.stringify(doc)) };
  };
}

/** Edits the tag list document of every repository. */
export const editTagList = (change: (doc: Json) => void): Rewrite => editJson(TAGS, change);

/**
 * Serves `bytes(...)` instead of the layers `layer` picks in manifests `select` picks (pulled by tag): the manifest
 * names their digest and size, and a GET of that digest answers them. The swapped bytes are this rewrite's, so one
 * registry instance serves what it swapped.
 */
export function swapLayer(
  select: (m: Json) => boolean,
  layer: (l: Json) => boolean,
  bytes: (l: Json, at: { name: string; tag: string }, m: Json) => Buffer,
): Rewrite {
  const swapped = new Map<string, Buffer>();
  const manifest = editManifest(select, (m, at) => {
    const picked = layersOf(m).filter(layer);
    for (const l of picked) {
      const body = bytes(l, at, m);
      const digest = sha256Digest(body);
      swapped.set(digest, body);
      Object.assign(l, { digest, size: body.length });
    }
    return picked.length > 0;
  });
  return (a) => manifest(a) ?? serveSwapped(a, swapped);
}

/** The blob route does not know a swapped digest (404): answer it with the swapped bytes. */
function serveSwapped(a: AnswerView, swapped: ReadonlyMap<string, Buffer>): AnswerView | undefined {
  const m = a.method === 'GET' && a.status === 404 ? BLOB.exec(a.url.split('?')[0]!) : null;
  const digest = m ? decodeURIComponent(m[2]!) : '';
  const body = swapped.get(digest);
  if (!body) return undefined;
  return {
    ...a,
    status: 200,
    headers: { ...a.headers, 'content-type': 'application/octet-stream', 'docker-content-digest': digest },
    body,
  };
}

/** Every answer of a GET of a blob with status 200. */
export function onBlob(rewrite: Rewrite): Rewrite {
  return (a) => (a.method === 'GET' && a.status === 200 && BLOB.test(a.url.split('?')[0]!) ? rewrite(a) : undefined);
}
