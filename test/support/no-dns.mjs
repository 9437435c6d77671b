// Preloaded into a wfmck child process (NODE_OPTIONS=--import): no DNS query leaves the machine. Every name but
// localhost fails as not found (an IP address, which undici's fetch passes to lookup too, is answered), and is appended
// to WFMCK_NO_DNS, so a test can show that each socket to a pinned name (--resolve) went through the pin.
import { appendFileSync } from 'node:fs';
import dns from 'node:dns';
import { isIP } from 'node:net';
import { syncBuiltinESMExports } from 'node:module';

const file = process.env.WFMCK_NO_DNS;
const real = dns.lookup;
dns.lookup = function (hostname, options, callback) {
  const done = typeof options === 'function' ? options : callback;
  if (hostname === 'localhost' || isIP(hostname) !== 0) return real.call(this, hostname, options, callback);
  if (file) appendFileSync(file, `${process.pid} ${hostname}\n`);
  process.nextTick(() => done(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname} (no DNS in this test)`), { code: 'ENOTFOUND' })));
};
// `import { lookup } from 'node:dns'` bindings follow the patched function too.
syncBuiltinESMExports();
