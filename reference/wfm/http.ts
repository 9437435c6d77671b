// Request and reply plumbing of the reference WFM: capped, timed body reads, JSON replies, and P6 error bodies.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

/** A refusal with its status and a one-line reason; the handler turns it into the P6 JSON error body. */
export class WfmError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: unknown[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'WfmError';
  }
}

/** The client went away mid-body: nothing to answer and nothing to log. */
export class RequestAborted extends Error {
  constructor() {
    super('request aborted by the client');
    this.name = 'RequestAborted';
  }
}

/** P6: `{"error": "<one line>", "details"?: [...]}` as application/json. */
export function errorReply(status: number, message: string, details?: unknown[], headers: Record<string, string> = {}): Reply {
  const body = details?.length ? { error: oneLine(message), details } : { error: oneLine(message) };
  return json(status, body, headers);
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, ' ').slice(0, 500);
}

export interface BodyLimits {
  maxBytes: number;
  timeoutMs: number;
}

/**
 * Reads the whole body. Over `maxBytes` (declared or received) it fails with 413 without buffering the rest;
 * a body that stalls past `timeoutMs` fails with 408. Either way the connection is closed after the answer.
 */
export function readBody(req: IncomingMessage, limits: BodyLimits): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.maxBytes) return Promise.reject(tooLarge(limits.maxBytes));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const timer = setTimeout(
      () => settle(() => reject(new WfmError(408, `request body not received within ${limits.timeoutMs} ms`, undefined, { connection: 'close' }))),
      limits.timeoutMs,
    );
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limits.maxBytes) settle(() => reject(tooLarge(limits.maxBytes)));
      else chunks.push(chunk);
    });
    req.on('end', () => settle(() => resolve(Buffer.concat(chunks, size))));
    req.on('error', () => settle(() => reject(new RequestAborted())));
    req.on('close', () => settle(() => reject(new RequestAborted())));
  });
}

function tooLarge(maxBytes: number): WfmError {
  return new WfmError(413, `request body larger than ${maxBytes} bytes`, undefined, { connection: 'close' });
}

/** Deeper JSON than this is refused: no document of interfaces.md nests past a handful of levels. */
export const MAX_JSON_DEPTH = 64;

/** Parses a JSON body; anything that is not JSON, or nests absurdly deep, is a malformed body (400). */
export function parseJson(body: Buffer): unknown {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch (e) {
    throw new WfmError(400, `malformed request body: not JSON (${(e as Error).message})`);
  }
  if (depthExceeds(value, MAX_JSON_DEPTH)) throw new WfmError(400, `malformed request body: JSON nested deeper than ${MAX_JSON_DEPTH}`);
  return value;
}

/** A JSON object body (not null, an array or a scalar), or 400. */
export function parseJsonObject(body: Buffer): Record<string, unknown> {
  const value = parseJson(body);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new WfmError(400, `malformed request body: expected a JSON object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`);
  }
  return value as Record<string, unknown>;
}

/** Iterative, so a hostile document cannot overflow the stack while being measured. */
function depthExceeds(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

export function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
