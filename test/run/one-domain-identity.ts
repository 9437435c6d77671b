// A correct identity role of one trust domain, as a vendor may build it: its withdrawIdentityDocument withdraws the very
// bundle its rotation checks read (the reference keeps a domain apart for withdrawals, which hides the race). Hooks are
// served as examples/hooks/serve-admin.sh expects (POST /hooks/<name>, bearer token). Prints one JSON line, then runs
// until stdin closes. `node --import ./bin/typescript.mjs test/run/one-domain-identity.ts <folder for ca.pem>`
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRootCa, issueCertificate } from '../../protocol/pki.ts';
import { startIdentity } from '../../reference/identity/server.ts';

const dir = process.argv[2] ?? '.';
const ca = await createRootCa('one-domain identity CA');
const leaf = await issueCertificate(ca, { commonName: 'one-domain identity', ipAddresses: ['127.0.0.1'], usage: ['server'] });
const identity = await startIdentity({
  tls: { cert: leaf.certPem + ca.certPem, key: leaf.keyPem },
  vendor: 'platform',
  withdrawableTrustDomain: 'withdrawable.wfmck.test',
});
const token = randomBytes(16).toString('hex');
const hooks: Record<string, (input: Record<string, unknown>) => Promise<unknown>> = {
  rotateTrustAnchor: (input) => identity.hooks.rotateTrustAnchor(input as never),
  // The bundle is this domain's own; the discovery document stays the reference's separate one (it has no switch here).
  withdrawIdentityDocument: async (input) => {
    if (input.resource !== 'bundle') return identity.hooks.withdrawIdentityDocument(input as never);
    identity.bundleAvailable(input.withdrawn !== true);
    return { url: identity.trustBundleUri };
  },
};
const admin = createServer((req, res) => {
  const name = /^\/hooks\/(\w+)$/.exec(req.url ?? '')?.[1];
  const hook = name === undefined ? undefined : hooks[name];
  if (req.headers.authorization !== `Bearer ${token}` || !hook) return void res.writeHead(404).end();
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    hook(JSON.parse(body) as Record<string, unknown>).then(
      (answer) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer)),
      (e: Error) => res.writeHead(500).end(e.message),
    );
  });
});
await new Promise<void>((resolve) => admin.listen(0, '127.0.0.1', resolve));
const caFile = join(dir, 'one-domain-ca.pem');
writeFileSync(caFile, ca.certPem);
const { port } = admin.address() as { port: number };
console.log(
  JSON.stringify({
    identity: identity.url,
    discovery: identity.discoveryUrl,
    caFile,
    adminUrl: `http://127.0.0.1:${port}`,
    adminToken: token,
  }),
);
process.stdin.resume();
process.stdin.on('end', () => void Promise.all([identity.close(), new Promise((r) => admin.close(r))]).then(() => process.exit(0)));
