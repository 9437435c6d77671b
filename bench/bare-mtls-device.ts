// The same-exchange floor of the mTLS figure (mtls.ts): a device as bare Node TLS does it, with no HTTP client. The
// same SVID, trust anchors, source address and SPIFFE check of the server as a kit device, the same GET written by
// hand and its answer read to its end, so that what a kit device holds beyond it is the kit's (undici and the
// transport), not its credentials, its server or its exchange.
import { connect, createSecureContext, type ConnectionOptions, type TLSSocket } from 'node:tls';
import { spiffeIdentityCheck } from '../simulators/transport/spiffe-identity-check.ts';

/** What the mTLS worker does with a device, kit or bare: GET the desired state; close. */
export interface HeldDevice {
  /** One GET of the deployments (the first connects): true on 200 or 304. */
  poll(): Promise<boolean>;
  close(): Promise<void>;
}

export interface BareDeviceOptions {
  /** https://host:port of the WFM. */
  wfm: string;
  path: string;
  ca: string;
  cert: string;
  key: string;
  serverSpiffeId: string;
  localAddress: string;
  timeoutMs: number;
}

export function bareMtlsDevice(o: BareDeviceOptions): HeldDevice {
  const url = new URL(o.wfm);
  const request = `GET ${o.path} HTTP/1.1\r\nhost: ${url.host}\r\n\r\n`;
  let socket: TLSSocket | undefined;
  const open = () =>
    new Promise<TLSSocket>((resolve, reject) => {
      // localAddress reaches net.connect, as undici's connector passes it (Node's tls types leave it out).
      const options: ConnectionOptions & { localAddress: string } = {
        host: url.hostname,
        port: Number(url.port),
        localAddress: o.localAddress,
        // A context per device, made at connect, as the kit's connector does for each of its devices.
        secureContext: createSecureContext({ cert: o.cert, key: o.key, ca: o.ca }),
        minVersion: 'TLSv1.3',
        checkServerIdentity: spiffeIdentityCheck(o.serverSpiffeId),
      };
      const s = connect(options, () => {
        s.off('error', reject);
        resolve(s);
      });
      s.once('error', reject);
    });
  return {
    poll: async () => {
      try {
        // A connection the server closed is made again on the next poll, as undici does for a kit device.
        if (socket?.destroyed) socket = undefined;
        socket ??= await open();
        const status = await exchange(socket, request, o.timeoutMs);
        return status === 200 || status === 304;
      } catch {
        socket?.destroy();
        return false;
      }
    },
    close: async () => {
      socket?.destroy();
    },
  };
}

/** Writes the request and reads one answer to its end (Content-Length or chunked): its status. */
function exchange(socket: TLSSocket, request: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let got: Buffer = Buffer.alloc(0);
    const done = (error?: Error, status?: number) => {
      clearTimeout(timer);
      socket.off('data', onData).off('close', onClose).off('error', done);
      if (error) reject(error);
      else resolve(status!);
    };
    const onData = (chunk: Buffer) => {
      got = got.length === 0 ? chunk : Buffer.concat([got, chunk]);
      const end = got.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = got.subarray(0, end).toString('latin1');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      const length = /\r\ncontent-length: *(\d+)/i.exec(head);
      const complete = length
        ? got.length >= end + 4 + Number(length[1])
        : !/\r\ntransfer-encoding: *chunked/i.test(head) || got.subarray(got.length - 5).toString('latin1') === '0\r\n\r\n';
      if (complete) done(undefined, status);
    };
    const onClose = () => done(new Error('closed before the answer'));
    const timer = setTimeout(() => done(new Error('no answer in time')), timeoutMs);
    socket.on('data', onData).on('close', onClose).on('error', done);
    socket.write(request);
  });
}
