// Fleets as a user starts them (`wfmck fleet`, a child process with the embedded services in their own process):
// the acceptance fleet of issue 20 from start to all reporting, and a live fleet held for minutes with every device
// polling desired state. The figures are the fleet's own summary (fleet-summary.json), so the bench measures what a
// user sees.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FleetSummary } from '../simulators/fleet/summary.ts';

export interface FleetSettings {
  devices: number;
  seeThruGateways: number;
  opaqueGateways: number;
  children: number;
  /** Seconds between two polls of one device. */
  tickInterval: number;
  /** Seconds devices keep ticking after the run starts (the start phase is inside it). */
  duration: number;
  /** Deployments per hosting device (the acceptance fleet's default, 1, or none for a pure polling fleet). */
  deployments?: number;
  /** Node options of the fleet's process (a heap ceiling for a large fleet); the embedded services' process keeps its own. */
  nodeOptions?: string[];
}

export interface FleetMeasurement {
  settings: FleetSettings;
  exitCode: number | null;
  passed: boolean;
  /** Devices including gateways' children, as the settings ask (the WFM sees the see-thru ones' deviceIds). */
  devices: number;
  clients: number;
  reporting: number;
  unexpected: number;
  transportErrors: number;
  requests: number;
  startPhaseSeconds: number;
  wallSeconds: number;
  /** Seconds every device was held after the last one started: wall minus start phase. */
  heldSeconds: number;
  fleetPeakRssMiB: number;
  servicesPeakRssMiB: number;
  fleetCpuSeconds: number;
  servicesCpuSeconds: number;
  /** From spawn to exit: process start, services, publishing, the fleet, the summary. */
  commandSeconds: number;
}

const bin = fileURLToPath(new URL('../bin/wfmck.mjs', import.meta.url));

export async function measureFleet(s: FleetSettings, out: string, seed = 20): Promise<FleetMeasurement> {
  const args = [
    ...(s.nodeOptions ?? []),
    bin,
    'fleet',
    ...['--devices', s.devices, '--see-thru-gateways', s.seeThruGateways, '--opaque-gateways', s.opaqueGateways, '--children', s.children],
    ...['--tick-interval', s.tickInterval, '--duration', s.duration, '--seed', seed, '--out', out],
    // Interval figures beside the summary: a long fleet can be watched (tail -f) and its RSS curve read afterwards.
    ...['--metrics-out', join(out, 'metrics.jsonl')],
    ...(s.deployments === undefined ? [] : ['--deployments', s.deployments]),
  ].map(String);
  const started = performance.now();
  await mkdir(out, { recursive: true });
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let tail = '';
  let shown = 0;
  child.stderr.on('data', (d: Buffer) => {
    tail = (tail + d.toString()).slice(-2000);
    // The fleet's progress line (every 5 s), passed on about once a minute.
    const line = /(\d+\.\d)s onboarded [^\n]*\n(?![\s\S]*\n\S)/.exec(tail);
    if (line && Number(line[1]) >= shown + 60) {
      shown = Number(line[1]);
      process.stderr.write(`bench:   ${line[0].trim()}\n`);
    }
  });
  const [exitCode] = (await once(child, 'exit')) as [number | null];
  const commandSeconds = (performance.now() - started) / 1000;
  const summary = JSON.parse(await readFile(join(out, 'fleet-summary.json'), 'utf8').catch(() => 'null')) as FleetSummary | null;
  if (!summary) throw new Error(`wfmck fleet wrote no summary (exit ${exitCode}): ${tail}`);
  const mib = (b: number | undefined) => Math.round((b ?? 0) / 1048576);
  const sec = (ms: number | undefined) => Math.round((ms ?? 0) / 100) / 10;
  return {
    settings: s,
    exitCode,
    passed: summary.passed,
    devices: s.devices + (s.seeThruGateways + s.opaqueGateways) * (1 + s.children),
    clients: summary.expected.clients,
    reporting: summary.totals.clients.reporting,
    unexpected: summary.totals.requests.unexpected,
    transportErrors: summary.totals.requests.transportErrors,
    requests: summary.totals.requests.total,
    startPhaseSeconds: sec(summary.startPhaseMs),
    wallSeconds: sec(summary.wallMs),
    heldSeconds: sec(summary.wallMs - summary.startPhaseMs),
    fleetPeakRssMiB: mib(summary.peakRssBytes),
    servicesPeakRssMiB: mib(summary.embeddedServicesPeakRssBytes),
    fleetCpuSeconds: sec(summary.cpu?.fleetMs),
    servicesCpuSeconds: sec(summary.cpu?.embeddedServicesMs),
    commandSeconds: Math.round(commandSeconds * 10) / 10,
  };
}
