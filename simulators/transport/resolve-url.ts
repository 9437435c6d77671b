// A request's URL resolved against its transport's base URL. The WHATWG parser (new URL) costs ~2.7 µs a request in
// a fleet's profile; a fleet's own requests are absolute paths of plain characters against one base, which the parser
// leaves as they are: for those, the base's origin and the path are the answer (test/simulators/resolve-url.test.ts
// holds the two to the same result).

export interface ResolvedUrl {
  href: string;
  /** As undici's dispatch takes them. */
  origin: string;
  path: string;
  hostname: string;
}

/** A transport's base URL, read once when the transport is made. */
export interface BaseUrl {
  text: string;
  /** The parts the shortcut needs; null for a base with userinfo (kept in every href), not http(s), or unreadable. */
  shortcut: { origin: string; hostname: string } | null;
}

/** An absolute path of unreserved characters, sub-delims, ':' and '@': nothing the parser encodes or rewrites. */
const PLAIN_PATH = /^\/(?!\/)[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;
/** A '.' or '..' segment, which the parser removes. */
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;

export function baseUrlOf(text: string | undefined): BaseUrl | undefined {
  if (text === undefined) return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(text);
  } catch {
    // Left to each request's own parse, which fails as it always did.
    parsed = undefined;
  }
  const plain = parsed && (parsed.protocol === 'http:' || parsed.protocol === 'https:') && !parsed.username && !parsed.password;
  return { text, shortcut: plain ? { origin: parsed!.origin, hostname: parsed!.hostname } : null };
}

export function resolveUrl(url: string, base: BaseUrl | undefined): ResolvedUrl {
  const shortcut = base?.shortcut;
  if (shortcut && PLAIN_PATH.test(url) && !DOT_SEGMENT.test(url))
    return { href: shortcut.origin + url, origin: shortcut.origin, path: url, hostname: shortcut.hostname };
  const parsed = base === undefined ? new URL(url) : new URL(url, base.text);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TypeError(`not an http(s) URL: ${url}`);
  return { href: parsed.href, origin: parsed.origin, path: parsed.pathname + parsed.search, hostname: parsed.hostname };
}
