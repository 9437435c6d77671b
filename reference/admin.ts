// The admin API of the embedded default: every hook of profiles.md P5 as `POST /hooks/<name>` with JSON in and out.
import { startListening } from '../protocol/listen.ts';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { guardServer, jsonError } from './server-guards.ts';

export type Hook = (input: Record<string, unknown>) => Promise<object>;

export interface AdminService {
  url: string;
  /** Bearer token every admin request must carry (the admin API changes state, so even on loopback it is not open). */
  token: string;
  close(): Promise<void>;
}

const MAX_BODY = 256 * 1024;

export async function startAdmin(
  hooks: Record<string, Hook>,
  opts: { host?: string; port?: number; hostnames?: readonly string[] } = {},
): Promise<AdminService> {
  const token = randomBytes(18).toString('base64url');
  const server = createServer((req, res) => {
    handle(req, res, hooks, token).catch((err: Error) => send(res, 500, { error: `admin: ${err.message}` }));
  });
  guardServer(server, { requestTimeoutMs: 10_000, errorBody: jsonError('admin') });
  const { url } = await startListening(server, { scheme: 'http', ...opts });
  return {
    url,
    token,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, hooks: Record<string, Hook>, token: string): Promise<void> {
  // The path as sent, query cut off: new URL() reads a path starting // as a host (GET // was a 500).
  const path = (req.url ?? '/').split('?')[0]!;
  if (req.method === 'GET' && path === '/') return send(res, 200, { hooks: Object.keys(hooks) });
  if (!authorized(req.headers.authorization, token)) return send(res, 401, { error: 'admin: missing or wrong bearer token' });
  const m = /^\/hooks\/([A-Za-z]+)$/.exec(path);
  const hook = m ? hooks[m[1]!] : undefined;
  if (!m || !hook) return send(res, 404, { error: `admin: no hook at ${path}; hooks: ${Object.keys(hooks).join(', ')}` });
  if (req.method !== 'POST') return send(res, 405, { error: 'admin: hooks take POST' }, { allow: 'POST' });
  const body = await readBody(req);
  if (body === undefined) return send(res, 413, { error: `admin: body over ${MAX_BODY} bytes` });
  let input: unknown;
  try {
    input = body.length ? JSON.parse(body.toString('utf8')) : {};
  } catch {
    return send(res, 400, { error: 'admin: body is not JSON' });
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return send(res, 400, { error: 'admin: body must be a JSON object' });
  try {
    send(res, 200, await hook(input as Record<string, unknown>));
  } catch (err) {
    // A hook refusing its input is the caller's mistake, not a server fault.
    send(res, 400, { error: `${m[1]}: ${(err as Error).message}` });
  }
}

function authorized(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.replace(/^Bearer /, '') ?? '');
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function send(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  if (res.headersSent) return void res.end();
  const bytes = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(bytes), ...headers });
  res.end(bytes);
}
