// Request and reply plumbing shared by the route files: capped body reads and a plain reply value that the
// handler writes, so route code never touches the response object.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { RegistryError } from './errors.ts';

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** Written for every method but HEAD; its length is the Content-Length either way. */
  body?: Buffer | string;
}

/** The parts of a request a route needs; `readBody` enforces the route's size cap. */
export interface RouteRequest {
  method: string;
  name: string;
  /** The path parameter after the name: a digest, a manifest reference or an upload id. */
  param: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  readBody(limit: number, tooLarge: () => RegistryError, quota?: Quota): Promise<Buffer>;
}

/** The registry's byte budget, charged as a body arrives (so concurrent uploads cannot buffer past it together). */
export interface Quota {
  charge(bytes: number): boolean;
  refund(bytes: number): void;
  exceeded(): RegistryError;
}

/** The client went away mid-body: nothing to answer and nothing to log. */
export class RequestAborted extends Error {
  constructor() {
    super('request aborted by the client');
    this.name = 'RequestAborted';
  }
}

/**
 * Reads the whole body, failing with `tooLarge()` as soon as the declared or received length passes `limit`.
 * Past the cap the stream keeps flowing into the void, so the client can finish sending and read the 413.
 */
export function readBody(req: IncomingMessage, limit: number, tooLarge: () => RegistryError, quota?: Quota): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (fn: () => void): void => {
      if (!settled) {
        settled = true;
        fn();
      }
    };
    // A body that fails gives its charge back; one read whole keeps it (the caller now holds the bytes).
    const fail = (error: Error) =>
      settle(() => {
        quota?.refund(size);
        chunks.length = 0;
        reject(error);
      });
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      if (size + chunk.length > limit) return fail(tooLarge());
      if (quota && !quota.charge(chunk.length)) return fail(quota.exceeded());
      size += chunk.length;
      chunks.push(chunk);
    });
    req.on('end', () => settle(() => resolve(Buffer.concat(chunks, size))));
    req.on('error', () => fail(new RequestAborted()));
    req.on('close', () => fail(new RequestAborted()));
  });
}

/** Media type without parameters, as the spec asks registries to ignore them. */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  const type = contentType?.split(';')[0]?.trim();
  return type ? type : undefined;
}

export function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
