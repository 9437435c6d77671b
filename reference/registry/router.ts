// Maps a request path to a registry endpoint. Names may hold slashes (`acme/apps/hello`), so the path is read
// from the right: the endpoint suffix is fixed and everything before it is the repository name.

export type EndpointKind = 'base' | 'uploads' | 'upload' | 'blob' | 'manifest' | 'tags' | 'referrers';

export interface Endpoint {
  kind: EndpointKind;
  /** Raw name; validated by the handler so a bad one is a 400 NAME_INVALID, not a 404. */
  name: string;
  param: string;
}

const SUFFIXES: readonly (readonly [RegExp, EndpointKind])[] = [
  [/^(.+)\/tags\/list$/, 'tags'],
  [/^(.+)\/manifests\/([^/]+)$/, 'manifest'],
  [/^(.+)\/referrers\/([^/]+)$/, 'referrers'],
  [/^(.+)\/blobs\/uploads\/?$/, 'uploads'],
  [/^(.+)\/blobs\/uploads\/([^/]+)$/, 'upload'],
  [/^(.+)\/blobs\/([^/]+)$/, 'blob'],
];

/** Methods each endpoint answers; anything else is a 405 with this list in `Allow`. */
export const METHODS: Record<EndpointKind, readonly string[]> = {
  base: ['GET', 'HEAD'],
  uploads: ['POST'],
  upload: ['GET', 'PATCH', 'PUT', 'DELETE'],
  blob: ['GET', 'HEAD', 'DELETE'],
  manifest: ['GET', 'HEAD', 'PUT', 'DELETE'],
  tags: ['GET'],
  referrers: ['GET'],
};

export function splitTarget(url: string): { path: string; query: URLSearchParams } {
  const q = url.indexOf('?');
  return q < 0 ? { path: url, query: new URLSearchParams() } : { path: url.slice(0, q), query: new URLSearchParams(url.slice(q + 1)) };
}

/** The endpoint for `path`, or undefined when no endpoint has that shape. */
export function matchEndpoint(path: string): Endpoint | undefined {
  if (path === '/v2/' || path === '/v2') return { kind: 'base', name: '', param: '' };
  if (!path.startsWith('/v2/')) return undefined;
  const rest = path.slice('/v2/'.length);
  for (const [re, kind] of SUFFIXES) {
    const m = re.exec(rest);
    if (!m) continue;
    const param = decodeParam(m[2] ?? '');
    return param === undefined ? undefined : { kind, name: m[1]!, param };
  }
  return undefined;
}

/** Digests may arrive with `:` percent-encoded; a malformed escape matches nothing. */
function decodeParam(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}
