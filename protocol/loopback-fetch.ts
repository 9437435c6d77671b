// The kit's own HTTP requests outside its transport (the reference WFM pulling a package, asking a registry for a
// token): fetch held to the loopback rule at every hop. Redirects are followed by hand, only for GET and HEAD (the
// OCI spec lets blob GETs redirect), at most MAX_REDIRECTS, and a hop to another host is refused before any socket.
import { isLoopbackHost, offLoopback } from '../spec/loopback.ts';

export const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A request the loopback rule refused: the URL came from a peer (a redirect, a Location, a realm). */
export class OffLoopbackError extends Error {
  readonly code = 'WFMCK_E_NOT_LOOPBACK';
  constructor(
    readonly url: string,
    why: string,
  ) {
    super(`${why}: ${offLoopback(url)}`);
  }
}

/** Throws OffLoopbackError unless `url` is an http(s) URL on a loopback host. */
export function assertLoopback(url: string | URL, why: string): URL {
  const parsed = new URL(url);
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !isLoopbackHost(parsed.hostname))
    throw new OffLoopbackError(parsed.href, why);
  return parsed;
}

export async function loopbackFetch(input: string | URL, init: RequestInit = {}): Promise<Response> {
  const method = (init.method ?? 'GET').toUpperCase();
  let url = assertLoopback(input, 'request');
  for (let hop = 0; ; hop++) {
    const res = await fetch(url, { ...init, redirect: 'manual' });
    const location = res.headers.get('location');
    if (!REDIRECTS.has(res.status) || !location || (method !== 'GET' && method !== 'HEAD') || hop >= MAX_REDIRECTS) return res;
    await res.body?.cancel();
    url = assertLoopback(new URL(location, url), `redirect from ${url.href}`);
  }
}
