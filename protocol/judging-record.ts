// Judging mode (persona device): what the kit's WFM records of each client it judges, and the negative fixtures it
// serves on request. The shared record between the reference services that keep it and the suites that judge it.

export interface RecordedExchange {
  /** Order of arrival across all clients. */
  seq: number;
  at: string;
  /** keyid (seed) or SPIFFE ID (miaf); absent for an unsigned request (the Certificate API, or a client that forgot). */
  who?: string;
  /**
   * The TCP connection it came over (remote address and port, and the connection's number: the OS reuses a port once
   * it is closed, for another client): attributes unsigned requests to a signed neighbour.
   */
  conn: string;
  method: string;
  /** Path and query as received. */
  target: string;
  /** The headers a judgement reads (signature, digest, conditional and content headers). */
  headers: Record<string, string>;
  /** UTF-8 request body, up to MAX_BODY bytes. */
  body?: string;
  status: number;
  /** UTF-8 response body, up to MAX_BODY bytes. */
  responseBody?: string;
  /** The answer's ETag (P4: a poll that revalidates names the one of the last state manifest it got). */
  responseEtag?: string;
  /** The TLS version of its connection (TLSv1.3, TLSv1.2), when it came over TLS. */
  tls?: string;
  /** The HTTP version of the request line (1.1, 1.0). */
  http?: string;
}

/**
 * The negative fixtures a device client must refuse (persona device), set by assignDeployment's `defect`:
 * yaml-digest, its URL serves other bytes than the digest names; bundle-digest, its URL answers 404 and the bundle's
 * bytes are not those its digest names; bundle-extra-file, the same 404 and a bundle holding a file that is no
 * deployment; version-repeats and version-goes-down, the manifest carrying it reuses or lowers manifestVersion.
 */
export const DEPLOYMENT_DEFECTS = ['yaml-digest', 'bundle-digest', 'bundle-extra-file', 'version-repeats', 'version-goes-down'] as const;
export type DeploymentDefect = (typeof DEPLOYMENT_DEFECTS)[number];
