// The evidence record of one HTTP request and its answer: what the transport writes and every report shows.

/** One request/response as a suite attaches it for evidence (bodies trimmed, secrets never included). */
export interface Exchange {
  /** Unique per exchange; also sent as the `wfmck-test-id` header when the caller sets a test id. */
  id: string;
  testId?: string;
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  /** UTF-8 text of the body (or `<N bytes binary>`), trimmed to the transcript's limit. */
  requestBody?: string;
  status?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  startedAt: string;
  durationMs: number;
  attempt: number;
  error?: { code: TransportErrorCode; message: string };
  /** Still waiting for the answer when the evidence was taken (its check ran out of time): durationMs is the wait so far. */
  awaiting?: { deadlineMs: number };
}

export type TransportErrorCode =
  | 'WFMCK_E_TIMEOUT'
  | 'WFMCK_E_RESPONSE_TOO_LARGE'
  | 'WFMCK_E_CONNECTION'
  | 'WFMCK_E_TLS'
  /** P10: the server's X.509-SVID is not the WFM's (another SPIFFE ID, or a CA as leaf): every client aborts. */
  | 'WFMCK_E_SERVER_IDENTITY'
  | 'WFMCK_E_PROTOCOL'
  | 'WFMCK_E_ABORTED'
  /** Not sent: the URL (a peer's redirect, Location or realm) is neither a named target nor on loopback. */
  | 'WFMCK_E_UNNAMED_HOST'
  /** Not sent: the server's Retry-After for this request has not passed (P10, RFC 9110 §10.2.3). */
  | 'WFMCK_E_HELD';
