// The bare side of the TLS floor (tls-floor.ts): a Node TLS 1.3 server that asks for a client certificate, verifies
// its chain with OpenSSL and answers one byte, with no HTTP and no SVID rules. Its CPU is read over IPC.
import { createServer } from 'node:tls';
import { startListening } from '../protocol/listen.ts';

export interface FloorServerStart {
  cert: string;
  key: string;
  ca: string;
}

// Its client going away (even killed) takes it with it: a listening server would otherwise keep it, and the stdio it
// inherited, alive.
process.on('disconnect', () => process.exit(0));

process.once('message', (start: FloorServerStart) => {
  const server = createServer(
    { cert: start.cert, key: start.key, ca: start.ca, requestCert: true, rejectUnauthorized: true, minVersion: 'TLSv1.3' },
    (socket) => {
      socket.on('error', () => undefined);
      socket.write('k');
    },
  );
  server.on('tlsClientError', () => undefined);
  void startListening(server, { scheme: 'tls' }).then(({ port }) => process.send!({ port }));
  process.on('message', (m) => {
    if (m !== 'cpu') return;
    const { user, system } = process.cpuUsage();
    process.send!({ cpuUs: user + system });
  });
});
