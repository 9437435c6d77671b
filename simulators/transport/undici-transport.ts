// The real transport: undici over one keep-alive Agent, every exchange bounded in time and size, retried only when
// the caller says it is idempotent, and recorded (redacted, trimmed) whatever happens.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Agent, type Dispatcher } from 'undici';
import { mayContact, refusal, UNNAMED_HOST } from '../../spec/network-policy.ts';
import { classify } from './classify.ts';
import { spiffeIdentityCheck, type SpiffeCheckLeniency } from './spiffe-identity-check.ts';
import { DEFAULT_TRIM_BYTES, redactHeaders, redactUrl, renderBody } from '../../protocol/evidence.ts';
import { addDeadline, removeDeadline } from './deadlines.ts';
import { ExchangeHandler } from './exchange-handler.ts';
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS } from './limits.ts';
import { baseUrlOf, resolveUrl, type BaseUrl } from './resolve-url.ts';
import { httpResponse } from './response.ts';
import { DEFAULT_RETRY, RETRYABLE_STATUSES, mayRetry, nextDelayMs, retryAfterMs, sleep, type RetryPolicy } from './retry.ts';
import { signRequest } from '../../protocol/signing.ts';
import { lookup } from '../../protocol/pinned-lookup.ts';
import type { Transcript } from './transcript.ts';
import { TransportError, type Exchange, type HttpResponse, type RequestOptions, type Transport, type TransportErrorCode } from './types.ts';

/** Sent on every request of a transport with a test id, so a vendor can find the kit's requests in their logs. */
export const TEST_ID_HEADER = 'wfmck-test-id';

export interface SharedAgentOptions {
  /** PEM trust anchors for the servers; default: Node's bundled roots. */
  ca?: string | string[];
  /** mTLS (profiles.md P3 `mtls`, P10): the certificate chain (leaf first) and key. */
  clientCert?: { cert: string; key: string };
  /** P10: the server is this SPIFFE ID (its certificate's one URI SAN), never a DNS name or IP address. */
  serverSpiffeId?: string;
  /** What the SPIFFE ID check overlooks (the kit's faulty client only). */
  serverLeniency?: SpiffeCheckLeniency;
  /** Accept a server chain the TLS stack refuses (an expired SVID): the kit's faulty client only. */
  acceptUnverifiedServer?: boolean;
  /** The highest TLS version offered (the kit's faulty client only: TLS 1.2 where P10 asks for 1.3). */
  maxTlsVersion?: 'TLSv1.2' | 'TLSv1.3';
  /** P10: a loopback source address to connect from (fleets spread one connection per device over several). */
  localAddress?: string;
  /** Sockets per origin; default undici's (no limit) for one transport, 128 for a shared agent. */
  connections?: number;
  connectTimeoutMs?: number;
  keepAliveTimeoutMs?: number;
}

export interface TransportOptions extends SharedAgentOptions {
  /** Relative request URLs resolve against it. */
  baseUrl?: string;
  /** A shared Agent/Pool for fleets; when given, ca/clientCert/connections are its business and close() leaves it open. */
  dispatcher?: Dispatcher;
  /** Whole exchange, body included; default 10 s. */
  timeoutMs?: number;
  /** Default 1 MiB. */
  maxResponseBytes?: number;
  transcript?: Transcript;
  testId?: string;
  retry?: RetryPolicy;
  /**
   * A 429 or 503 with Retry-After holds that request (method and URL) until the time it names: sent again earlier, it
   * fails at once with WFMCK_E_HELD, and the transport's own retries never come sooner (default true; P10).
   */
  honourRetryAfter?: boolean;
}

export interface UndiciTransport extends Transport {
  readonly baseUrl: string | undefined;
  readonly transcript: Transcript | undefined;
  /** The same connections, transcript and limits, with another `wfmck-test-id`; its close() leaves them open. */
  forTest(testId: string): UndiciTransport;
}

/** One keep-alive Agent for many transports (a fleet of thousands shares its sockets); pipelining stays at 1. */
export function createSharedAgent(opts: SharedAgentOptions = {}): Agent {
  return makeAgent(opts, opts.connections ?? 128);
}

function makeAgent(opts: SharedAgentOptions, connections: number | undefined): Agent {
  return new Agent({
    pipelining: 1,
    keepAliveTimeout: opts.keepAliveTimeoutMs ?? 4_000,
    ...(connections !== undefined ? { connections } : {}),
    connect: {
      ...(opts.ca !== undefined ? { ca: opts.ca } : {}),
      ...(opts.clientCert ? { cert: opts.clientCert.cert, key: opts.clientCert.key } : {}),
      ...(opts.serverSpiffeId !== undefined && { checkServerIdentity: spiffeIdentityCheck(opts.serverSpiffeId, opts.serverLeniency) }),
      ...(opts.acceptUnverifiedServer && { rejectUnauthorized: false }),
      ...(opts.maxTlsVersion && { maxVersion: opts.maxTlsVersion }),
      ...(opts.localAddress !== undefined && { localAddress: opts.localAddress }),
      // --resolve: a pinned name connects to its address; SNI and the certificate check keep the name.
      lookup,
      timeout: opts.connectTimeoutMs ?? 5_000,
    },
  });
}

interface Config {
  /** The base URL, read once for every request's resolution. */
  base: BaseUrl | undefined;
  dispatcher: Dispatcher;
  timeoutMs: number;
  maxResponseBytes: number;
  transcript: Transcript | undefined;
  testId: string | undefined;
  retry: RetryPolicy;
  /** Not-before times (epoch ms) by `METHOD url`, from Retry-After; absent when the transport ignores it. */
  holds: Map<string, number> | undefined;
}

/** A Retry-After further away than this is read as this (a hostile server cannot hold a request for ever). */
const MAX_HOLD_MS = 3_600_000;

export function createTransport(opts: TransportOptions = {}): UndiciTransport {
  const owned = opts.dispatcher ? undefined : makeAgent(opts, opts.connections);
  const config: Config = {
    base: baseUrlOf(opts.baseUrl),
    dispatcher: opts.dispatcher ?? owned!,
    timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxResponseBytes: opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    transcript: opts.transcript,
    testId: opts.testId,
    retry: opts.retry ?? DEFAULT_RETRY,
    holds: opts.honourRetryAfter === false ? undefined : new Map(),
  };
  return transportOf(config, async () => {
    await owned?.close();
  });
}

function transportOf(config: Config, close: () => Promise<void>): UndiciTransport {
  return {
    baseUrl: config.base?.text,
    transcript: config.transcript,
    request: (opts) => send(config, opts),
    close,
    forTest: (testId) => transportOf({ ...config, testId }, async () => undefined),
  };
}

const retryable = new WeakSet<TransportError>();

async function send(config: Config, opts: RequestOptions): Promise<HttpResponse> {
  const method = opts.method.toUpperCase();
  const resolved = resolveUrl(opts.url, config.base);
  const url = resolved.href;
  const { headers, body } = prepare(opts, config.testId);
  const retrying = mayRetry(method, opts.retry);
  refuseUnnamed(config, method, url, resolved.hostname);
  held(config, method, url);
  let last: Exchange | undefined;
  for (let attempt = 1; ; attempt++) {
    const sent = opts.signer ? { ...headers, ...(await sign(opts.signer, method, url, headers, body)) } : headers;
    let wait: number;
    try {
      const res = await once(config, opts, { method, url, origin: resolved.origin, path: resolved.path, headers: sent, body }, attempt);
      const hold = RETRYABLE_STATUSES.has(res.status) ? retryAfterMs(res.headers['retry-after'], MAX_HOLD_MS) : undefined;
      if (hold !== undefined && hold > 0) config.holds?.set(holdKey(method, url), Date.now() + hold);
      if (!retrying || attempt >= config.retry.attempts || !RETRYABLE_STATUSES.has(res.status)) return res;
      last = res.exchange;
      // Retry-After beyond the retry policy's longest wait: no retry sooner than it says (a later call is held).
      if (config.holds && hold !== undefined && hold > config.retry.maxDelayMs) return res;
      wait = nextDelayMs(attempt, config.retry, res.headers['retry-after']);
    } catch (error) {
      if (!(error instanceof TransportError) || !retrying || attempt >= config.retry.attempts || !retryable.has(error)) throw error;
      last = error.exchange;
      wait = nextDelayMs(attempt, config.retry);
    }
    try {
      await sleep(wait, opts.signal);
    } catch {
      throw new TransportError('WFMCK_E_ABORTED', `request aborted by the caller while waiting ${wait} ms to retry`, last);
    }
  }
}

interface Prepared {
  method: string;
  url: string;
  /** The URL's origin and path, as undici's dispatch takes them. */
  origin: string;
  path: string;
  headers: Record<string, string>;
  body: Uint8Array | undefined;
}

async function once(config: Config, opts: RequestOptions, req: Prepared, attempt: number): Promise<HttpResponse> {
  const timeoutMs = opts.timeoutMs ?? config.timeoutMs;
  const started = performance.now();
  const startedAt = Date.now();
  const exchange = new ExchangeHandler(req.method, opts.maxResponseBytes ?? config.maxResponseBytes, timeoutMs);
  // undici's headers/body timers are coarse and idle-based; this one bounds the whole exchange.
  addDeadline(exchange, timeoutMs);
  // The caller's signal aborts this exchange through the handler itself, removed at the end (AbortSignal.any costs more).
  opts.signal?.addEventListener('abort', exchange, { once: true });
  // Evidence taken before the answer (a check out of time) shows the request still waiting, with its deadline.
  const waiting = config.transcript?.begin(exchangeRecord({ config, req, attempt, startedAt, durationMs: 0 }), timeoutMs);
  try {
    if (opts.signal?.aborted) throw opts.signal.reason;
    config.dispatcher.dispatch(
      {
        origin: req.origin,
        path: req.path,
        method: req.method as Dispatcher.HttpMethod,
        headers: req.headers,
        body: req.body,
        // Off: the deadline above began first and bounds the whole exchange, so undici's would never fire first,
        // and setting, refreshing and clearing them cost every exchange.
        headersTimeout: 0,
        bodyTimeout: 0,
      },
      exchange,
    );
    const { status, headers, body } = await exchange.done;
    const durationMs = performance.now() - started;
    const at = { config, req, attempt, startedAt, durationMs };
    // A transcript records every exchange; without one (a fleet) it is made only when read: for an answer the caller
    // did not expect. (Arrows passed, not named: tsx, which ran the kit until bin/typescript.mjs, kept names at a
    // property write per request.)
    if (!config.transcript) return httpResponse(status, headers, body, () => exchangeRecord(at, status, headers, body), durationMs);
    const record = exchangeRecord(at, status, headers, body);
    config.transcript.record(record);
    return httpResponse(status, headers, body, record, durationMs);
  } catch (error) {
    const timedOut = exchange.timedOut && opts.signal?.aborted !== true;
    const failure = classify(error, {
      afterHeaders: exchange.afterHeaders,
      received: exchange.received,
      announced: exchange.announced,
      timedOut,
      aborted: !timedOut && opts.signal?.aborted === true,
      timeoutMs,
    });
    const record = exchangeRecord(
      { config, req, attempt, startedAt, durationMs: performance.now() - started },
      exchange.status,
      exchange.headers,
    );
    record.error = { code: failure.code, message: failure.message };
    config.transcript?.record(record);
    const transportError = new TransportError(failure.code, failure.message, record);
    if (failure.retryable) retryable.add(transportError);
    throw transportError;
  } finally {
    removeDeadline(exchange);
    waiting?.settled();
    opts.signal?.removeEventListener('abort', exchange);
  }
}

/** The evidence record of one exchange: redacted, its bodies rendered when first read. */
function exchangeRecord(
  at: { config: Config; req: Prepared; attempt: number; startedAt: number; durationMs: number },
  status?: number,
  headers?: Record<string, string>,
  bytes?: Uint8Array,
): Exchange {
  const trimBytes = at.config.transcript?.trimBytes ?? DEFAULT_TRIM_BYTES;
  const exchange: Exchange = {
    id: randomUUID(),
    ...(at.config.testId !== undefined ? { testId: at.config.testId } : {}),
    method: at.req.method,
    url: redactUrl(at.req.url),
    requestHeaders: redactHeaders(at.req.headers),
    startedAt: new Date(at.startedAt).toISOString(),
    durationMs: at.durationMs,
    attempt: at.attempt,
  };
  renderedWhenRead(exchange, 'requestBody', at.req.body, trimBytes);
  if (status !== undefined) exchange.status = status;
  if (headers) exchange.responseHeaders = redactHeaders(headers);
  renderedWhenRead(exchange, 'responseBody', bytes, trimBytes);
  return exchange;
}

/**
 * The kit's network policy (spec/network-policy.ts) at its one exit: a URL on a host that is neither a named target
 * nor loopback (a peer's redirect, upload Location or token realm) is never sent, and the refusal is evidence.
 */
function refuseUnnamed(config: Config, method: string, url: string, hostname: string): void {
  if (mayContact(hostname)) return;
  const exchange = unsent(config, method, url, UNNAMED_HOST, `refused: ${method} ${redactUrl(url)}: ${refusal(hostname)}`);
  config.transcript?.record(exchange);
  throw new TransportError(UNNAMED_HOST, exchange.error!.message, exchange);
}

/** Throws WFMCK_E_HELD while a Retry-After the server gave for this request has not passed. */
function held(config: Config, method: string, url: string): void {
  // Most transports hold nothing: no key is made for them.
  if (!config.holds?.size) return;
  const key = holdKey(method, url);
  const until = config.holds.get(key);
  if (until === undefined) return;
  if (until <= Date.now()) return void config.holds.delete(key);
  const message = `held: the server's Retry-After allows ${method} ${redactUrl(url)} again at ${new Date(until).toISOString()}`;
  throw new TransportError('WFMCK_E_HELD', message, unsent(config, method, url, 'WFMCK_E_HELD', message));
}

function holdKey(method: string, url: string): string {
  return `${method} ${url}`;
}

/** The record of a request the kit decided not to send: no socket, no answer, the reason as its error. */
function unsent(config: Config, method: string, url: string, code: TransportErrorCode, message: string): Exchange {
  return {
    id: randomUUID(),
    ...(config.testId !== undefined && { testId: config.testId }),
    method,
    url: redactUrl(url),
    requestHeaders: {},
    startedAt: new Date().toISOString(),
    durationMs: 0,
    attempt: 0,
    error: { code, message },
  };
}

function prepare(opts: RequestOptions, testId: string | undefined): { headers: Record<string, string>; body: Uint8Array | undefined } {
  const headers: Record<string, string> = testId !== undefined ? { [TEST_ID_HEADER]: testId } : {};
  const given = opts.headers;
  if (given) for (const name in given) headers[name.toLowerCase()] = given[name]!;
  if (opts.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    return { headers, body: Buffer.from(JSON.stringify(opts.json), 'utf8') };
  }
  if (opts.body === undefined) return { headers, body: undefined };
  return { headers, body: typeof opts.body === 'string' ? Buffer.from(opts.body, 'utf8') : opts.body };
}

function sign(
  signer: NonNullable<RequestOptions['signer']>,
  method: string,
  url: string,
  headers: Record<string, string>,
  body: Uint8Array | undefined,
): Promise<Record<string, string>> {
  const created = signer.clockSkewSeconds ? { created: Math.floor(Date.now() / 1000 + signer.clockSkewSeconds) } : {};
  return signRequest({
    method,
    url,
    headers,
    ...(body !== undefined ? { body } : {}),
    privateKey: signer.privateKey,
    keyId: signer.keyId,
    algorithm: signer.algorithm,
    ...created,
    ...(signer.omit && { omit: signer.omit }),
  });
}

/**
 * A body's evidence text (decoded, redacted, trimmed) made when first read and kept: a fleet reads it only for an
 * unexpected answer, a transcript for every exchange. Absent for no body, as renderBody gives it.
 */
function renderedWhenRead(exchange: Exchange, key: 'requestBody' | 'responseBody', bytes: Uint8Array | undefined, trimBytes: number): void {
  if (!bytes || bytes.length === 0) return;
  let rendered: string | undefined;
  let done = false;
  Object.defineProperty(exchange, key, {
    enumerable: true,
    configurable: true,
    get: () => (done ? rendered : ((done = true), (rendered = renderBody(bytes, trimBytes)))),
    set: (value: string | undefined) => void ((done = true), (rendered = value)),
  });
}
