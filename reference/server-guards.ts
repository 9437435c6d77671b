// What every reference server does before its handler sees a request: a whole-request deadline (a body that trickles
// is cut, not held for Node's 300 s) and an answer with a body for each rejection Node's HTTP parser makes itself
// (malformed request line, headers too large, the deadline), in the error format of that service.
import type { Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';

export interface ErrorBody {
  contentType: string;
  body: string;
}

export interface ServerGuards {
  /** The whole request, headers and body, must arrive within this; else 408. */
  requestTimeoutMs: number;
  /** The request line and headers must arrive within this (at most requestTimeoutMs). */
  headersTimeoutMs?: number;
  /** The service's own error document for a parser-level rejection. */
  errorBody(status: number, message: string): ErrorBody;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Content Too Large',
  431: 'Request Header Fields Too Large',
};

/** The status a parser error stands for (Node names them HPE_* after llhttp's codes). */
export function parserRejection(code: string | undefined): { status: number; message: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: 'request header fields too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'HPE_HEADERS_TIMEOUT':
      return { status: 408, message: 'the request did not arrive in time' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, message: 'chunk extensions too large' };
    default:
      return { status: 400, message: `malformed HTTP request${code ? ` (${code})` : ''}` };
  }
}

export function guardServer(server: HttpServer, guards: ServerGuards): void {
  server.requestTimeout = guards.requestTimeoutMs;
  server.headersTimeout = Math.min(guards.headersTimeoutMs ?? 10_000, guards.requestTimeoutMs);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A peer that reset or already left gets nothing; one whose answer started cannot get another.
    if (
      error.code === 'ECONNRESET' ||
      error.code === 'EPIPE' ||
      !socket.writable ||
      (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent
    ) {
      socket.destroy();
      return;
    }
    const { status, message } = parserRejection(error.code);
    const { contentType, body } = guards.errorBody(status, message);
    socket.end(
      `HTTP/1.1 ${status} ${REASONS[status]}\r\nContent-Type: ${contentType}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}

/** `{"error": ...}`: the admin API's and the identity role's error document. */
export const jsonError =
  (service: string) =>
  (status: number, message: string): ErrorBody => ({
    contentType: 'application/json',
    body: JSON.stringify({ error: `${service}: ${message}`, status }),
  });
