// `wfmck fleet`: a simulated fleet against a WFM (the embedded one by default), with live progress and
// fleet-summary.json. Exit 0 when every device onboarded and reported with nothing unexpected; 1 otherwise; 2 usage
// or a target that refuses TCP. A target that accepts TCP and then misbehaves is a failed run (1) with evidence.
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startEmbedded, type Embedded } from '../run/embedded.ts';
import { loadIssued } from '../protocol/pki.ts';
import { DEFAULT_HOOK_TIMEOUT_MS, assignerOf, parseComponentRef, sampleDeployments, type DeploymentSource } from '../simulators/fleet/deployments.ts';
import { runHook } from '../run/hooks.ts';
import { progressWriter } from '../simulators/fleet/progress.ts';
import { runFleet, type FleetTarget } from '../simulators/fleet/runner.ts';
import { loadFleetFile, parseFleetInput, resolveFleetSpec, type FleetSpec } from '../simulators/fleet/spec.ts';
import { fleetSummary, writeSummary, type FleetSummary } from '../simulators/fleet/summary.ts';
import { loopbackUrl, unreachable } from '../simulators/fleet/target.ts';
import { resolveProfile } from '../spec/profile.ts';
import { EXIT_FAIL, EXIT_OK, UsageError } from '../run/usage.ts';
import { oneOfFlag } from '../run/args.ts';
import { EDITIONS } from '../spec/requirements.ts';
import { SVID_KEY_ALGORITHMS } from '../spec/rules/svid-leaf.ts';

const HELP = `usage: wfmck fleet [options]

Simulates a fleet of devices and gateways: each one fetches the root CA, onboards, reports its capabilities, then
polls desired state until the duration ends, applying and reporting the deployments it is given. Without --wfm it
runs against the embedded reference services, publishes the sample compose component (hello-compose) into the
embedded registry and assigns deployments of it. Targets must be loopback addresses. Ctrl-C stops cleanly and
still writes the summary (interrupted: true). Exit 0 when every device onboarded and reported with nothing
unexpected, 1 otherwise (a target that accepts connections but hangs or answers garbage included), 2 for usage
errors and a target that refuses connections.

fleet (a --fleet-file YAML mapping uses the camelCase names in brackets; flags win over the file):
  --devices N              plain devices [devices] (default 10)
  --see-thru-gateways N    see-thru gateways [seeThruGateways] (default 0)
  --opaque-gateways N      opaque gateways [opaqueGateways] (default 0)
  --children N             children per gateway [children] (default 2)
  --depth N                see-thru levels below a gateway, 2 = gw/mid/leaf [depth] (default 1)
  --hosts-workloads R      share of see-thru gateways that host workloads, 0..1 [hostsWorkloads] (default 0.5)
  --faults LIST            fault mix, e.g. crashingContainer=0.05,flappingCapabilities=0.1 [faults]
  --seed N                 data and fault seed [seed] (default: random, echoed in the summary)
  --shard i/n              run only top-level devices k with k mod n = i-1 [shard] (default 1/1)
  --id-prefix TEXT         first part of every deviceId [idPrefix] (default wfmck)
  --quantity-format F      spaced ("16 Gi") or compact ("16Gi"), profile P8 [quantityFormat] (default spaced)
  --deployments N          deployments per workload-hosting device, plus N "<gateway>/*" per see-thru gateway
                           with hosting devices behind it [deployments] (default 1 on the embedded default or
                           with --hook-assign-deployment, else 0)
  --time-scale X           multiplies simulated waits: a 5-minute compose timeout (unhealthyContainer) takes
                           300 ms at the default [timeScale] (default 0.001)
Faults: crashingContainer and unhealthyContainer fail a device's deployments (an expected outcome, counted in
failedByFault); stateLoss makes a device resynchronise; clockSkewSeconds shifts its signatures' created by up to
±55 s, inside the reference's tolerance (60 s ahead, 300 s old), so a correct WFM accepts every device.
load:
  --rate N                 requests per second across the fleet, 0 = no limit [rate] (default 0)
  --burst N                token bucket size [burst] (default 50)
  --duration S             seconds devices keep ticking after the run starts [duration] (default 10)
  --tick-interval S        seconds between two ticks of one device [tickInterval] (default 1)
  --concurrency N          devices starting or ticking at once [concurrency] (default 64)
  --timeout MS             one request, body included, before WFMCK_E_TIMEOUT [timeout] (default 10000)
  --fleet-file FILE        YAML file with any of the settings above
target:
  --wfm URL                WFM base URL (loopback only); needs --device-ca-cert and --device-ca-key
  --ca FILE                PEM of the CA of the WFM's TLS certificate
  --edition E              seed (default: onboarding and signatures) or miaf (P10: each device its own X.509-SVID
                           from the device CA, one mutual-TLS connection per device, no onboarding)
  --trust-domain TD        miaf with --wfm: the SPIFFE trust domain of the WFM and its clients
  --wfm-id ID              miaf with --wfm: the <wfm-id> of spiffe://<td>/<vendor>/wfm/<wfm-id>
  --svid-key K             miaf: key of each device's SVID: P-256 (default, mandatory to implement), P-384, Ed25519,
                           RSA-3072
  --source-addresses N     miaf: connect from 127.0.0.1 .. 127.0.0.N, round robin, so one connection per device
                           is not capped by one address's ephemeral ports (default: one per 16,000 devices, at least 2)
  --device-ca-cert FILE    a CA the WFM trusts for device certificates (as written by wfmck serve --state-dir)
  --device-ca-key FILE     its private key
  --vendor TOKEN           vendor token, profile P1 (default platform)
  --hook-assign-deployment CMD  P5 assignDeployment hook of the --wfm (JSON on stdin, {deploymentId} on stdout)
  --component REF          what that hook assigns: oci://HOST[:PORT]/NAME:REVISION, a published compose component
  --out DIR                where fleet-summary.json goes (default reports/out/fleet-<timestamp>)
`;

const FLAG_TO_KEY: Record<string, keyof FleetSpec> = {
  devices: 'devices', 'see-thru-gateways': 'seeThruGateways', 'opaque-gateways': 'opaqueGateways', children: 'children',
  depth: 'depth', 'hosts-workloads': 'hostsWorkloads', faults: 'faults', seed: 'seed', shard: 'shard', 'id-prefix': 'idPrefix',
  'quantity-format': 'quantityFormat', rate: 'rate', burst: 'burst', duration: 'duration', 'tick-interval': 'tickInterval',
  concurrency: 'concurrency', deployments: 'deployments', 'time-scale': 'timeScale', timeout: 'timeout',
};
const OTHER_FLAGS = ['fleet-file', 'wfm', 'ca', 'device-ca-cert', 'device-ca-key', 'vendor', 'out', 'hook-assign-deployment', 'component', 'edition', 'trust-domain', 'wfm-id', 'source-addresses', 'svid-key'];
/** miaf: devices per loopback source address by default, well under one address's ~28k ephemeral ports. */
const DEVICES_PER_SOURCE = 16_000;

export async function run(argv: string[]): Promise<number> {
  const values = parse(argv);
  if (values.help) return void process.stdout.write(HELP), EXIT_OK;
  const flags: Record<string, unknown> = {};
  const flagOf: Record<string, string> = {};
  for (const [flag, key] of Object.entries(FLAG_TO_KEY)) [flags[key], flagOf[key]] = [values[flag], `--${flag}`];
  const fromFile = typeof values['fleet-file'] === 'string' ? await loadFleetFile(values['fleet-file']) : {};
  const spec = resolveFleetSpec(fromFile, parseFleetInput(flags, (key) => flagOf[key] ?? key));
  const out = resolve(str(values.out) ?? join('reports', 'out', `fleet-${new Date().toISOString().replace(/[:.]/g, '-')}`));
  const vendor = str(values.vendor);
  if (vendor !== undefined && !/^[a-z0-9]+$/.test(vendor)) throw new UsageError('--vendor takes lowercase letters and digits');
  const edition = oneOfFlag(values.edition, '--edition', EDITIONS);
  const svidKey = oneOfFlag(values['svid-key'], '--svid-key', SVID_KEY_ALGORITHMS);
  const profile = resolveProfile({ vendor, quantityFormat: spec.quantityFormat, ...(edition && { edition }), ...(svidKey && { svidKeyAlgorithm: svidKey }) });

  let embedded: Embedded | undefined;
  let target: FleetTarget;
  const wfm = str(values.wfm);
  if (wfm !== undefined) {
    const deployments = foreignDeployments(spec, values);
    target = { ...(await foreignTarget(wfm, values)), profile, ...(deployments ? { deployments } : {}) };
    if (profile.edition === 'miaf') {
      const trustDomain = str(values['trust-domain']);
      const wfmId = str(values['wfm-id']);
      if (!trustDomain || !wfmId) throw new UsageError('--edition miaf with --wfm needs --trust-domain and --wfm-id (the WFM is spiffe://<td>/<vendor>/wfm/<wfm-id>)');
      target.spiffe = { trustDomain, wfmId };
    }
  } else {
    if (str(values['hook-assign-deployment']) ?? str(values.component)) throw new UsageError('--hook-assign-deployment and --component go with --wfm');
    embedded = await startEmbedded({ profile });
    target = { wfm: embedded.wfm, ca: embedded.caPem, deviceCa: embedded.deviceCa, profile };
    const admit = embedded.hooks['admitClient'];
    if (embedded.spiffe && admit) target.spiffe = { ...embedded.spiffe, admit: async (spiffeId) => void (await admit({ spiffeId })) };
    if ((spec.deployments ?? 1) > 0) target.deployments = await sampleDeployments(embedded.registry, embedded.caPem, profile.vendor, embedded.hooks['assignDeployment']!);
  }

  if (profile.edition === 'miaf') target.sourceAddresses = sourceAddresses(values['source-addresses'], spec.devices);
  const stop = new AbortController();
  const interrupt = () => stop.abort(new Error('interrupted by signal'));
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  const progress = progressWriter(process.stderr);
  try {
    const result = await runFleet(spec, target, { signal: stop.signal, onProgress: (p) => progress.update(p) });
    const totals = result.totals;
    progress.done({ elapsedMs: result.wallMs, clientsTotal: result.layout.clients, clients: totals.clients, requests: totals.requests.total, errors: totals.errors });
    const summary = fleetSummary(result, target);
    const file = await writeSummary(out, summary);
    process.stdout.write(
      `${summary.passed ? 'PASS' : 'FAIL'} ${totals.clients.reporting}/${result.layout.clients} devices reporting, ` +
        `${totals.deviceIdsCreated}/${result.layout.deviceIds} deviceIds created, ${totals.requests.unexpected} unexpected, ` +
        `${totals.requests.transportErrors} transport errors${summary.interrupted ? ', interrupted' : ''}; ` +
        `${deploymentLine(totals.deployments)}; ` +
        `${summary.throughput.onboardedPerSecond} onboarded/s, ${summary.throughput.requestsPerSecond} req/s, ${(result.wallMs / 1000).toFixed(1)} s, ` +
        `seed ${spec.seed}\n${file}\n`,
    );
    return summary.passed ? EXIT_OK : EXIT_FAIL;
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    await embedded?.close();
  }
}

/** Against a foreign WFM, deployments need its assignDeployment hook and a component to assign. */
function foreignDeployments(spec: FleetSpec, values: Record<string, string | boolean | undefined>): DeploymentSource | undefined {
  const command = str(values['hook-assign-deployment']);
  const ref = str(values.component);
  const wanted = spec.deployments ?? (command ? 1 : 0);
  if (wanted === 0) return undefined;
  if (!command) throw new UsageError('--deployments against --wfm needs --hook-assign-deployment CMD (P5 assignDeployment)');
  if (!ref) throw new UsageError('--hook-assign-deployment needs --component oci://HOST[:PORT]/NAME:REVISION (a published compose component)');
  const component = parseComponentRef(ref);
  if (!component) throw new UsageError(`--component: "${ref}" is not oci://HOST[:PORT]/NAME:REVISION`);
  // Devices pull what they are given; the fleet still never reaches past loopback.
  loopbackUrl(component.repository.replace(/^oci:/, 'https:'), '--component');
  // P5: JSON on stdin, `{deploymentId}` on stdout.
  return { components: [component], assign: assignerOf((input) => runHook('assignDeployment', { kind: 'command', command, timeoutMs: DEFAULT_HOOK_TIMEOUT_MS }, input)) };
}

function deploymentLine(d: FleetSummary['totals']['deployments']): string {
  const sum = (m: Record<string, number>) => Object.values(m).reduce((a, b) => a + b, 0);
  return `deployments ${d.installed}/${d.assigned} installed, ${sum(d.failedByFault)} failed by fault, ${sum(d.failed)} failed unexpectedly, ${d.pending} pending`;
}

function parse(argv: string[]): Record<string, string | boolean | undefined> {
  const options = Object.fromEntries([...Object.keys(FLAG_TO_KEY), ...OTHER_FLAGS].map((f) => [f, { type: 'string' as const }]));
  try {
    return parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false }).values;
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n\n${HELP}`);
  }
}

async function foreignTarget(wfm: string, values: Record<string, string | boolean | undefined>): Promise<FleetTarget> {
  const url = loopbackUrl(wfm);
  const certFile = str(values['device-ca-cert']);
  const keyFile = str(values['device-ca-key']);
  if (!certFile || !keyFile) throw new UsageError('--wfm needs --device-ca-cert and --device-ca-key (a CA the WFM trusts for device certificates)');
  const deviceCa = await loadIssued(await readText(certFile, '--device-ca-cert'), await readText(keyFile, '--device-ca-key')).catch((err: Error) => {
    throw new UsageError(`--device-ca-cert/--device-ca-key: cannot load the device CA: ${err.message}`);
  });
  const caFile = str(values.ca);
  const ca = caFile === undefined ? undefined : await readText(caFile, '--ca');
  const reason = await unreachable(url);
  if (reason) throw new UsageError(`--wfm ${url.origin} is unreachable: ${reason}`);
  return { wfm: url.href.replace(/\/$/, ''), deviceCa, ...(ca === undefined ? {} : { ca }) };
}

async function readText(file: string, flag: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(`${flag} ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

function str(v: string | boolean | undefined): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** 127.0.0.1 .. 127.0.0.N: Linux answers the whole of 127.0.0.0/8 on the loopback interface. */
function sourceAddresses(flag: string | boolean | undefined, devices: number): string[] {
  const n = flag === undefined ? Math.max(2, Math.ceil(devices / DEVICES_PER_SOURCE)) : Number(flag);
  if (!Number.isInteger(n) || n < 1 || n > 254) throw new UsageError('--source-addresses takes a whole number from 1 to 254');
  return Array.from({ length: n }, (_, i) => `127.0.0.${i + 1}`);
}
