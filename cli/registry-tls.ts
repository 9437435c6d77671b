// What a registry speaks, asked before anything is sent: a TLS handshake, judged by the CA the user gave (or the
// system's). lint reads an oci:// reference, which names no scheme, and follows the registry; publish names its scheme
// and learns why a push over https cannot start. Loopback registries only (the callers refuse any other).
import { isIP } from 'node:net';
import { connect } from 'node:tls';
import { lookup } from '../protocol/pinned-lookup.ts';

const PROBE_TIMEOUT_MS = 10_000;

export type TlsProbe =
  /** The handshake completed and the certificate is trusted. */
  | { kind: 'tls' }
  /** The handshake completed, but the certificate is not trusted (Node's verification code). */
  | { kind: 'untrusted'; code: string }
  /** A TCP connection, then no TLS handshake: the registry speaks plain HTTP (or something else). */
  | { kind: 'not-tls'; code: string }
  /** No TCP connection at all. */
  | { kind: 'unreachable'; code: string; message: string };

/** One TLS handshake with `host:port`, trusting `ca` when given; the certificate is judged, never enforced, here. */
export function probeTls(host: string, port: number, ca: string | undefined, timeoutMs = PROBE_TIMEOUT_MS): Promise<TlsProbe> {
  return new Promise((done) => {
    let settled = false;
    const finish = (probe: TlsProbe) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      done(probe);
    };
    // The verdict comes from `authorized` (chain and host name, as undici would check them), so no error text is read.
    const socket = connect(
      {
        host,
        port,
        lookup,
        ...(ca !== undefined && { ca }),
        ...(isIP(host) === 0 && { servername: host }),
        rejectUnauthorized: false,
        ALPNProtocols: ['http/1.1'],
      },
      () => finish(socket.authorized ? { kind: 'tls' } : { kind: 'untrusted', code: String(socket.authorizationError ?? 'UNTRUSTED') }),
    );
    let tcp = false;
    socket.once('connect', () => (tcp = true));
    const timer = setTimeout(
      () =>
        finish(
          tcp
            ? { kind: 'not-tls', code: 'ETIMEDOUT' }
            : { kind: 'unreachable', code: 'ETIMEDOUT', message: `no connection within ${timeoutMs / 1000} s` },
        ),
      timeoutMs,
    );
    socket.on('error', (e: NodeJS.ErrnoException) => {
      const code = e.code ?? 'ERROR';
      finish(tcp ? { kind: 'not-tls', code } : { kind: 'unreachable', code, message: e.message });
    });
  });
}

/** The one hint of an untrusted registry certificate: it names the flag that fixes it. */
export function untrustedMessage(code: string, caFile: string | undefined): string {
  return caFile === undefined
    ? `the registry's certificate is not trusted (${code}): give its CA with --ca-file FILE`
    : `the registry's certificate is not trusted by --ca-file ${caFile} (${code}): give the CA that issued it`;
}

/** `host` and `port` of a URL's authority, the default port by scheme when none is written. */
export function hostPort(url: URL): { host: string; port: number } {
  return { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)) };
}

/** An error the commands print as `wfmck <cmd>: CODE: message`, exit 2. */
export function tlsError(message: string, code = 'WFMCK_E_TLS'): Error & { code: string } {
  return Object.assign(new Error(message), { code });
}
