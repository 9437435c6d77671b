// `wfmck serve`: the embedded reference services, until SIGINT/SIGTERM. Prints one JSON line with every URL.
import { parseArgs } from 'node:util';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startEmbedded, writeTrustFiles } from '../run/embedded.ts';
import { resolveProfile } from '../spec/profile.ts';
import { EXIT_OK, UsageError } from '../run/usage.ts';
import { loopbackHost, oneOfFlag, port } from '../run/args.ts';
import { EDITIONS } from '../spec/requirements.ts';

const HELP = `usage: wfmck serve [options]

Starts the reference WFM, identity role and OCI registry (HTTPS, one kit CA) and the admin API (hooks of P5).
State is in memory and is gone when the process exits.

  --host ADDR           loopback address to listen on (default 127.0.0.1; ::1 allowed)
  --wfm-port N          port of the WFM (default: any free port); likewise --identity-port, --registry-port, --admin-port
  --vendor TOKEN        vendor token of media types and the discovery path (profile P1, default platform)
  --edition E           seed (default) or miaf (P10: the WFM takes mutual TLS with X.509-SVIDs, serves the rc.3 paths
                        and answers problem details; device-ca.pem/key is then the SVID CA in its trust bundle)
  --state-dir DIR       where to write ca.pem, device-ca.pem and device-ca.key (default: a new temp folder)
  --fault ID            switch on a fault of reference/faults/ (repeat, or comma-separate): a variant that breaks that rule
`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      'wfm-port': { type: 'string' },
      'identity-port': { type: 'string' },
      'registry-port': { type: 'string' },
      'admin-port': { type: 'string' },
      vendor: { type: 'string' },
      edition: { type: 'string' },
      'state-dir': { type: 'string' },
      fault: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  }).valueOf() as { values: Record<string, string | boolean | undefined> };
  if (values.help) {
    process.stdout.write(HELP);
    return EXIT_OK;
  }
  const host = loopbackHost(values.host as string);
  if (values.vendor !== undefined && !/^[a-z0-9]+$/.test(values.vendor as string)) throw new UsageError('--vendor takes lowercase letters and digits');
  const embedded = await startEmbedded({
    host,
    ports: {
      wfm: port(values['wfm-port'], '--wfm-port'),
      identity: port(values['identity-port'], '--identity-port'),
      registry: port(values['registry-port'], '--registry-port'),
      admin: port(values['admin-port'], '--admin-port'),
    },
    profile: resolveProfile({ vendor: values.vendor as string | undefined, edition: oneOfFlag(values.edition, '--edition', EDITIONS) }),
    faults: ((values.fault ?? []) as unknown as string[]).flatMap((f) => f.split(',')).map((f) => f.trim()).filter(Boolean),
  });
  const dir = values['state-dir'] ? resolve(values['state-dir'] as string) : await mkdtemp(join(tmpdir(), 'wfmck-serve-'));
  const files = await writeTrustFiles(embedded, dir);
  process.stdout.write(
    JSON.stringify({
      wfm: embedded.wfm,
      identity: embedded.identity,
      discovery: embedded.discovery,
      trustBundleUri: embedded.trustBundleUri,
      extraDiscovery: embedded.extraDiscovery,
      registry: embedded.registry,
      admin: embedded.admin.url,
      adminToken: embedded.admin.token,
      ...files,
      // The server's own pid: wrappers such as `npx` do not forward signals, so scripts stop it by this pid.
      pid: process.pid,
      faults: embedded.faults,
      ...(embedded.spiffe && { edition: 'miaf', trustDomain: embedded.spiffe.trustDomain, wfmId: embedded.spiffe.wfmId }),
    }) + '\n',
  );
  await new Promise<void>((resolveStop) => {
    const stop = () => resolveStop();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await embedded.close();
  return EXIT_OK;
}
