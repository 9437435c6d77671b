// The kit's one network policy: it sends traffic to the hosts the user names as targets (flag, env, YAML) and to
// loopback, nowhere else. Whatever a target makes the kit contact (a redirect, an upload Location, a token realm, a
// bundle, deployment or discovery URL) must stay within those hosts, because a peer must never aim the kit's hostile
// inputs and load at a third party. Each process that sends traffic (the CLI, every Playwright worker) names the
// targets it was given with nameTargets before its first request; a process that names none (the reference services)
// stays on loopback. In spec/ because every layer checks it the same way.
import { isLoopbackHost } from './loopback.ts';

/** The policy in the words every refusal uses, wherever it is made (a redirect, a Location, a realm, a component). */
export const POLICY_RULE = 'the kit sends traffic only to the hosts you name and to loopback';

/** Error code of a request the policy refused: the host is neither a named target nor on loopback. */
export const UNNAMED_HOST = 'WFMCK_E_UNNAMED_HOST';

const named = new Set<string>();

/** `[::1]` and `::1`, `Example.COM` and `example.com` are one host. */
function bare(host: string): string {
  return host.replace(/^\[|\]$/g, '').toLowerCase();
}

/** The host of a URL (or of `host[:port]`), as the policy compares it. */
export function hostOf(target: string | URL): string {
  const text = String(target);
  return bare(new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`).hostname);
}

/** Names the hosts of these target URLs for this process (undefined entries are skipped); returns the hosts named. */
export function nameTargets(targets: Iterable<string | URL | undefined>): string[] {
  const hosts: string[] = [];
  for (const t of targets) if (t !== undefined) hosts.push(hostOf(t));
  for (const h of hosts) named.add(h);
  return hosts;
}

/** The hosts named so far: a fleet's worker processes are told them, so they contact what the command may. */
export function namedTargets(): string[] {
  return [...named];
}

/** Forgets every named host (tests only: a process otherwise keeps its targets for its whole life). */
export function forgetNamedTargets(): void {
  named.clear();
}

export function isNamedHost(host: string): boolean {
  return named.has(bare(host));
}

/** True when the policy lets the kit contact `host`: a named target, or loopback. */
export function mayContact(host: string): boolean {
  return isLoopbackHost(host) || isNamedHost(host);
}

/** Why `host` is refused: one wording for the transport, the kit's fetch, fleets, lint and publish. */
export function refusal(host: string): string {
  return `${host} is neither a named target nor on loopback; ${POLICY_RULE}`;
}

/** A URL the user names as a target: absolute http(s), on any host; else an Error whose message names `what`. */
export function parseTargetUrl(text: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`${what}: "${text}" is not an absolute URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`${what}: "${text}" is not an http(s) URL`);
  return url;
}

/** The one notice of a run or fleet whose targets are not all on loopback: where its hostile inputs and load go. */
export function remoteNotice(hosts: readonly string[]): string | undefined {
  const remote = [...new Set(hosts.filter((h) => !isLoopbackHost(h)))];
  if (remote.length === 0) return undefined;
  return `notice: ${remote.join(', ')} ${remote.length === 1 ? 'is' : 'are'} not on loopback: the kit sends hostile inputs (malformed, oversized and badly signed requests) and load there; name only services you may test`;
}
