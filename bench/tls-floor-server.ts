// The bare side of the TLS floor (tls-floor.ts): a Node TLS 1.3 server that asks for a client certificate, verifies
// its chain with OpenSSL and answers one byte, with no HTTP and no SVID rules. Its CPU is read over IPC.
import { createServer } from 'node:tls';

export interface FloorServerStart {
  cert: string;
  key: string;
  ca: string;
}

process.once('message', (start: FloorServerStart) => {
  const server = createServer(
    { cert: start.cert, key: start.key, ca: start.ca, requestCert: true, rejectUnauthorized: true, minVersion: 'TLSv1.3' },
    (socket) => {
      socket.on('error', () => undefined);
      socket.write('k');
    },
  );
  server.on('tlsClientError', () => undefined);
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.send!({ port: typeof address === 'object' && address ? address.port : 0 });
  });
  process.on('message', (m) => {
    if (m !== 'cpu') return;
    const { user, system } = process.cpuUsage();
    process.send!({ cpuUs: user + system });
  });
});
