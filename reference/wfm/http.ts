// Request and reply plumbing of the reference WFM: capped, timed body reads, JSON replies, and error bodies (P6, or
// RFC 9457 problem details in the miaf edition).
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Profile } from '../../spec/profile.ts';
import { ABOUT_BLANK, RESERVED_PROBLEMS, problemTypeUri, retryableStatus, type ProblemName } from '../../spec/rules/problem-types.ts';
import type { ProblemDecisions } from './decisions/index.ts';

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
    /** P10: the reserved problem type of this condition; when absent the status decides (404 has none by itself). */
    readonly problem?: ProblemName,
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

/** What each error status means when the refusal names no problem (404 names several, so it names none). */
const PROBLEM_BY_STATUS: Partial<Record<number, ProblemName>> = {
  400: 'invalid-request',
  422: 'semantic-error',
  403: 'not-authorized',
  406: 'server-cannot-generate-response',
};

const TITLES: Record<ProblemName, string> = {
  'invalid-request': 'Invalid request',
  'semantic-error': 'Semantic error',
  'not-authorized': 'Not authorized',
  'gateway-not-found': 'Gateway not found',
  'device-not-found': 'Device not found',
  'invalid-bundle': 'Invalid bundle',
  'deployment-not-found': 'Deployment not found',
  'server-cannot-generate-response': 'Server cannot generate response',
};

/** The error body the profile asks for: P6 `{error}` or a P10 problem (type, title, status, detail, retryable, errors). */
export function refusalReply(profile: Profile, decisions: ProblemDecisions, err: WfmError): Reply {
  if (profile.errors === 'p6') return errorReply(err.status, err.message, err.details, err.headers);
  const name = err.problem ?? PROBLEM_BY_STATUS[err.status];
  const reserved = name !== undefined && RESERVED_PROBLEMS[name] === err.status;
  const type = decisions.problemType(reserved ? name : undefined);
  const retryable = retryableStatus(err.status);
  const body: Record<string, unknown> = {
    ...(type !== 'none' && { type: type === 'about:blank' ? ABOUT_BLANK : problemTypeUri(type, profile.vendor, profile.problemTypeBase) }),
    title: reserved ? TITLES[name] : (STATUS_TITLES[err.status] ?? 'Error'),
    status: err.status,
    detail: oneLine(err.message),
    retryable: decisions.claimsRetryable(retryable),
    backoffStrategy: retryable ? 'exponential' : 'none',
  };
  const retryAfter = Number(err.headers['retry-after']);
  if (retryable && Number.isInteger(retryAfter)) body['retryAfterSeconds'] = retryAfter;
  const errors = (err.details ?? []).flatMap(fieldError);
  if (err.status === 422 && errors.length && decisions.listsFieldErrors) body['errors'] = errors;
  return { status: err.status, headers: { ...err.headers, 'content-type': decisions.problemContentType }, body: JSON.stringify(body) };
}

const STATUS_TITLES: Record<number, string> = {
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Content Too Large',
  500: 'Internal Server Error',
};

/** A schema error or spec/rules finding as a P10 `{field, message}`. */
function fieldError(detail: unknown): { field: string; message: string }[] {
  if (detail === null || typeof detail !== 'object') return [];
  const d = detail as { path?: unknown; rule?: unknown; message?: unknown };
  if (typeof d.message !== 'string') return [];
  const field = typeof d.path === 'string' && d.path !== '' ? d.path : typeof d.rule === 'string' ? d.rule : '/';
  return [{ field, message: d.message }];
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
    // One state object and listeners defined once, not closures per request (every request's body goes through here).
    const read: BodyRead = { req, limits, chunks: [], size: 0, resolve, reject, timer: undefined };
    read.timer = setTimeout(onBodyTimeout, limits.timeoutMs, read);
    bodyReads.set(req, read);
    req.on('data', onBodyData);
    req.on('end', onBodyEnd);
    req.on('error', onBodyAborted);
    req.on('close', onBodyAborted);
  });
}

interface BodyRead {
  req: IncomingMessage;
  limits: BodyLimits;
  chunks: Buffer[];
  size: number;
  resolve(body: Buffer): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout | undefined;
}

/** A request's body read while it is under way; settling removes it, so later events find none and do nothing. */
const bodyReads = new WeakMap<IncomingMessage, BodyRead>();

function settled(read: BodyRead): BodyRead {
  bodyReads.delete(read.req);
  clearTimeout(read.timer);
  return read;
}

function onBodyData(this: IncomingMessage, chunk: Buffer): void {
  const read = bodyReads.get(this);
  if (!read) return;
  read.size += chunk.length;
  if (read.size > read.limits.maxBytes) settled(read).reject(tooLarge(read.limits.maxBytes));
  else read.chunks.push(chunk);
}

function onBodyEnd(this: IncomingMessage): void {
  const read = bodyReads.get(this);
  if (read) settled(read).resolve(Buffer.concat(read.chunks, read.size));
}

function onBodyAborted(this: IncomingMessage): void {
  const read = bodyReads.get(this);
  if (read) settled(read).reject(new RequestAborted());
}

/** Never after the read settled: settling clears this timer. */
function onBodyTimeout(read: BodyRead): void {
  settled(read).reject(
    new WfmError(408, `request body not received within ${read.limits.timeoutMs} ms`, undefined, { connection: 'close' }),
  );
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
    throw new WfmError(
      400,
      `malformed request body: expected a JSON object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`,
    );
  }
  return value as Record<string, unknown>;
}

/** Iterative, so a hostile document cannot overflow the stack while being measured. */
function depthExceeds(value: unknown, max: number): boolean {
  // Two stacks side by side rather than a [value, depth] pair per node: this runs on every JSON body.
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length) {
    const v = values.pop();
    const depth = depths.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= max) return true;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        values.push(v[i]);
        depths.push(depth + 1);
      }
    } else {
      // JSON.parse makes plain objects: own enumerable keys only.
      for (const k in v) {
        values.push((v as Record<string, unknown>)[k]);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

export function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
