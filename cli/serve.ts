// `wfmck serve`: the embedded reference services, until SIGINT/SIGTERM. Prints one JSON line with every URL.
import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Embedded } from '../run/processes/embedded.ts';
import { resolveProfile, type Edition } from '../spec/profile.ts';
import { EXIT_OK } from '../run/options/usage.ts';
import { anyListenAddress, path, portNumber, text } from '../run/options/args.ts';
import { isHostName } from '../protocol/pinned-lookup.ts';
import { isLoopbackHost } from '../spec/loopback.ts';
import { helpText, parseCommand, type CommandSpec, type Option } from '../run/options/options.ts';
import { EDITION, FAULT, LISTEN, VENDOR, WFM_PORT } from '../run/options/option-sets.ts';

/** `--hostname`: a DNS name for the certificate's SANs. */
function hostName(raw: unknown): string {
  const name = text(raw).toLowerCase();
  if (!isHostName(name)) throw new Error(`"${name}" is not a DNS name`);
  return name;
}

/** The one line said when the services listen beyond loopback (a pod's address, 0.0.0.0). */
export function listenNotice(host: string): string | undefined {
  if (isLoopbackHost(host)) return undefined;
  return `wfmck serve: notice: listening on ${host}: the reference services, their faults (hostile answers) and the admin API (its bearer token still required) are reachable from beyond this machine`;
}

/** What stops serve: Ctrl-C, a kill, the terminal closing. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

const port = (flag: string, service: string): Option => ({
  flag,
  value: 'N',
  doc: `port of the ${service} (default 0: any free port)`,
  parse: portNumber,
});

export const SPEC: CommandSpec = {
  name: 'serve',
  usage: ['[options]'],
  about: `Starts the reference WFM, identity role and OCI registry (HTTPS, one kit CA) and the admin API (hooks of P5), and
prints one JSON line with their URLs (on a terminal, a line for people on stderr too). State is in memory and is gone
when the process exits (SIGINT, SIGTERM, SIGHUP), and so is the temp folder of the CA files unless --state-dir named it.
It also exits when the process that started it goes away (\`npx wfmck serve &\` then \`kill $!\` ends both), unless it
was started in a session of its own (\`setsid\`).`,
  groups: [
    {
      options: [
        {
          ...LISTEN,
          doc: "address the services listen on (default 127.0.0.1): any address of this machine, a pod's or 0.0.0.0 (every interface), with a notice",
          parse: anyListenAddress,
        },
        {
          flag: 'hostname',
          value: 'NAME',
          multiple: true,
          doc: "a DNS name the services' certificate carries beside localhost and 127.0.0.1 (repeat), so clients name them by it (curl --resolve, wfmck run --resolve)",
          parse: hostName,
        },
        { ...WFM_PORT, doc: 'port of the WFM (default 0: any free port)' },
        port('identity-port', 'identity role'),
        port('registry-port', 'OCI registry'),
        port('admin-port', 'admin API'),
        VENDOR,
        {
          ...EDITION,
          doc: `${EDITION.doc}; in miaf the WFM takes mutual TLS with X.509-SVIDs and device-ca.pem/key is the SVID CA in its trust bundle`,
        },
        {
          flag: 'state-dir',
          value: 'DIR',
          doc: 'where to write ca.pem, device-ca.pem and device-ca.key, kept on exit (default: a new temp folder, removed on exit)',
          parse: path,
        },
        { ...FAULT, doc: 'switch on a fault of reference/faults/: a variant that breaks that rule (repeat, or comma-separate)' },
      ],
    },
  ],
};

export async function run(argv: string[]): Promise<number> {
  const { help, values } = parseCommand(SPEC, argv);
  if (help) return (void process.stdout.write(helpText(SPEC)), EXIT_OK);
  const num = (flag: string) => values[flag] as number | undefined;
  const host = (values.listen as string | undefined) ?? '127.0.0.1';
  // The services' modules load only now: --help and a usage error cost a fraction of their start-up.
  const { startEmbedded } = await import('../run/processes/embedded.ts');
  const embedded = await startEmbedded({
    host,
    hostnames: (values.hostname as string[] | undefined) ?? [],
    ports: { wfm: num('wfm-port'), identity: num('identity-port'), registry: num('registry-port'), admin: num('admin-port') },
    profile: resolveProfile({ vendor: values.vendor as string | undefined, edition: values.edition as Edition | undefined }),
    faults: (values.fault as string[][] | undefined)?.flat() ?? [],
  });
  const notice = listenNotice(host);
  if (notice) process.stderr.write(`${notice}\n`);
  // A folder of its own holds the device CA's private key: it goes when serve does (a --state-dir is the user's).
  const temp = values['state-dir'] === undefined ? await mkdtemp(join(tmpdir(), 'wfmck-serve-')) : undefined;
  const removeTemp = () => temp !== undefined && rmSync(temp, { recursive: true, force: true });
  // Held until the folder is gone: a second Ctrl-C while the services close must not skip the clean-up.
  let stop!: () => void;
  const stopped = new Promise<void>((resolveStop) => (stop = resolveStop));
  for (const signal of STOP_SIGNALS) process.on(signal, stop);
  process.once('exit', removeTemp);
  try {
    await serveUntil(stopped, embedded, (values['state-dir'] as string | undefined) ?? temp!, temp !== undefined);
  } finally {
    await embedded.close();
    removeTemp();
    process.off('exit', removeTemp);
    for (const signal of STOP_SIGNALS) process.off(signal, stop);
  }
  return EXIT_OK;
}

async function serveUntil(stopped: Promise<void>, embedded: Embedded, dir: string, temporary: boolean): Promise<void> {
  const { writeTrustFiles } = await import('../run/processes/embedded.ts');
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
  // A person at a terminal reads one line; a script reads the JSON above (stdout stays that one line).
  if (process.stdout.isTTY) {
    const state = temporary ? `${dir}, removed on exit` : dir;
    process.stderr.write(
      `wfmck serve: ready: WFM ${embedded.wfm}, identity ${embedded.identity}, registry ${embedded.registry}, admin ${embedded.admin.url}; CA ${files.caFile}; state in memory, files in ${state}; Ctrl-C stops\n`,
    );
  }
  await stopped;
}
