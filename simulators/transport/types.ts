// The transport seam: what simulators and suites see of HTTP. Implementations: undici (real sockets) and test doubles.
import type { KeyObject } from 'node:crypto';
import type { SignatureAlgorithm } from '../../protocol/signing.ts';

export type { Exchange, TransportErrorCode } from '../../protocol/exchange.ts';
import type { Exchange, TransportErrorCode } from '../../protocol/exchange.ts';

/** A failure below HTTP (no status), with the exchange that shows it. */
export class TransportError extends Error {
  constructor(
    readonly code: TransportErrorCode,
    message: string,
    readonly exchange: Exchange,
  ) {
    super(message);
  }
}

export interface RequestSigner {
  keyId: string;
  privateKey: KeyObject;
  algorithm: SignatureAlgorithm;
  /** Seconds added to the signature's `created`: a device whose clock is off (fault knob clockSkewSeconds). */
  clockSkewSeconds?: number;
  /** A signature that departs from P3 one way (the kit's faulty client): `content-digest` (none sent), `target-uri` (not covered). */
  omit?: 'content-digest' | 'target-uri';
}

export interface RequestOptions {
  method: string;
  /** Absolute URL, or a path resolved against the transport's base URL. */
  url: string;
  headers?: Record<string, string>;
  /** Raw body; `json` is serialised with `content-type: application/json`. */
  body?: Uint8Array | string;
  json?: unknown;
  /** Signs per profiles.md P3 (Content-Digest + RFC 9421) when given. */
  signer?: RequestSigner;
  /** `idempotent` retries connection failures and 429/502/503/504 with backoff and jitter; default `never`. */
  retry?: 'never' | 'idempotent';
  timeoutMs?: number;
  maxResponseBytes?: number;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
  text(): string;
  /** Parses the body as JSON; throws a TransportError WFMCK_E_PROTOCOL with the exchange when it is not JSON. */
  json<T = unknown>(): T;
  exchange: Exchange;
  /** The exchange's durationMs, readable without making the exchange (undici's responses have it). */
  readonly durationMs?: number;
}

export interface Transport {
  request(opts: RequestOptions): Promise<HttpResponse>;
  close(): Promise<void>;
}
