// The kit's own HTTP requests outside its transport (the reference WFM pulling a package, asking a registry for a
// token): fetch held to the network policy at every hop (spec/network-policy.ts; the reference services name no
// targets, so for them that is loopback). Redirects are followed by hand, only for GET and HEAD (the OCI spec lets
// blob GETs redirect), at most MAX_REDIRECTS, and a hop the policy refuses is refused before any socket.
import { mayContact, refusal, UNNAMED_HOST } from '../spec/network-policy.ts';

export const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A request the network policy refused: the URL came from a peer (a redirect, a Location, a realm). */
export class UnnamedHostError extends Error {
  readonly code = UNNAMED_HOST;
  constructor(
    readonly url: string,
    why: string,
  ) {
    super(`${why}: ${url}: ${refusal(new URL(url).hostname)}`);
  }
}

/** Throws UnnamedHostError unless `url` is an http(s) URL the policy lets the kit contact. */
export function assertMayContact(url: string | URL, why: string): URL {
  const parsed = new URL(url);
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !mayContact(parsed.hostname))
    throw new UnnamedHostError(parsed.href, why);
  return parsed;
}

export async function loopbackFetch(input: string | URL, init: RequestInit = {}): Promise<Response> {
  const method = (init.method ?? 'GET').toUpperCase();
  let url = assertMayContact(input, 'request');
  for (let hop = 0; ; hop++) {
    const res = await fetch(url, { ...init, redirect: 'manual' });
    const location = res.headers.get('location');
    if (!REDIRECTS.has(res.status) || !location || (method !== 'GET' && method !== 'HEAD') || hop >= MAX_REDIRECTS) return res;
    await res.body?.cancel();
    url = assertMayContact(new URL(location, url), `redirect from ${url.href}`);
  }
}
