// The host a service's URLs name. Usually where it listens; but a wildcard (`wfmck serve --listen 0.0.0.0` in a pod)
// is no host a client can reach, so its URLs (discovery documents, bundle URIs, the printed JSON line) name the first
// `--hostname` (the Service's DNS name), else this machine's loopback.
const WILDCARD = /^(0\.0\.0\.0|::|\[::\])$/;

export const isWildcard = (listen: string): boolean => WILDCARD.test(listen);

/** The URL authority's host part (IPv6 in brackets) for a service listening on `listen`. */
export function urlHostPart(listen: string, hostnames: readonly string[] = []): string {
  const host = isWildcard(listen) ? (hostnames[0] ?? (listen.includes(':') ? '::1' : '127.0.0.1')) : listen;
  return host.includes(':') ? `[${host}]` : host;
}
