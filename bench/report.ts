// reports/out/bench.json and the printed table: every figure of one run side by side, its target beside it, and
// what each figure means (what "alive" is, who pays for the certificates, which side signs).
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import type { MemoryMeasurement } from './memory.ts';
import type { OnboardingMeasurement } from './onboarding.ts';
import type { RateMeasurements } from './request-rate.ts';
import type { SuiteMeasurement } from './suite-time.ts';
import { OPEN_FILES_HEADROOM, type MtlsMeasurement } from './mtls.ts';
import type { FloorMeasurement } from './floors.ts';
import type { FleetMeasurement } from './fleets.ts';
import type { WorkersScalingMeasurement } from './workers-scaling.ts';
import { format, round, type Target } from './targets.ts';
import { derivedFigures } from './derived-figures.ts';
import { benchTargets, fleetName } from './bench-targets.ts';

export const BENCH_FILE = 'bench.json';

export interface Measurements {
  requestRate: RateMeasurements;
  onboarding: OnboardingMeasurement;
  memory: MemoryMeasurement;
  suite: SuiteMeasurement;
  mtls: MtlsMeasurement;
  floors: FloorMeasurement;
  acceptanceFleet: FleetMeasurement;
  liveFleet: FleetMeasurement;
  fleetWorkers: WorkersScalingMeasurement;
}

/** The figures a bench can measure, in the order a full run measures them (`--only` picks some). */
export const FIGURES = [
  'floors',
  'requestRate',
  'fleetWorkers',
  'onboarding',
  'memory',
  'mtls',
  'suite',
  'acceptanceFleet',
  'liveFleet',
] as const;
export type FigureName = (typeof FIGURES)[number];

export interface Machine {
  cpus: number;
  cpuModel: string;
  node: string;
  loadAverage: { start: number[]; end: number[] };
  /** Other work ran beside the bench: the 1-minute load average exceeded the CPU count at its start or end. */
  shared: boolean;
}

export interface BenchReport {
  kind: 'wfmck-bench';
  version: 1;
  quick: boolean;
  startedAt: string;
  wallSeconds: number;
  machine: Machine;
  /** The figures measured (all of them, or those of `--only`), and what is derived from them. */
  figures: Partial<Measurements> & {
    ratios?: { signingOff: number; signingOn: number };
    /** Each kit figure over the machine's floor for the same job (1.0 = at the floor). */
    floorRatios?: {
      kitSignOverNativeSign?: number;
      wfmOnboardingOverNativeChecks?: number;
      /** The fleet's client CPU per unsigned PUT over autocannon's. */
      clientCpuUnsignedOverAutocannon?: number;
      /** The fleet's client CPU per unsigned PUT over undici alone's (the kit's part). */
      clientCpuUnsignedOverUndici?: number;
      /** undici alone's client CPU per PUT over autocannon's (undici's part). */
      clientCpuUndiciOverAutocannon?: number;
      /** The signing fleet's client CPU per PUT over (its unsigned CPU per PUT at the same rate + one native sign). */
      clientCpuSignedOverUnsignedPlusSign?: number;
      /** The same over the unsigned fleet's CPU per PUT at its own, higher, rate. */
      clientCpuSignedOverFullRateUnsignedPlusSign?: number;
      /** The signed fleet rate over the rate the unsigned rate and the crypto floor allow together (signedRateBound). */
      signedRateOverBound?: number;
      /** 1 / (1/unsigned fleet rate + (native sign + native verify) / CPUs): what signing would cost at its floor. */
      signedRateBound?: number;
      /** The reference WFM's CPU per unsigned PUT over a bare node:https server's, both under autocannon. */
      wfmPutOverBareServer?: number;
      /**
       * What the WFM cannot skip in one onboarding, in µs: three exchanges at the bare server's cost (the root CA
       * fetch, the onboarding, the first PUT), three native verifies (the device CA's signature on the certificate and
       * two request signatures) and one key import.
       */
      onboardingExchangeFloorUs?: number;
      /** The WFM's CPU per onboarding over onboardingExchangeFloorUs. */
      wfmOnboardingOverExchangeFloor?: number;
      /**
       * What the kit's client cannot skip in one onboarding, in µs: three exchanges at autocannon's client cost (the
       * root CA fetch, the onboarding, the first PUT) and two native signs (the onboarding's and the PUT's signatures).
       */
      onboardingClientFloorUs?: number;
      /** The kit's client CPU per onboarding over onboardingClientFloorUs. */
      clientOnboardingOverFloor?: number;
      /** RSS per held mTLS device over a bare mutual-TLS connection's with its own context, as many held, same run. */
      mtlsRssPerDeviceOverBare?: number;
      /** mTLS handshakes/s of the first devices (before any poll) over bare Node TLS with a context per device, same run. */
      mtlsHandshakesOverBare?: number;
      /** The kit's RSS per held mTLS device over bare TLS's doing the same exchange (same SVIDs, WFMs, GETs, polls). */
      mtlsRssPerDeviceOverSameExchange?: number;
      /** That same-exchange bare device's RSS over the handshake-only floor's: the SVID chain, the server, the HTTP. */
      mtlsSameExchangeRssOverBare?: number;
      /** The first devices' handshakes/s over the same-exchange bare devices' first, same run. */
      mtlsHandshakesOverSameExchange?: number;
      /** The kit's client CPU per device connected over the same-exchange bare devices'. */
      mtlsClientCpuOverSameExchange?: number;
      /** The unsigned PUT rate of the fleet runner in 2 worker processes over 1, against a bare server. */
      fleetWorkersScaling?: number;
      /** What this machine's CPU allows that ratio to be, from each side's CPU per request (see workers-scaling.ts). */
      fleetWorkersScalingBound?: number;
      /** PUTs per second one worker makes on a core of its own: 1 s over its CPU per request. */
      fleetWorkerRatePerCore?: number;
      /** What 16 workers on 16 cores allow, the target elsewhere: 16 x fleetWorkerRatePerCore. */
      fleetWorkersRateOn16Cores?: number;
    };
    wfmCost?: { putUnsignedMsPer1000?: number; putSignedMsPer1000?: number; onboardingMsPer1000?: number; onboardingMsPerDevice?: number };
  };
  targets: Target[];
  notes: string[];
}

export function machineAt(start: number[]): Machine {
  const end = loadavg();
  const n = cpus().length;
  return {
    cpus: n,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    loadAverage: { start: start.map((l) => round(l, 2)), end: end.map((l) => round(l, 2)) },
    shared: (start[0] ?? 0) > n || (end[0] ?? 0) > n,
  };
}

export function benchReport(
  m: Partial<Measurements>,
  run: { quick: boolean; startedAt: Date; wallSeconds: number; machine: Machine },
): BenchReport {
  const d = derivedFigures(m, run.machine.cpus);
  const { ratios, perDevice, allFloorRatios } = d;
  const rr = m.requestRate;
  const ob = m.onboarding;
  return {
    kind: 'wfmck-bench',
    version: 1,
    quick: run.quick,
    startedAt: run.startedAt.toISOString(),
    wallSeconds: round(run.wallSeconds, 1),
    machine: run.machine,
    figures: {
      ...m,
      ...(ratios && { ratios }),
      ...(allFloorRatios && { floorRatios: allFloorRatios }),
      ...((rr || ob) && {
        wfmCost: {
          ...(rr && { putUnsignedMsPer1000: rr.autocannon.wfmCpuMsPer1000, putSignedMsPer1000: rr.fleetSigned.wfmCpuMsPer1000 }),
          ...(ob && { onboardingMsPer1000: ob.wfmCpuMsPer1000, onboardingMsPerDevice: perDevice }),
        },
      }),
    },
    targets: benchTargets(m, d),
    notes: notes(m, run.machine, perDevice),
  };
}

function notes(m: Partial<Measurements>, machine: Machine, onboardingMsPerDevice: number | undefined): string[] {
  const list: string[] = [];
  if (m.requestRate)
    list.push(
      'request rate: both clients PUT the same body to the same path shape (P3 paths client-scoped) with the same connection count and duration, in alternating rounds; the reference WFM runs in its own process.',
      "request rate, undici alone: in the same rounds, undici's own request() PUTs the same body over as many connections to autocannon's path, its answers read, with no kit code: the HTTP client the kit's transport is built on. The fleet's client CPU over it is the kit's part of the fleet/autocannon ratio; its own over autocannon's is undici's.",
      'request rate, signing on: autocannon cannot sign, so the signed fleet (P3 signature) is divided by the UNSIGNED autocannon rate; the gap includes the WFM verifying every signature.',
      "request rate, floors: the bound a signed fleet could reach is 1 / (1 / the unsigned fleet rate + (native sign + native verify) / CPUs), since client and WFM share the machine's cores; client CPU is this process's, per request.",
      `request rate, the cost of signing: a client's CPU per request grows as its rate falls (fewer answers per wake-up of its event loop), and the signed fleet runs at the rate the WFM's verifying allows; so after the rounds the unsigned fleet runs once more, held by its token bucket to the signed fleet's ${m.requestRate.fleetSigned.requestsPerSecond} req/s (which adds a timer per request), and client-cpu-signed divides by that cost.`,
    );
  if (m.fleetWorkers) {
    const fw = m.fleetWorkers;
    list.push(
      `fleet workers: the fleet runner in PUT mode (unsigned, P3 paths client-scoped) in 1 worker process and in 2, ${fw.settings.connections} connections in all split between them as \`wfmck fleet --workers\` splits a fleet, ${fw.settings.rounds} round(s) of ${fw.settings.seconds} s each in alternating order; the devices onboard at the reference WFM, then PUT to a bare node:https server, the cheapest target there is, so that the client is what is measured. The workers measure the same window. One worker spent ${fw.oneWorker.clientCpuUsPerRequest} µs of CPU per PUT and the bare server ${fw.oneWorker.serverCpuUsPerRequest} µs; with 2 workers ${fw.twoWorkers.clientCpuUsPerRequest} and ${fw.twoWorkers.serverCpuUsPerRequest}. What the CPU allows: each process runs on one core at most and all share the machine's, so N workers reach at most min(N / client, 1 / server, CPUs / (client + server)) requests per µs; the bound of the ratio is that at 2 over that at 1. On a 16-core machine with the target elsewhere, the workers share nothing, so 16 of them allow 16 times one worker on a core of its own.`,
    );
  }
  if (m.onboarding)
    list.push(
      `onboarding: each device brings its certificate (minted before the clock, ${m.onboarding.mintSeconds} s for all); the clock covers describing, the root CA fetch, the signed onboarding and the signed first PUT of capabilities.`,
      `onboarding: the reference WFM spent ${onboardingMsPerDevice} ms of CPU per device, so on one core it alone caps onboarding near ${onboardingMsPerDevice ? Math.round(1000 / onboardingMsPerDevice) : '?'} devices/s.`,
    );
  if (m.requestRate)
    list.push(
      "exchange floor: autocannon also PUTs the same body to a bare node:https server in the WFM's place (it reads the body and answers 200 {}, nothing else), after the rounds and held to the rate autocannon drove the WFM to, since a server's CPU per exchange falls as its rate rises; its CPU per request is the least a server spends on one exchange at that rate here. An onboarding's own floor on the WFM's side is three such exchanges, three native verifies (the device CA's signature on the certificate, the onboarding's and the first PUT's request signatures) and one key import; the issue's onboarding-cpu-floor counts one verify and one certificate parse.",
    );
  if (m.memory)
    list.push(
      `memory: "alive" = ${m.memory.devices.toLocaleString('en')} devices built by the fleet's own environment (compact description, driver machine, DeviceApiClient with its own P-256 key, certificate) and started into phase reporting (${m.memory.reporting} reached it) against a replay of one onboarding recorded with the reference WFM: no sockets, no ticks. Heap after global.gc(); external ${m.memory.externalBytesPerDevice} B and RSS ${m.memory.rssBytesPerDevice} B per device beside it (RSS keeps freed pages).`,
    );
  if (m.requestRate || m.onboarding)
    list.push(
      'reference WFM cost: process.cpuUsage() of the WFM process (user + system) around each measured window, per 1,000 answered requests.',
    );
  if (m.mtls)
    list.push(
      `mTLS: ${m.mtls.attempted.toLocaleString('en')} SVIDs minted before the clock (${m.mtls.mintSeconds} s), then the kit's own transport per device (one connection each, as a miaf fleet device holds it), spread over ${m.mtls.settings.workers} worker processes as \`wfmck fleet --workers\` spreads a fleet, each with its share of ${m.mtls.settings.sources} loopback source addresses and ${m.mtls.settings.concurrency} handshakes at once, each device polling every ${m.mtls.settings.pollSeconds} s from its connection on (the others still joining), each worker against a \`wfmck serve --edition miaf\` of its own (a WFM process holds as many sockets as its devices); the workers mint, connect and hold in step, so the held devices are held at once and the handshake rate is theirs together; RSS and heap per device are the workers' growth from before the first connection to the end of the hold, after global.gc(), summed.`,
    );
  if (m.mtls) {
    const floor = m.mtls.floor;
    list.push(
      `mTLS floor: ${floor.connections.toLocaleString('en')} bare Node TLS 1.3 handshakes with a client certificate (no HTTP, no SVID rules) in the same layout: ${m.mtls.settings.workers} client processes at once, each against a bare server of its own, ${m.mtls.settings.concurrency} at once each: ${floor.handshakesPerSecond}/s with a SecureContext made per device, the first run of a fresh process so that no freed connection's memory is reused (client ${floor.clientCpuMsPerHandshake} ms, server ${floor.serverCpuMsPerHandshake} ms of CPU each), ${floor.sharedContextHandshakesPerSecond}/s with one context for all (up to 2,000 connections after; no fleet can share one: each device has its own key); a held bare connection with its own context grows RSS by ${floor.rssBytesPerConnection} B. The kit's RSS per device and its first devices' handshake rate are judged by their ratio to these.`,
    );
    const same = m.mtls.sameExchange;
    list.push(
      `mTLS same-exchange floor: the same ${m.mtls.attempted.toLocaleString('en')} SVIDs, workers, WFMs, source addresses, SPIFFE check, GETs and polls, each device bare Node TLS with its GET written by hand and its answer read to the end (no undici, no transport): ${same.heldConcurrently.toLocaleString('en')} held, ${same.rssBytesPerDevice} B RSS and ${same.heapBytesPerDevice} B heap per device (${same.connectedRssBytesPerDevice} B RSS when the last was up), the first ${same.firstDevices} at ${same.firstHandshakesPerSecond}/s, all at ${same.handshakesPerSecond}/s, CPU per device connected: client ${same.clientCpuMsPerHandshake} ms, WFM ${same.wfmCpuMsPerHandshake ?? '?'} ms. What the kit's devices cost beyond these is the kit's own; what these cost beyond the handshake-only floor is the SVID chain, the WFM's answer and the HTTP exchange.`,
    );
  }
  if (m.mtls?.openFilesLimit !== undefined && m.mtls.attempted < m.mtls.settings.devices)
    list.push(
      `mTLS: this machine allows ${m.mtls.openFilesLimit.toLocaleString('en')} open files per process (ulimit -n, not raisable here), and every held device is a socket in its worker and in that worker's WFM: past that, connections fail with EMFILE, so ${m.mtls.settings.devices.toLocaleString('en')} cannot all be held by ${m.mtls.settings.workers} processes on it: the bench connects ${m.mtls.attempted.toLocaleString('en')} (the limit less ${OPEN_FILES_HEADROOM} per process for its other files), and its floor as many.`,
    );
  for (const f of [m.acceptanceFleet, m.liveFleet])
    if (f)
      list.push(
        `${fleetName(f)}: \`wfmck fleet\` as a user starts it, ${f.clients.toLocaleString('en')} clients, ${f.requests.toLocaleString('en')} requests; start phase ${f.startPhaseSeconds} s, wall ${f.wallSeconds} s (${f.commandSeconds} s from spawn to exit); CPU fleet ${f.fleetCpuSeconds} s, embedded services (own process) ${f.servicesCpuSeconds} s; peak RSS fleet ${f.fleetPeakRssMiB} MiB, services ${f.servicesPeakRssMiB} MiB; ${f.passed ? 'passed' : `did NOT pass (exit ${f.exitCode})`}.`,
      );
  if (machine.shared)
    list.push(
      `the machine was shared: load average ${machine.loadAverage.start[0]} at the start and ${machine.loadAverage.end[0]} at the end on ${machine.cpus} CPUs; ratios measured side by side hold better than absolute rates.`,
    );
  return list;
}

export async function writeBenchReport(dir: string, report: BenchReport): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, BENCH_FILE);
  await writeFile(file, JSON.stringify(report, null, 2) + '\n');
  return file;
}

/** A figure over its floor, two decimals (0 when the floor is missing). */
function ratioTo(value: number, floor: number): number {
  return floor > 0 ? round(value / floor, 2) : 0;
}

export function benchTable(r: BenchReport): string {
  const f = r.figures;
  const rr = f.requestRate;
  const values: Record<string, string> = {
    ...(rr &&
      f.ratios && {
        'request-rate-ratio': `${rr.fleetUnsigned.requestsPerSecond} / ${rr.autocannon.requestsPerSecond} req/s = ${f.ratios.signingOff}`,
        'request-rate-ratio-signed': `${rr.fleetSigned.requestsPerSecond} / ${rr.autocannon.requestsPerSecond} req/s = ${f.ratios.signingOn}`,
      }),
    ...(f.memory && { 'heap-per-device': `${f.memory.heapBytesPerDevice} B (${f.memory.heapUsedMiB} MiB heap)` }),
    ...(f.onboarding && { 'onboarding-rate': `${f.onboarding.devicesPerSecond} devices/s (${f.onboarding.seconds} s)` }),
    ...(f.suite && {
      'suite-time': `${f.suite.seconds} s, ${f.suite.tests ? `${f.suite.tests.passed} passed, ${f.suite.tests.failed} failed` : 'no JUnit'}`,
    }),
    ...(f.floors && { 'kit-sign-floor': `${f.floors.kitSignUs} / ${f.floors.nativeSignUs} µs = ${f.floorRatios?.kitSignOverNativeSign}` }),
    ...(f.floors &&
      f.wfmCost?.onboardingMsPerDevice !== undefined && {
        'onboarding-cpu-floor': `${f.wfmCost.onboardingMsPerDevice * 1000} / (${f.floors.nativeVerifyUs} + ${f.floors.nativeX509Us}) µs = ${f.floorRatios?.wfmOnboardingOverNativeChecks}`,
      }),
    ...(rr && {
      'client-cpu-unsigned': `${rr.fleetUnsigned.clientCpuMsPer1000} / ${rr.autocannon.clientCpuMsPer1000} µs = ${f.floorRatios?.clientCpuUnsignedOverAutocannon}; undici alone (its request(), no kit code) ${rr.undiciAlone.clientCpuMsPer1000} µs: undici / autocannon ${f.floorRatios?.clientCpuUndiciOverAutocannon}, the fleet / undici ${f.floorRatios?.clientCpuUnsignedOverUndici}`,
    }),
    ...(rr &&
      f.floors && {
        'client-cpu-signed': `${rr.fleetSigned.clientCpuMsPer1000} / (${rr.fleetUnsignedAtSignedRate.clientCpuMsPer1000} + ${f.floors.nativeSignUs}) µs = ${f.floorRatios?.clientCpuSignedOverUnsignedPlusSign} (unsigned at ${rr.fleetUnsignedAtSignedRate.requestsPerSecond} req/s; against the unsigned fleet at its full ${rr.fleetUnsigned.requestsPerSecond} req/s: ${f.floorRatios?.clientCpuSignedOverFullRateUnsignedPlusSign})`,
        'signed-rate-floor': `${rr.fleetSigned.requestsPerSecond} / ${f.floorRatios?.signedRateBound} req/s = ${f.floorRatios?.signedRateOverBound}`,
      }),
    ...(f.mtls && {
      'mtls-held': `${f.mtls.heldConcurrently} of ${f.mtls.settings.devices} (${f.mtls.attempted < f.mtls.settings.devices ? `${f.mtls.attempted} attempted: the open-files limit, ` : ''}${f.mtls.failed} failed, ${f.mtls.settings.sources} source addresses)`,
      'mtls-rss-per-device': `${f.mtls.rssBytesPerDevice} B RSS, ${f.mtls.heapBytesPerDevice} B heap = ${ratioTo(f.mtls.rssBytesPerDevice, f.mtls.floor.rssBytesPerConnection)} of a bare mutual-TLS connection with its own context, ${f.mtls.floor.connections} held (${f.mtls.floor.rssBytesPerConnection} B); when the last was up, before the hold: ${f.mtls.connectedRssBytesPerDevice} B RSS, ${f.mtls.connectedHeapBytesPerDevice} B heap; = ${ratioTo(f.mtls.rssBytesPerDevice, f.mtls.sameExchange.rssBytesPerDevice)} of bare TLS doing the same exchange (${f.mtls.sameExchange.rssBytesPerDevice} B, itself ${ratioTo(f.mtls.sameExchange.rssBytesPerDevice, f.mtls.floor.rssBytesPerConnection)} of the handshake-only floor)`,
      'mtls-handshakes': `${f.mtls.handshakesPerSecond}/s (${f.mtls.connectSeconds} s, ${f.mtls.settings.concurrency} at once, the held devices polling) = ${ratioTo(f.mtls.handshakesPerSecond, f.mtls.floor.handshakesPerSecond)} of bare Node TLS with a context per device (${f.mtls.floor.handshakesPerSecond}/s; one shared context: ${f.mtls.floor.sharedContextHandshakesPerSecond}/s); the first ${f.mtls.firstDevices} devices, before any poll: ${f.mtls.firstHandshakesPerSecond}/s = ${ratioTo(f.mtls.firstHandshakesPerSecond, f.mtls.floor.handshakesPerSecond)}; CPU per device connected: kit ${f.mtls.clientCpuMsPerHandshake} ms, WFM ${f.mtls.wfmCpuMsPerHandshake ?? '?'} ms (floor: client ${f.mtls.floor.clientCpuMsPerHandshake}, server ${f.mtls.floor.serverCpuMsPerHandshake}); beside bare TLS doing the same exchange: first ${f.mtls.sameExchange.firstHandshakesPerSecond}/s (${ratioTo(f.mtls.firstHandshakesPerSecond, f.mtls.sameExchange.firstHandshakesPerSecond)}), client ${f.mtls.sameExchange.clientCpuMsPerHandshake} ms, WFM ${f.mtls.sameExchange.wfmCpuMsPerHandshake ?? '?'} ms`,
    }),
    ...(f.acceptanceFleet && {
      'acceptance-fleet-start': `${f.acceptanceFleet.startPhaseSeconds} s (${f.acceptanceFleet.commandSeconds} s from spawn to exit)`,
    }),
    ...(f.liveFleet && {
      'live-fleet-reporting': `${f.liveFleet.reporting} of ${f.liveFleet.clients}`,
      'live-fleet-held': `${f.liveFleet.heldSeconds} s (start phase ${f.liveFleet.startPhaseSeconds} s)`,
      'live-fleet-rss': `${f.liveFleet.fleetPeakRssMiB} MiB (services ${f.liveFleet.servicesPeakRssMiB} MiB); CPU fleet ${f.liveFleet.fleetCpuSeconds} s, services ${f.liveFleet.servicesCpuSeconds} s`,
    }),
  };
  const rows = r.targets.map((t) => [
    t.figure,
    values[t.id] ?? format(t.value),
    `${t.comparison} ${t.target}${t.unit ? ` ${t.unit}` : ''}`,
    t.met ? 'met' : `MISSED by ${t.missedBy}`,
  ]);
  rows.push(...untargetedRows(f));
  const header = ['figure', 'value', 'target', 'verdict'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  const m = r.machine;
  const title = `wfmck bench${r.quick ? ' --quick' : ''}: ${m.cpus} CPUs (${m.cpuModel}), node ${m.node}, load ${m.loadAverage.start[0]} -> ${m.loadAverage.end[0]}${m.shared ? ' (shared machine)' : ''}, ${r.wallSeconds} s`;
  return (
    [title, line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line), '', ...r.notes.map((n) => `- ${n}`)].join('\n') + '\n'
  );
}

/** The rows beside the targets: what the figures are made of, with no target of their own. */
function untargetedRows(f: BenchReport['figures']): string[][] {
  const rows: string[][] = [];
  const rr = f.requestRate;
  const c = f.wfmCost;
  if (c)
    rows.push([
      'reference WFM CPU per 1,000 requests',
      [
        c.putUnsignedMsPer1000 !== undefined && `PUT ${c.putUnsignedMsPer1000} ms, signed PUT ${c.putSignedMsPer1000} ms`,
        c.onboardingMsPer1000 !== undefined && `onboarding ${c.onboardingMsPer1000} ms`,
      ]
        .filter(Boolean)
        .join(', '),
      '(no target)',
      '',
    ]);
  const x = f.floorRatios;
  if (rr && x?.wfmPutOverBareServer !== undefined)
    rows.push([
      'reference WFM CPU beside a bare node:https server (its exchange floor)',
      [
        `PUT ${rr.autocannon.wfmCpuMsPer1000} / ${rr.bareServer.wfmCpuMsPer1000} µs = ${x.wfmPutOverBareServer}`,
        x.onboardingExchangeFloorUs !== undefined &&
          f.floors &&
          c?.onboardingMsPerDevice !== undefined &&
          `onboarding ${round(c.onboardingMsPerDevice * 1000, 1)} / (3 x ${rr.bareServer.wfmCpuMsPer1000} + 3 x ${f.floors.nativeVerifyUs} + ${f.floors.nativeKeyImportUs}) µs = ${x.wfmOnboardingOverExchangeFloor}`,
      ]
        .filter(Boolean)
        .join(', '),
      '(no target)',
      '',
    ]);
  const fw = f.fleetWorkers;
  if (fw && x?.fleetWorkersScaling !== undefined)
    rows.push([
      'the fleet over worker processes: unsigned PUTs/s, 2 workers / 1, against a bare server',
      `${fw.twoWorkers.requestsPerSecond} / ${fw.oneWorker.requestsPerSecond} req/s = ${x.fleetWorkersScaling} (this machine's CPU allows ${x.fleetWorkersScalingBound}); one worker on a core of its own: ${x.fleetWorkerRatePerCore} req/s (${fw.oneWorker.clientCpuUsPerRequest} µs of CPU each), so 16 cores: ${x.fleetWorkersRateOn16Cores?.toLocaleString('en')} req/s`,
      '(no target)',
      '',
    ]);
  if (rr)
    rows.push([
      'client CPU per 1,000 PUTs (why the ratios)',
      `autocannon ${rr.autocannon.clientCpuMsPer1000} ms, fleet ${rr.fleetUnsigned.clientCpuMsPer1000} ms (${rr.fleetUnsignedAtSignedRate.clientCpuMsPer1000} ms held to ${rr.fleetUnsignedAtSignedRate.requestsPerSecond} req/s), signing fleet ${rr.fleetSigned.clientCpuMsPer1000} ms`,
      '(no target)',
      '',
    ]);
  return rows;
}
