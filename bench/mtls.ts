// P10 (miaf) at scale: how many devices, each with its own X.509-SVID and its own mutual-TLS connection, the kit
// holds over worker processes (mtls-worker.ts), each against a reference WFM of its own (`wfmck serve --edition
// miaf`), as `wfmck fleet --workers` spreads a fleet; and how many handshakes per second they make together. Devices
// spread over loopback source addresses; each polls every pollSeconds to stay connected, as a fleet device does.
import { readFileSync } from 'node:fs';
import type { MtlsWorkerReport, MtlsWorkerStart } from './mtls-worker.ts';
import { forkInStep, sharesOf, sum } from './in-step.ts';
import { measureTlsFloor, type TlsFloorMeasurement } from './tls-floor.ts';

export interface MtlsSettings {
  devices: number;
  /** Loopback source addresses, 127.0.0.1 .. 127.0.0.N. */
  sources: number;
  /** Handshakes in flight at once. */
  concurrency: number;
  /** Seconds every device stays connected (polling) once all are up. */
  holdSeconds: number;
  /** Worker processes the devices are spread over, each with its own WFM (as `wfmck fleet --workers`). */
  workers: number;
  /** A device's poll interval: inside the reference WFM's 65 s idle timeout (30 s: 1,000 polls/s for 30,000 devices). */
  pollSeconds: number;
}

/** Who makes each device's connection and requests: the kit's transport, or bare Node TLS (the same-exchange floor). */
export type MtlsClient = 'kit' | 'bare';

/** What the workers did with their devices, kit or bare, in the same layout. */
export interface MtlsRun {
  /** Devices whose connection was up and answering at the end of the hold. */
  heldConcurrently: number;
  /** Attempted connections the WFM refused or dropped. */
  failed: number;
  /** Handshake plus first answer, all devices of every worker, over the wall time of the connecting phase. */
  handshakesPerSecond: number;
  /**
   * The same over the first `firstDevices` only, before any device's first poll is due: the like-for-like figure
   * beside the floor, which has no traffic besides its handshakes.
   */
  firstHandshakesPerSecond: number;
  firstDevices: number;
  connectSeconds: number;
  /**
   * CPU per device connected (handshake, first GET, and the polls of the devices already up) over the connecting
   * phase: the kit's workers', and their WFMs' (absent where /proc cannot say).
   */
  clientCpuMsPerHandshake: number;
  wfmCpuMsPerHandshake?: number;
  /** Seconds spent minting the SVIDs (before the clock), the slowest worker's. */
  mintSeconds: number;
  /** Growth of the workers' RSS and heap (summed) per held device, from before the first connection to the hold's end. */
  rssBytesPerDevice: number;
  heapBytesPerDevice: number;
  /** The same from before the first connection to the last one up (before the hold), per device connected. */
  connectedRssBytesPerDevice: number;
  connectedHeapBytesPerDevice: number;
}

export interface MtlsMeasurement extends MtlsRun {
  settings: MtlsSettings;
  /** The soft limit of open files per process here (Linux /proc/self/limits): each device holds a socket. */
  openFilesLimit?: number;
  /**
   * Devices connected: all of them, or as many as the open-files limit leaves room for in `workers` processes (each
   * device is a socket in its worker and in that worker's WFM). Past the limit a connection fails with EMFILE after its context is made, and the
   * garbage of thousands of such attempts would be counted in the RSS of the devices held.
   */
  attempted: number;
  /** Bare Node mutual TLS on this machine, measured first: what handshakes/s and RSS per device are judged beside. */
  floor: TlsFloorMeasurement;
  /**
   * The same devices, WFMs, layout, GETs and polls, each device bare Node TLS with the GET written by hand: what the
   * kit's devices hold and spend beyond it is the kit's own (undici and the transport), not the SVID chain, the
   * server or the exchange, which the handshake-only floor has none of.
   */
  sameExchange: MtlsRun;
}

/** Open files a process keeps besides its devices' sockets (its own files, pipes, the WFM's listeners). */
export const OPEN_FILES_HEADROOM = 500;
/** The devices over which the first handshake rate is read (fewer than a poll interval's worth at the floor's rate). */
const FIRST_DEVICES = 2_000;

export async function measureMtls(s: MtlsSettings): Promise<MtlsMeasurement> {
  const limit = openFilesLimit();
  // Each worker holds its share in a process of its own: the open-files limit is per process.
  const perWorker = limit.openFilesLimit !== undefined ? limit.openFilesLimit - OPEN_FILES_HEADROOM : Infinity;
  const attempted = Math.min(s.devices, perWorker * s.workers);
  if (attempted < s.workers)
    throw new Error(
      `bench mtls: the open-files limit (${limit.openFilesLimit}) leaves no room for a device beside the ${OPEN_FILES_HEADROOM} files a process keeps; raise it (ulimit -n)`,
    );
  const firstDevices = Math.min(attempted, FIRST_DEVICES);
  // The floor holds as many connections per process as the kit does, in as many processes at once: RSS per
  // connection grows with their number here (bare Node: ~75 KB at 3,000, ~87 KB at 10,000), and handshakes share
  // the cores, so a floor in another layout would not be the like-for-like one.
  const floor = await measureTlsFloor(sharesOf(attempted, s.workers), s.concurrency);
  const sameExchange = await runWorkers(s, 'bare', attempted, firstDevices);
  const kit = await runWorkers(s, 'kit', attempted, firstDevices);
  return { settings: s, ...limit, attempted, ...kit, floor, sameExchange };
}

/** The devices over fresh worker processes (each with a WFM of its own), made by `client`. */
async function runWorkers(s: MtlsSettings, client: MtlsClient, attempted: number, firstDevices: number): Promise<MtlsRun> {
  const workers = forkInStep<MtlsWorkerReport>(new URL('./mtls-worker.ts', import.meta.url), s.workers, `mTLS ${client} worker`, [
    '--expose-gc',
  ]);
  try {
    workers.children.forEach((w, worker) =>
      w.send({ settings: s, worker, workers: s.workers, attempted, firstDevices, client } satisfies MtlsWorkerStart),
    );
    // In step: every worker has minted before any connects, and all are connected before the hold starts.
    const minted = await workers.all('minted');
    const connected = await workers.step('connect', 'connected');
    const held = await workers.step('hold', 'held');
    // Each closes its devices and stops its WFM, then exits.
    await workers.exited();
    const heldCount = sum(held.map((h) => h.held));
    const connectSeconds = Math.max(...connected.map((c) => c.connectSeconds));
    return {
      heldConcurrently: heldCount,
      failed: attempted - heldCount,
      handshakesPerSecond: Math.round(sum(connected.map((c) => c.connected)) / connectSeconds),
      firstHandshakesPerSecond: Math.round(sum(connected.map((c) => c.firstConnected)) / Math.max(...connected.map((c) => c.firstSeconds))),
      firstDevices,
      connectSeconds: Math.round(connectSeconds * 10) / 10,
      ...cpuPerHandshake(connected),
      mintSeconds: Math.round(Math.max(...minted.map((m) => m.mintSeconds)) * 10) / 10,
      rssBytesPerDevice: Math.round(sum(held.map((h) => h.rssGrowth)) / Math.max(1, heldCount)),
      heapBytesPerDevice: Math.round(sum(held.map((h) => h.heapGrowth)) / Math.max(1, heldCount)),
      connectedRssBytesPerDevice: perConnected(connected, (c) => c.rssGrowth),
      connectedHeapBytesPerDevice: perConnected(connected, (c) => c.heapGrowth),
    };
  } finally {
    workers.kill();
  }
}

/** The workers' CPU and their WFMs' per device connected, summed over the workers, two decimals of a millisecond. */
function cpuPerHandshake(connected: Extract<MtlsWorkerReport, { type: 'connected' }>[]) {
  const devices = Math.max(1, sum(connected.map((c) => c.connected)));
  const per = (ms: number) => Math.round((ms / devices) * 100) / 100;
  const wfm = connected.map((c) => c.wfmCpuMs);
  return {
    clientCpuMsPerHandshake: per(sum(connected.map((c) => c.clientCpuMs))),
    ...(wfm.every((x) => x !== undefined) && { wfmCpuMsPerHandshake: per(sum(wfm.map((x) => x!))) }),
  };
}

/** A figure of every worker's connecting phase, summed, per device connected. */
function perConnected(connected: Extract<MtlsWorkerReport, { type: 'connected' }>[], of: (c: (typeof connected)[number]) => number) {
  return Math.round(sum(connected.map(of)) / Math.max(1, sum(connected.map((c) => c.connected))));
}

/** Each held device is a socket in this process and in the WFM's: past this limit connections fail (EMFILE). */
function openFilesLimit(): { openFilesLimit?: number } {
  try {
    const line = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    return line ? { openFilesLimit: Number(line[1]) } : {};
  } catch {
    return {};
  }
}
