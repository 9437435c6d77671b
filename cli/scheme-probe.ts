// Pre-flight: a target URL whose scheme is not what its port speaks (http:// to a TLS port, https:// to plain HTTP)
// is a configuration mistake, named with the URL meant, never a run of socket errors blamed on the target (issue 32).
// Only a positive sign decides: a TLS record or a completed handshake, an HTTP status line; anything else passes.
import { connect as tcpConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { lookup } from '../protocol/pinned-lookup.ts';

const PROBE_MS = 3_000;

/** What a plain `GET /` gets back: an HTTP status code, the header of a TLS record, or nothing readable. */
export type PlainAnswer = { http: number } | { tls: true } | { none: string };

/** Sends a plain `GET /` and reads the first line of the answer (a TLS server answers with an alert, or closes). */
export function plainAnswer(host: string, port: number, timeoutMs = PROBE_MS): Promise<PlainAnswer> {
  return new Promise((done) => {
    let bytes = Buffer.alloc(0);
    const finish = (answer: PlainAnswer) => {
      clearTimeout(timer);
      socket.destroy();
      done(answer);
    };
    const timer = setTimeout(() => finish({ none: 'no answer' }), timeoutMs);
    const socket = tcpConnect({ host, port, lookup }, () =>
      socket.write(
        `GET / HTTP/1.1\r\nHost: ${host.includes(':') ? `[${host}]` : host}:${port}\r\nUser-Agent: wfmck-preflight\r\nConnection: close\r\n\r\n`,
      ),
    );
    socket.on('data', (chunk: Buffer) => {
      bytes = Buffer.concat([bytes, chunk]);
      // A TLS record: content type (alert 21, handshake 22), then major version 3.
      if ((bytes[0] === 0x15 || bytes[0] === 0x16) && bytes.length >= 2) return finish(bytes[1] === 3 ? { tls: true } : { none: 'other' });
      const status = /^HTTP\/\d(?:\.\d)? (\d{3})/.exec(bytes.toString('latin1'));
      if (status) return finish({ http: Number(status[1]) });
      if (bytes.length >= 64 || bytes.includes(0x0a)) finish({ none: 'no HTTP status line' });
    });
    socket.on('end', () => finish({ none: 'closed' }));
    socket.on('close', () => finish({ none: 'closed' }));
    socket.on('error', (e: NodeJS.ErrnoException) => finish({ none: e.code ?? e.message }));
  });
}

/** Whether the port speaks TLS: a handshake completes, or the server ends it with a TLS alert (a client certificate wanted). */
export function speaksTls(host: string, port: number, timeoutMs = PROBE_MS): Promise<boolean> {
  return new Promise((done) => {
    const finish = (yes: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      done(yes);
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    // Only the scheme is in question here: trust is connectionProblem's (cli/preflight.ts).
    const socket = tlsConnect({ host, port, lookup, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] }, () => finish(true));
    socket.on('error', (e: NodeJS.ErrnoException) => finish(/ALERT/.test(e.code ?? '')));
  });
}

/** `url` with the other scheme, its port kept (http://h is port 80, also as https://h:80). */
export function withScheme(url: URL, scheme: 'http:' | 'https:'): string {
  const other = new URL(url.href);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  other.protocol = scheme;
  other.port = port;
  return `${other.origin}${other.pathname === '/' ? '' : other.pathname}${other.search}`;
}

/** Why `url`'s scheme is wrong for what its port speaks, naming the URL meant; undefined when it fits or it cannot tell. */
export async function schemeProblem(url: URL, timeoutMs = PROBE_MS): Promise<string | undefined> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const tls = url.protocol === 'https:';
  const port = Number(url.port || (tls ? 443 : 80));
  if (tls) {
    if (await speaksTls(host, port, timeoutMs)) return undefined;
    const plain = await plainAnswer(host, port, timeoutMs);
    return 'http' in plain ? `answers plain HTTP, not TLS: did you mean ${withScheme(url, 'http:')}?` : undefined;
  }
  const plain = await plainAnswer(host, port, timeoutMs);
  // A 400 may be a TLS server's canned answer to plain HTTP (Go's, nginx's): a handshake decides.
  if ('http' in plain && plain.http !== 400) return undefined;
  if ('tls' in plain || (await speaksTls(host, port, timeoutMs))) return `speaks TLS: did you mean ${withScheme(url, 'https:')}?`;
  return undefined;
}
