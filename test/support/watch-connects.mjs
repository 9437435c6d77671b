// Preloaded into a wfmck child process (NODE_OPTIONS=--import): appends every outbound connection attempt the
// process (or its children: NODE_OPTIONS is inherited) makes to a host off loopback to WFMCK_WATCH_CONNECTS.
import { appendFileSync } from 'node:fs';
import { subscribe } from 'node:diagnostics_channel';
import net from 'node:net';

const file = process.env.WFMCK_WATCH_CONNECTS;
const loopback = (host) => host === 'localhost' || host === '::1' || host === '[::1]' || /^127\./.test(host ?? '');
const note = (host, via) => {
  if (file && host && !loopback(String(host))) appendFileSync(file, `${process.pid} ${via} ${host}\n`);
};
// undici (fetch, request): every connection it opens.
subscribe('undici:client:beforeConnect', ({ connectParams }) => note(connectParams?.hostname ?? connectParams?.host, 'undici'));
// Everything else that opens a TCP socket by host name.
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
  const opts = typeof args[0] === 'object' && args[0] !== null && !Array.isArray(args[0]) ? args[0] : { host: args[1] };
  note(opts.host, 'net');
  return connect.apply(this, args);
};
