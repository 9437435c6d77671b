// A registry the kit watches (§4.7 retrieval workflow, §5 tokens): a clean reference registry on 127.0.0.1 over plain
// HTTP, with token auth on `<ns>/protected/...`, that logs every request and can serve a repository's blobs tampered.
// The run layer composes it from the reference registry; the suites see only its URL and its log.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { startListening } from '../../protocol/listen.ts';
import { withRewrites, on } from '../../reference/faults/rewrite.ts';
import { createRegistryHandler, RegistryStore } from '../../reference/registry/server.ts';
import { TOKEN_PATH } from '../../reference/registry/token-auth.ts';
import type { RecordedPull } from '../../spec/rules/wfm-retrieval.ts';

/** Where the watched registry's authentication service answers (the realm of its challenges). */
export const WATCHED_TOKEN_PATH = TOKEN_PATH;

export interface WatchedRegistry {
  url: string;
  /** Every request so far, in arrival order. */
  log: RecordedPull[];
  /** Blobs of these repositories are served with one byte flipped (their digest no longer matches). */
  tampered: Set<string>;
}

export async function startWatchedRegistry(): Promise<WatchedRegistry & { close(): Promise<void> }> {
  const log: RecordedPull[] = [];
  const tampered = new Set<string>();
  const flip = on('GET', /^\/v2\/.+\/blobs\/[^/]+$/, (a) => {
    const name = a.url
      .split('?')[0]!
      .replace(/^\/v2\//, '')
      .replace(/\/blobs\/[^/]+$/, '');
    if (a.status !== 200 || !tampered.has(name) || a.body.length === 0) return undefined;
    const body = Buffer.from(a.body);
    body[0] = body[0]! ^ 0xff;
    return { ...a, body };
  });
  const handler = withRewrites(createRegistryHandler(new RegistryStore(), { auth: {}, scheme: 'http' }), [flip]);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const [path, query = ''] = (req.url ?? '/').split('?') as [string, string?];
    const entry: RecordedPull = {
      method: req.method ?? 'GET',
      path,
      query,
      accept: req.headers.accept,
      authorization: req.headers.authorization,
      status: 0,
    };
    log.push(entry);
    res.on('finish', () => void (entry.status = res.statusCode));
    handler(req, res);
  });
  const { url } = await startListening(server, { scheme: 'http' });
  return { url, log, tampered, close: () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())) };
}
