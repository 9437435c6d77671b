// Which WFMCK_E_ code an undici / Node / OpenSSL failure is, keeping the underlying message as evidence.
import type { TransportErrorCode } from './types.ts';
import { ResponseTooLarge, ResponseTruncated } from './limits.ts';

/** What the kit's own check of a server's SPIFFE ID (spiffeIdentityCheck) throws: a code of its own, not a TLS one. */
export const SERVER_IDENTITY_CODE = 'WFMCK_E_SERVER_IDENTITY' satisfies TransportErrorCode;

export interface FailureContext {
  /** The transport's own deadline fired. */
  timedOut: boolean;
  /** The caller's signal aborted. */
  aborted: boolean;
  /** Headers had arrived: a socket failure now is a broken response, not a failed connection. */
  afterHeaders: boolean;
  /** Content-Length of the response, when it had one. */
  announced?: number;
  received: number;
  timeoutMs: number;
}

export interface Failure {
  code: TransportErrorCode;
  message: string;
  /** Safe to send again for an idempotent request: nothing of the answer was taken for one. */
  retryable: boolean;
}

/** X.509 verification results (OpenSSL `X509_V_ERR_*` names as Node reports them). */
const CERTIFICATE_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_REVOKED',
  'CERT_SIGNATURE_FAILURE',
  'INVALID_CA',
  'PATH_LENGTH_EXCEEDED',
  'INVALID_PURPOSE',
  'HOSTNAME_MISMATCH',
]);

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
]);

export function classify(error: unknown, ctx: FailureContext): Failure {
  if (ctx.timedOut) return timeout(ctx, false);
  if (ctx.aborted) return { code: 'WFMCK_E_ABORTED', message: 'request aborted by the caller', retryable: false };
  if (error instanceof ResponseTooLarge) return { code: 'WFMCK_E_RESPONSE_TOO_LARGE', message: error.message, retryable: false };
  if (error instanceof ResponseTruncated) return { code: 'WFMCK_E_PROTOCOL', message: error.message, retryable: false };
  const e = error as { code?: unknown; message?: unknown; name?: unknown; cause?: unknown };
  const code = typeof e?.code === 'string' ? e.code : '';
  const message = typeof e?.message === 'string' ? e.message : String(error);
  const detail = code ? `${code}: ${message}` : message;

  switch (code) {
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return timeout(ctx, false);
    case 'UND_ERR_CONNECT_TIMEOUT':
      return timeout(ctx, true);
    case 'UND_ERR_HEADERS_OVERFLOW':
      return { code: 'WFMCK_E_RESPONSE_TOO_LARGE', message: `response headers too large (${detail})`, retryable: false };
    case 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH':
    case 'UND_ERR_INVALID_ARG':
      return { code: 'WFMCK_E_PROTOCOL', message: detail, retryable: false };
    case 'UND_ERR_ABORTED':
    case 'UND_ERR_ABORT':
      return { code: 'WFMCK_E_ABORTED', message: detail, retryable: false };
    // Sent after the kit closed the transport (a check out of time goes on after its teardown): never the peer's doing.
    case 'UND_ERR_CLOSED':
    case 'UND_ERR_DESTROYED':
      return { code: 'WFMCK_E_ABORTED', message: `not sent: the kit had closed this transport (${detail})`, retryable: false };
  }
  if (code === SERVER_IDENTITY_CODE) return { code: SERVER_IDENTITY_CODE, message: detail, retryable: false };
  if (isTls(code, message)) return { code: 'WFMCK_E_TLS', message: detail, retryable: false };
  if (code.startsWith('HPE_') || e?.name === 'HTTPParserError') {
    return { code: 'WFMCK_E_PROTOCOL', message: `malformed HTTP response: ${message}`, retryable: false };
  }
  if (CONNECTION_CODES.has(code)) {
    if (ctx.afterHeaders && ctx.announced !== undefined && ctx.received < ctx.announced) {
      const truncated = new ResponseTruncated(ctx.announced, ctx.received).message;
      return { code: 'WFMCK_E_PROTOCOL', message: `${truncated} (${detail})`, retryable: true };
    }
    return { code: 'WFMCK_E_CONNECTION', message: detail, retryable: true };
  }
  if (e?.cause !== undefined && e.cause !== error) return classify(e.cause, ctx);
  return { code: 'WFMCK_E_CONNECTION', message: `unexpected transport failure: ${detail}`, retryable: false };
}

function timeout(ctx: FailureContext, connecting: boolean): Failure {
  const what = connecting
    ? 'connecting'
    : ctx.afterHeaders
      ? `reading the body (${ctx.received} bytes so far)`
      : 'waiting for response headers';
  return { code: 'WFMCK_E_TIMEOUT', message: `no complete response within ${ctx.timeoutMs} ms: timed out ${what}`, retryable: connecting };
}

function isTls(code: string, message: string): boolean {
  if (CERTIFICATE_CODES.has(code) || code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || code.startsWith('CERT_')) return true;
  return code === 'EPROTO' && /ssl|tls|certificate|handshake|alert/i.test(message);
}
