// Response-level faults: buffer what a service answers, let each active rewrite change it, then send it.
import type { IncomingMessage, RequestListener, ServerResponse, OutgoingHttpHeaders } from 'node:http';

/** What a response-level fault sees and may change: the request line and the whole answer. */
export interface AnswerView {
  method: string;
  /** Path and query as received. */
  url: string;
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
  /** Never send the answer: the request hangs until the client gives up or the service closes (an endpoint that hangs). */
  hang?: true;
}

/** A rewrite of one answer; undefined leaves it as it is. */
export type Rewrite = (answer: AnswerView) => AnswerView | undefined;

export function withRewrites(listener: RequestListener, rewrites: readonly Rewrite[]): RequestListener {
  if (rewrites.length === 0) return listener;
  return (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    const send = { writeHead: res.writeHead.bind(res), end: res.end.bind(res) };
    let status = 200;
    let headers: OutgoingHttpHeaders = {};
    let headWritten = false;
    // The service writes into a buffer; the rewritten answer goes out once, on end().
    res.writeHead = ((code: number, ...rest: unknown[]) => {
      headWritten = true;
      status = code;
      const h = rest.find((x) => typeof x === 'object' && x !== null) as OutgoingHttpHeaders | undefined;
      headers = { ...res.getHeaders(), ...(h ?? {}) };
      return res;
    }) as typeof res.writeHead;
    res.write = ((chunk: unknown) => {
      if (chunk) chunks.push(Buffer.from(chunk as Buffer));
      return true;
    }) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (chunk && typeof chunk !== 'function') chunks.push(Buffer.from(chunk as Buffer));
      // Without writeHead the answer is what the service set on res (a 204 by writeHead with no headers keeps its 204).
      if (!headWritten) {
        status = res.statusCode;
        headers = res.getHeaders();
      }
      let answer: AnswerView = { method: req.method ?? 'GET', url: req.url ?? '/', status, headers, body: Buffer.concat(chunks) };
      for (const rewrite of rewrites) answer = rewrite(answer) ?? answer;
      // An endpoint that hangs: nothing is sent, and the connection stays open until either side ends it.
      if (answer.hang) return res;
      for (const name of res.getHeaderNames()) res.removeHeader(name);
      const out: OutgoingHttpHeaders = { ...answer.headers };
      delete out['transfer-encoding'];
      // A status that carries no body (a 404 rewritten to 204) sends none and claims none.
      const bodiless = answer.status === 204 || answer.status === 304;
      if (bodiless) delete out['content-length'];
      else if (req.method !== 'HEAD') out['content-length'] = answer.body.length;
      send.writeHead(answer.status, out);
      const callback = [chunk, ...rest].find((x) => typeof x === 'function') as (() => void) | undefined;
      return send.end(req.method === 'HEAD' || bodiless ? undefined : answer.body, callback);
    }) as typeof res.end;
    listener(req, res);
  };
}

/** A rewrite that applies only to requests matching a method and a path pattern. */
export function on(method: string, path: RegExp, rewrite: Rewrite): Rewrite {
  return (a) => (a.method === method && path.test(a.url.split('?')[0]!) ? rewrite(a) : undefined);
}
