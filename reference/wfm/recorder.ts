// Judging mode (the device persona): the reference WFM keeps what each client sent and how it was answered, so the
// kit can judge a real device client by what it shows on the wire. A client is named by the keyid of its request
// signatures (seed: the SHA-256 of its certificate) or by its SPIFFE ID (miaf).
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { certificateKeyId, parseCertificate } from '../../protocol/pki.ts';
import type { RecordedExchange } from '../../protocol/judging-record.ts';

export type { RecordedExchange };

const KEPT_HEADERS = ['content-type', 'accept', 'if-none-match', 'content-digest', 'signature', 'signature-input'];
const MAX_BODY = 64 * 1024;
const EMPTY = Buffer.alloc(0);
/** Oldest exchanges go first past this: a judging run lasts minutes, not days. */
const MAX_EXCHANGES = 100_000;

export class ExchangeRecorder {
  private readonly exchanges: RecordedExchange[] = [];
  private seq = 0;
  private connectionCount = 0;
  /** A number per TCP connection seen, so two connections from one reused address and port stay apart. */
  private readonly connections = new WeakMap<Socket, number>();

  /**
   * Records one answered request: `body` is what was read of it (nothing for one refused before its body), `peer`
   * the SPIFFE ID its connection proved (miaf). The client is that ID, else the certificate an onboarding carries
   * (whatever its signature says), else the keyid of its signature.
   */
  recordAnswer(
    req: IncomingMessage,
    answer: { status: number; body?: Buffer | string; headers?: Record<string, string> },
    body: Buffer = EMPTY,
    peer?: string,
  ): void {
    const target = req.url ?? '/';
    const method = req.method ?? 'GET';
    const onboarding = method === 'POST' && target.split('?')[0] === '/api/v1/onboarding';
    const who = peer ?? (onboarding ? onboardingKeyId(body) : undefined) ?? keyIdOf(req.headers['signature-input']);
    const tls = (req.socket as Partial<TLSSocket>).getProtocol?.() ?? undefined;
    this.record({
      ...(who !== undefined && { who }),
      conn: this.connOf(req.socket),
      method,
      target,
      headers: req.headers,
      body,
      http: req.httpVersion,
      ...(tls && { tls }),
      status: answer.status,
      ...(answer.body !== undefined && { responseBody: answer.body }),
      ...(answer.headers?.['etag'] !== undefined && { responseEtag: answer.headers['etag'] }),
    });
  }

  private connOf(socket: Socket): string {
    let n = this.connections.get(socket);
    if (n === undefined) this.connections.set(socket, (n = this.connectionCount++));
    return `${socket.remoteAddress}:${socket.remotePort}#${n}`;
  }

  record(e: {
    who?: string;
    conn: string;
    method: string;
    target: string;
    headers: IncomingHttpHeaders;
    body: Buffer;
    status: number;
    responseBody?: Buffer | string;
    responseEtag?: string;
    tls?: string;
    http?: string;
  }): void {
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const v = e.headers[name];
      if (v !== undefined) headers[name] = Array.isArray(v) ? v.join(', ') : v;
    }
    const text = (b: Buffer | string | undefined) =>
      b === undefined || b.length === 0
        ? undefined
        : (typeof b === 'string' ? b : b.subarray(0, MAX_BODY).toString('utf8')).slice(0, MAX_BODY);
    const body = text(e.body);
    const responseBody = text(e.responseBody);
    this.exchanges.push({
      seq: ++this.seq,
      at: new Date().toISOString(),
      ...(e.who !== undefined && { who: e.who }),
      conn: e.conn,
      method: e.method,
      target: e.target,
      headers,
      ...(body !== undefined && { body }),
      status: e.status,
      ...(responseBody !== undefined && { responseBody }),
      ...(e.responseEtag !== undefined && { responseEtag: e.responseEtag }),
      ...(e.tls !== undefined && { tls: e.tls }),
      ...(e.http !== undefined && { http: e.http }),
    });
    if (this.exchanges.length > MAX_EXCHANGES) this.exchanges.splice(0, this.exchanges.length - MAX_EXCHANGES);
  }

  /**
   * One client's exchanges in order (those after `afterSeq` only when given): the ones naming it, and every other one
   * over a connection that also carried one naming it (two clients never share a connection, so a request it forgot
   * to sign, or signed with the wrong keyid, is still its request).
   */
  of(who: string, afterSeq = 0): RecordedExchange[] {
    const conns = new Set(this.exchanges.filter((x) => x.who === who).map((x) => x.conn));
    return this.exchanges.filter((x) => x.seq > afterSeq && (x.who === who || conns.has(x.conn)));
  }
}

/** The keyid parameter of a Signature-Input header (RFC 9421 §4.1), whatever the label. */
export function keyIdOf(signatureInput: string | string[] | undefined): string | undefined {
  const text = Array.isArray(signatureInput) ? signatureInput.join(', ') : signatureInput;
  return text === undefined ? undefined : /;\s*keyid="([^"]*)"/.exec(text)?.[1];
}

/** The keyid an onboarding request's own certificate gives (P3), so an unsigned onboarding is still attributed. */
export function onboardingKeyId(body: Buffer): string | undefined {
  try {
    const cert = (JSON.parse(body.toString('utf8')) as { certificate?: unknown }).certificate;
    return typeof cert === 'string' ? certificateKeyId(parseCertificate(cert).rawData) : undefined;
  } catch {
    return undefined;
  }
}
