// `wfmck fleet`: a simulated fleet against a WFM (the embedded one by default), with live progress and
// fleet-summary.json. Exit 0 when every device onboarded and reported with nothing unexpected; 1 otherwise; 2 usage
// or a target that refuses TCP; 128 + the signal that stopped it. A target that accepts TCP and then misbehaves is a
// failed run (1) with evidence.
import { createWriteStream } from 'node:fs';
import { availableParallelism } from 'node:os';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { startEmbeddedProcess, type EmbeddedProcess } from '../run/processes/embedded-process.ts';
import { boundHeapGrowth, DEFAULT_HEAP_GROWTH_PERCENT } from '../simulators/fleet/heap-growth.ts';
import { createRootCa, loadIssued, type Issued } from '../protocol/pki.ts';
import { credentialCache, tightenCache, type Tightened } from '../simulators/fleet/cert-cache.ts';
import {
  DEFAULT_HOOK_TIMEOUT_MS,
  assignerOf,
  parseComponentRef,
  sampleDeployments,
  type AssignedComponent,
  type DeploymentSource,
} from '../simulators/fleet/assigned-deployments.ts';
import { runHook } from '../run/contract/hooks.ts';
import { progressWriter, type FleetProgress } from '../simulators/fleet/progress.ts';
import { runFleet, withDeployments, type FleetTarget, type IntervalMetrics } from '../simulators/fleet/runner.ts';
import { usefulWorkers } from '../simulators/fleet/worker-shares.ts';
import { runFleetWorkers, type FleetWorkersOptions, type FleetWorkersOutcome } from '../run/processes/fleet-workers.ts';
import { loadFleetFile, parseFleetInput, resolveFleetSpec, type FleetSpec } from '../simulators/fleet/spec.ts';
import { fleetSummary, writeSummary, type FleetSummary } from '../simulators/fleet/summary.ts';
import { latencyLines } from '../simulators/fleet/progress.ts';
import { thresholdLines } from '../simulators/fleet/thresholds.ts';
import { unreachable } from '../simulators/fleet/target.ts';
import { resolveProfile, type Edition, type Profile } from '../spec/profile.ts';
import { nameTargets, remoteNotice } from '../spec/network-policy.ts';
import { EXIT_FAIL, EXIT_OK, EXIT_USAGE, UsageError } from '../run/options/usage.ts';
import { helpText, parseCommand, type CommandSpec } from '../run/options/options.ts';
import { pinsOf } from '../run/options/option-sets.ts';
import { FLEET_GROUPS } from '../run/options/fleet-settings.ts';
import { installPins } from '../protocol/pinned-lookup.ts';
import { SVID_KEY_ALGORITHMS } from '../spec/rules/svid-leaf.ts';
import { catchSignals, signalExitCode } from '../run/processes/signals.ts';

export const SPEC: CommandSpec = {
  name: 'fleet',
  usage: ['[options]'],
  about: `Simulates a fleet of devices and gateways: each one fetches the root CA, onboards, reports its capabilities, then
polls desired state until the duration ends, applying and reporting the deployments it is given. Without --wfm it
runs against the embedded reference services, publishes the sample compose component (hello-compose) into the
embedded registry and assigns deployments of it. A --wfm off loopback is said once on stderr: the fleet is load.
Devices contact only the hosts you name (--wfm, --component) and loopback. Ctrl-C (SIGINT), SIGTERM and SIGHUP stop
it cleanly and still write the summary (interrupted: true), as does the end of the process that started it. Exit 0
when every device onboarded and reported with nothing unexpected and every --threshold held, 1 otherwise (a target
that accepts connections but hangs or answers garbage included), 2 for usage errors and a target that refuses
connections, 130, 143 or 129 when stopped by SIGINT, SIGTERM or SIGHUP. It ends with p50/p95/p99 per endpoint.
With --workers N (N > 1) the fleet runs in N worker processes, each a shard of it: one progress line, one summary
merged as \`wfmck merge\` merges shards (thresholds judged on the merged figures; fleet CPU is the workers' plus this
process's, peak RSS the largest worker's). A worker that ends without its summary fails the run with exit 2, named
with the end of its stderr; the partial summary is still written (complete: false).`,
  groups: FLEET_GROUPS,
};

/** What stops a fleet cleanly: Ctrl-C, a kill, the terminal closing (and, through run/processes/watchdog.ts, its parent going away). */

/** miaf: devices per loopback source address by default, well under one address's ~28k ephemeral ports. */
const DEVICES_PER_SOURCE = 16_000;

export async function run(argv: string[]): Promise<number> {
  const { help, values, spelling } = parseCommand(SPEC, argv);
  if (help) return (void process.stdout.write(helpText(SPEC)), EXIT_OK);
  installPins(pinsOf(values));
  const spec = await fleetSpecOf(values, spelling);
  const heapGrowthPercent = (values['heap-growth'] as number | undefined) ?? DEFAULT_HEAP_GROWTH_PERCENT;
  boundHeapGrowth(heapGrowthPercent);
  const workers = usefulWorkers(spec, workersOf(values));
  const out = resolve(str(values.out) ?? join('reports', 'out', `fleet-${new Date().toISOString().replace(/[:.]/g, '-')}`));
  const edition = values.edition as Edition | undefined;
  const svidKey = values['svid-key'] as (typeof SVID_KEY_ALGORITHMS)[number] | undefined;
  const profile = resolveProfile({
    vendor: str(values.vendor),
    quantityFormat: spec.quantityFormat,
    ...(edition && { edition }),
    ...(svidKey && { svidKeyAlgorithm: svidKey }),
  });

  const cache = values['cert-cache'] as string | undefined;
  if (cache !== undefined) {
    const notice = tightenedNotice(cache, await tightenCache(cache));
    if (notice) process.stderr.write(`${notice}\n`);
  }
  const { target, embedded } = await targetOf(spec, values, profile, cache);
  if (cache !== undefined) target.certCache = cache;
  if (profile.edition === 'miaf')
    target.sourceAddresses = sourceAddresses(values['source-addresses'] as number | undefined, spec.devices, workers);
  // A spec the target cannot serve is a usage error before any worker starts.
  withDeployments(spec, target);
  const stop = new AbortController();
  // The first signal stops the fleet and still writes the summary; the exit code says which signal (a second one kills).
  const signals = catchSignals({ secondKills: true, onSignal: (signal) => stop.abort(new Error(`interrupted by ${signal}`)) });
  const progress = progressWriter(process.stderr);
  try {
    const metricsOut = values['metrics-out'] === undefined ? undefined : createWriteStream(values['metrics-out'] as string);
    const servicesCpu0 = await embedded?.cpu();
    const ran = await fleetRun(spec, target, {
      workers,
      signal: stop.signal,
      onProgress: (p) => progress.update(p),
      ...(metricsOut && { onMetrics: (m: IntervalMetrics) => void metricsOut.write(JSON.stringify(m) + '\n') }),
      heapGrowthPercent,
    }).finally(() => metricsOut && new Promise((resolveEnd) => metricsOut.end(resolveEnd)));
    const summary = withServices(ran.summary, servicesCpu0, servicesCpu0 && (await embedded!.cpu().catch(() => undefined)));
    progress.done(progressOf(summary));
    const file = await writeSummary(out, summary);
    printSummary(summary, file);
    for (const failure of ran.failures) process.stderr.write(`wfmck fleet: ${failure}\n`);
    if (signals.caught) return signalExitCode(signals.caught);
    // As a shard missing from `wfmck merge`: part of the fleet went unseen, which is no verdict on the target.
    if (ran.failures.length > 0) return EXIT_USAGE;
    return summary.passed ? EXIT_OK : EXIT_FAIL;
  } finally {
    signals.dispose();
    await embedded?.close();
  }
}

/** In this process (one worker), or over worker processes whose summaries merge into one. */
async function fleetRun(
  spec: FleetSpec,
  target: FleetTarget,
  opts: FleetWorkersOptions,
): Promise<FleetWorkersOutcome | { summary: FleetSummary; failures: [] }> {
  if (opts.workers > 1) return runFleetWorkers(spec, target, opts);
  const result = await runFleet(spec, target, {
    signal: opts.signal,
    onProgress: opts.onProgress,
    ...(opts.onMetrics && { onMetrics: opts.onMetrics }),
  });
  return { summary: fleetSummary(result, target), failures: [] };
}

/** --workers, or the machine's cores less the one the embedded default takes when it runs. */
function workersOf(values: Record<string, unknown>): number {
  const given = values.workers as number | undefined;
  return given ?? Math.max(1, availableParallelism() - (values.wfm === undefined ? 1 : 0));
}

/** The embedded services' CPU over the run and their peak RSS, beside the fleet's own. */
function withServices<S extends FleetSummary>(
  summary: S,
  before: { user: number; system: number } | undefined,
  after: { user: number; system: number; maxRssBytes: number } | undefined,
): S {
  if (!before || !after) return summary;
  const cpuMs = Math.round((after.user + after.system - before.user - before.system) / 1000);
  return { ...summary, cpu: { ...summary.cpu, embeddedServicesMs: cpuMs }, embeddedServicesPeakRssBytes: after.maxRssBytes };
}

/** The last progress line, from the summary (one process's or the workers' merged). */
function progressOf(summary: FleetSummary): FleetProgress {
  const totals = summary.totals;
  return {
    elapsedMs: summary.wallMs,
    clientsTotal: summary.expected.clients,
    clients: totals.clients,
    requests: totals.requests.total,
    errors: totals.errors,
  };
}

function printSummary(summary: FleetSummary, file: string): void {
  const totals = summary.totals;
  const expected = summary.expected;
  process.stdout.write(
    `${summary.passed ? 'PASS' : 'FAIL'} ${totals.clients.reporting}/${expected.clients} devices reporting, ` +
      `${totals.deviceIdsCreated}/${expected.deviceIds} deviceIds created, ${totals.requests.unexpected} unexpected, ` +
      `${totals.requests.transportErrors} transport errors${summary.interrupted ? ', interrupted' : ''}; ` +
      `${deploymentLine(totals.deployments)}; ` +
      `${summary.throughput.onboardedPerSecond} onboarded/s, ${summary.throughput.requestsPerSecond} req/s, ${(summary.wallMs / 1000).toFixed(1)} s, ` +
      `seed ${summary.seed}\n${file}\n`,
  );
  process.stdout.write(
    [...latencyLines(summary.latency), resourceLine(summary), ...thresholdLines(summary.thresholds)].map((l) => `  ${l}\n`).join(''),
  );
}

/** The fleet's settings: --fleet-file, then the flags over it (named in errors as they were spelled: --faults stays --faults). */
async function fleetSpecOf(values: Record<string, unknown>, spelling: Map<string, string>): Promise<FleetSpec> {
  const flags: Record<string, unknown> = {};
  const flagOf: Record<string, string> = {};
  for (const o of SPEC.groups.flatMap((g) => g.options).filter((x) => x.key))
    [flags[o.key!], flagOf[o.key!]] = [values[o.flag!], spelling.get(o.flag!) ?? `--${o.flag}`];
  const fromFile = typeof values['fleet-file'] === 'string' ? await loadFleetFile(values['fleet-file']) : {};
  return resolveFleetSpec(
    fromFile,
    parseFleetInput(flags, (key) => flagOf[key] ?? key),
  );
}

/** The WFM the fleet loads: the --wfm named, or the embedded default started in a process of its own. */
async function targetOf(
  spec: FleetSpec,
  values: Record<string, unknown>,
  profile: Profile,
  cache: string | undefined,
): Promise<{ target: FleetTarget; embedded?: EmbeddedProcess }> {
  const wfm = str(values.wfm);
  if (wfm !== undefined) {
    const deployments = foreignDeployments(spec, values);
    const target: FleetTarget = { ...(await foreignTarget(wfm, values)), profile, ...(deployments ? { deployments } : {}) };
    if (profile.edition === 'miaf') {
      const trustDomain = str(values['trust-domain']);
      const wfmId = str(values['wfm-id']);
      if (!trustDomain || !wfmId)
        throw new UsageError(
          '--edition: miaf with --wfm needs --trust-domain and --wfm-id (the WFM is spiffe://<td>/<vendor>/wfm/<wfm-id>)',
        );
      target.spiffe = { trustDomain, wfmId };
    }
    return { target };
  }
  const without = ['hook-assign-deployment', 'component'].find((f) => values[f] !== undefined);
  if (without) throw new UsageError(`--${without}: goes with --wfm (the embedded default assigns its own sample deployments)`);
  // With a cert cache, the embedded WFM trusts a device CA kept in it, so the devices' cached certificates stay good.
  const deviceCa = cache !== undefined && profile.edition === 'seed' ? await keptDeviceCa(cache) : undefined;
  // In a process of its own: the services' work and the fleet's run on separate cores, and are measured apart.
  const embedded = await startEmbeddedProcess({ profile, ...(deviceCa && { deviceCa }) });
  const target: FleetTarget = { wfm: embedded.wfm, ca: embedded.caPem, deviceCa: embedded.deviceCa, profile };
  const admit = embedded.hooks['admitClient'];
  if (embedded.spiffe && admit) target.spiffe = { ...embedded.spiffe, admit: async (spiffeId) => void (await admit({ spiffeId })) };
  if ((spec.deployments ?? 1) > 0)
    target.deployments = await sampleDeployments(embedded.registry, embedded.caPem, profile.vendor, embedded.hooks['assignDeployment']!);
  return { target, embedded };
}

/** One line for the whole cache, however many files it tightened (a fleet may reuse 100,000 of them). */
function tightenedNotice(dir: string, t: Tightened): string | undefined {
  if (t.files + t.folders === 0) return undefined;
  const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
  const what = [t.files && `${count(t.files, 'key file')} (now 600)`, t.folders && `${count(t.folders, 'folder')} (now 700)`];
  const modes = t.modes.map((m) => m.toString(8).padStart(3, '0')).join(', ');
  return `wfmck fleet: --cert-cache ${dir}: tightened ${what.filter(Boolean).join(' and ')}, readable by others before (mode ${modes})`;
}

function resourceLine(summary: FleetSummary): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const mb = (bytes: number) => `${Math.round(bytes / 1048576)} MB`;
  const { cpu, peakRssBytes, embeddedServicesPeakRssBytes: servicesRss } = summary;
  const services =
    cpu.embeddedServicesMs === undefined
      ? ''
      : `; embedded services ${s(cpu.embeddedServicesMs)}${servicesRss ? `, ${mb(servicesRss)}` : ''}`;
  return `cpu and peak RSS: fleet ${s(cpu.fleetMs)}, ${mb(peakRssBytes)}${services}`;
}

/** Against a foreign WFM, deployments need its assignDeployment hook and a component to assign. */
function foreignDeployments(spec: FleetSpec, values: Record<string, unknown>): DeploymentSource | undefined {
  const command = str(values['hook-assign-deployment']);
  const component = values.component as AssignedComponent | undefined;
  const wanted = spec.deployments ?? (command ? 1 : 0);
  if (wanted === 0) return undefined;
  if (!command) throw new UsageError('--deployments: against --wfm needs --hook-assign-deployment CMD (P5 assignDeployment)');
  if (!component)
    throw new UsageError('--hook-assign-deployment: needs --component oci://HOST[:PORT]/NAME:REVISION (a published compose component)');
  // P5: JSON on stdin, `{deploymentId}` on stdout.
  return {
    components: [component],
    assign: assignerOf((input) => runHook('assignDeployment', { kind: 'command', command, timeoutMs: DEFAULT_HOOK_TIMEOUT_MS }, input)),
  };
}

function deploymentLine(d: FleetSummary['totals']['deployments']): string {
  const sum = (m: Record<string, number>) => Object.values(m).reduce((a, b) => a + b, 0);
  return `deployments ${d.installed}/${d.assigned} installed, ${sum(d.failedByFault)} failed by fault, ${sum(d.failed)} failed unexpectedly, ${d.pending} pending`;
}

async function foreignTarget(wfm: string, values: Record<string, unknown>): Promise<FleetTarget> {
  const url = new URL(wfm);
  const certFile = str(values['device-ca-cert']);
  const keyFile = str(values['device-ca-key']);
  if (!certFile || !keyFile)
    throw new UsageError('--wfm: needs --device-ca-cert and --device-ca-key (a CA the WFM trusts for device certificates)');
  const deviceCa = await loadIssued(await readText(certFile, '--device-ca-cert'), await readText(keyFile, '--device-ca-key')).catch(
    (err: Error) => {
      throw new UsageError(`--device-ca-cert/--device-ca-key: cannot load the device CA: ${err.message}`);
    },
  );
  const caFile = str(values['ca-file']);
  const ca = caFile === undefined ? undefined : await readText(caFile, '--ca-file');
  // Before the first connection: the devices may reach the WFM and the component's registry the user named, and
  // loopback; nothing a peer names. Said once when they are off loopback: the fleet is load.
  const remote = remoteNotice(nameTargets([url, (values.component as AssignedComponent | undefined)?.repository]));
  if (remote) process.stderr.write(`wfmck fleet: ${remote}\n`);
  const reason = await unreachable(url);
  if (reason) throw Object.assign(new Error(`unreachable target: WFM ${url.origin}: ${reason}`), { code: 'WFMCK_E_UNREACHABLE' });
  return { wfm: url.href.replace(/\/$/, ''), deviceCa, ...(ca === undefined ? {} : { ca }) };
}

async function readText(file: string, flag: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(`${flag}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** 127.0.0.1 .. 127.0.0.N: Linux answers the whole of 127.0.0.0/8 on the loopback interface; at least one per worker. */
function sourceAddresses(given: number | undefined, devices: number, workers: number): string[] {
  const n = Math.max(workers, given ?? Math.max(2, Math.ceil(devices / DEVICES_PER_SOURCE)));
  return Array.from({ length: n }, (_, i) => `127.0.0.${i + 1}`);
}

/** The embedded default's device CA, kept in the cert cache so a second fleet reuses every device certificate. */
async function keptDeviceCa(dir: string): Promise<Issued> {
  const kept = await credentialCache(dir, 'wfmck embedded device CA')('device-ca', async () => {
    const ca = await createRootCa('wfmck device CA');
    return { certPem: ca.certPem, keyPem: ca.keyPem };
  });
  return loadIssued(kept.certPem, kept.keyPem);
}
