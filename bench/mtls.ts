// P10 (miaf) at scale: how many devices, each with its own X.509-SVID and its own mutual-TLS connection, one kit
// process holds against the reference WFM (in its own process: `wfmck serve --edition miaf`), and how many
// handshakes per second it makes. Devices spread over loopback source addresses; each polls every pollSeconds to stay
// connected, as a fleet device does.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { loadIssued } from '../protocol/pki.ts';
import { nativeSvidIssuer, svidCaOf } from '../protocol/svid-issuer.ts';
import { clientSpiffeId, wfmSpiffeId } from '../spec/spiffe-id.ts';
import { createTransport } from '../simulators/transport/undici-transport.ts';
import type { Transport } from '../simulators/transport/types.ts';
import { measureTlsFloor, type TlsFloorMeasurement } from './tls-floor.ts';

export interface MtlsSettings {
  devices: number;
  /** Loopback source addresses, 127.0.0.1 .. 127.0.0.N. */
  sources: number;
  /** Handshakes in flight at once. */
  concurrency: number;
  /** Seconds every device stays connected (polling) once all are up. */
  holdSeconds: number;
  /** A device's poll interval: inside the reference WFM's 65 s idle timeout (30 s: 1,000 polls/s for 30,000 devices). */
  pollSeconds: number;
}

export interface MtlsMeasurement {
  settings: MtlsSettings;
  /** The soft limit of open files per process here (Linux /proc/self/limits): each device holds a socket. */
  openFilesLimit?: number;
  /**
   * Devices connected: all of them, or as many as the open-files limit leaves room for (each is a socket in this
   * process and in the WFM's). Past the limit a connection fails with EMFILE after its context is made, and the
   * garbage of thousands of such attempts would be counted in the RSS of the devices held.
   */
  attempted: number;
  /** Devices whose connection was up and answering at the end of the hold. */
  heldConcurrently: number;
  /** Attempted connections the WFM refused or dropped. */
  failed: number;
  /** Handshake plus first answer, all devices, over the wall time of the connecting phase. */
  handshakesPerSecond: number;
  /**
   * The same over the first `firstDevices` only, before any device's first poll is due: the like-for-like figure
   * beside the floor, which has no traffic besides its handshakes.
   */
  firstHandshakesPerSecond: number;
  firstDevices: number;
  connectSeconds: number;
  /** Seconds spent minting the SVIDs (before the clock). */
  mintSeconds: number;
  /** Growth of the kit process's RSS and heap per held device. */
  rssBytesPerDevice: number;
  heapBytesPerDevice: number;
  /** Bare Node mutual TLS on this machine, measured first: what handshakes/s and RSS per device are judged beside. */
  floor: TlsFloorMeasurement;
}

/** Open files a process keeps besides its devices' sockets (its own files, pipes, the WFM's listeners). */
const OPEN_FILES_HEADROOM = 500;
/** The devices over which the first handshake rate is read (fewer than a poll interval's worth at the floor's rate). */
const FIRST_DEVICES = 2_000;

const root = fileURLToPath(new URL('..', import.meta.url));

export async function measureMtls(s: MtlsSettings): Promise<MtlsMeasurement> {
  const limit = openFilesLimit();
  const attempted = Math.min(s.devices, limit.openFilesLimit !== undefined ? limit.openFilesLimit - OPEN_FILES_HEADROOM : Infinity);
  if (attempted < 1)
    throw new Error(
      `bench mtls: the open-files limit (${limit.openFilesLimit}) leaves no room for a device beside the ${OPEN_FILES_HEADROOM} files a process keeps; raise it (ulimit -n)`,
    );
  // The floor holds as many connections as the kit does: RSS per connection grows with their number here
  // (bare Node: ~75 KB at 3,000, ~87 KB at 10,000), so a floor at another count would not be the like-for-like one.
  const floor = await measureTlsFloor(attempted, s.concurrency);
  const server = spawn(process.execPath, [`${root}bin/wfmck.mjs`, 'serve', '--edition', 'miaf'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const info = await serveInfo(server);
    const ca = await readFile(info.caFile, 'utf8');
    const identity = { trustDomain: info.trustDomain, vendor: 'platform', wfmId: info.wfmId };
    const { svids, mintSeconds } = await mintSvids(info, identity, attempted);

    global.gc?.();
    const before = process.memoryUsage();
    // Each device as a miaf fleet device holds it: the kit's own transport over one connection of its own.
    const devices = svids.map((svid, i) =>
      createTransport({
        baseUrl: info.wfm,
        connections: 1,
        timeoutMs: 30_000,
        connectTimeoutMs: 30_000,
        keepAliveTimeoutMs: 60_000,
        ca,
        clientCert: { cert: svid.chainPem, key: svid.keyPem },
        serverSpiffeId: wfmSpiffeId(identity),
        localAddress: `127.0.0.${(i % s.sources) + 1}`,
      }),
    );
    const { connected, connectSeconds, firstSeconds, firstConnected, firstDevices, up } = await connectAndHold(devices, s, attempted);
    global.gc?.();
    const after = process.memoryUsage();
    const held = up.filter(Boolean).length;
    await Promise.all(devices.map((d) => d.close().catch(() => undefined)));
    return {
      settings: s,
      ...limit,
      attempted,
      heldConcurrently: held,
      failed: attempted - held,
      handshakesPerSecond: Math.round(connected / connectSeconds),
      firstHandshakesPerSecond: Math.round(firstConnected / (firstSeconds ?? connectSeconds)),
      firstDevices,
      connectSeconds: Math.round(connectSeconds * 10) / 10,
      mintSeconds: Math.round(mintSeconds * 10) / 10,
      rssBytesPerDevice: Math.round((after.rss - before.rss) / Math.max(1, held)),
      heapBytesPerDevice: Math.round((after.heapUsed - before.heapUsed) / Math.max(1, held)),
      floor,
    };
  } finally {
    server.kill('SIGTERM');
  }
}

/** The JSON line `wfmck serve` prints once its services listen. */
interface ServeInfo {
  wfm: string;
  admin: string;
  adminToken: string;
  caFile: string;
  deviceCaCertFile: string;
  deviceCaKeyFile: string;
  trustDomain: string;
  wfmId: string;
}

async function serveInfo(server: ChildProcess): Promise<ServeInfo> {
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: server.stdout! }).once('line', resolve);
    server.once('exit', (code) => reject(new Error(`wfmck serve exited ${code}`)));
  });
  return JSON.parse(first) as ServeInfo;
}

/** One SVID per device from the served device CA, admitted by the WFM's hook; timed apart from the connections. */
async function mintSvids(info: ServeInfo, identity: { trustDomain: string; vendor: string; wfmId: string }, attempted: number) {
  const deviceCa = await loadIssued(await readFile(info.deviceCaCertFile, 'utf8'), await readFile(info.deviceCaKeyFile, 'utf8'));
  const svidCa = svidCaOf(deviceCa, info.trustDomain);
  const t0 = performance.now();
  const svids = [];
  // Minted as a fleet mints them: issueSvid's leaf, natively.
  const mint = nativeSvidIssuer(svidCa);
  for (let i = 0; i < attempted; i++) {
    const svid = mint(clientSpiffeId({ ...identity, clientId: `bench-${i}` }));
    await admit(info, svid.spiffeId);
    svids.push(svid);
  }
  return { svids, mintSeconds: (performance.now() - t0) / 1000 };
}

/**
 * Connects the devices, `concurrency` handshakes at a time, each polling from the moment it is up, then holds them
 * all polling for holdSeconds; `up` says which were still answering at the end.
 */
async function connectAndHold(devices: Transport[], s: MtlsSettings, attempted: number) {
  const poll = async (device: Transport): Promise<boolean> => {
    try {
      const res = await device.request({ method: 'GET', url: '/api/v1/deployments' });
      return res.status === 200 || res.status === 304;
    } catch {
      return false;
    }
  };
  const POLL_MS = s.pollSeconds * 1000;
  const t1 = performance.now();
  let next = 0;
  let done = 0;
  let connected = 0;
  let firstSeconds: number | undefined;
  let firstConnected = 0;
  const firstDevices = Math.min(attempted, FIRST_DEVICES);
  let stopAt = Infinity;
  const up = new Array<boolean>(devices.length).fill(false);
  const polling: Promise<void>[] = [];
  // A fleet device polls on its own clock from the moment it is connected: its connection stays in use (the
  // reference WFM closes an mTLS connection idle 65 s) while the rest of the fleet is still joining. A poll that
  // fails marks the device dropped for good.
  const keepPolling = async (i: number) => {
    while (up[i] && performance.now() < stopAt) {
      await new Promise((r) => setTimeout(r, Math.min(POLL_MS, Math.max(0, stopAt - performance.now()))));
      if (performance.now() >= stopAt) break;
      up[i] = await poll(devices[i]!);
      if (!up[i]) await devices[i]!.close().catch(() => undefined);
    }
  };
  await Promise.all(
    Array.from({ length: s.concurrency }, async () => {
      while (next < devices.length) {
        const i = next++;
        up[i] = await poll(devices[i]!);
        if (up[i]) connected++;
        else await devices[i]!.close().catch(() => undefined);
        if (++done === firstDevices) [firstSeconds, firstConnected] = [(performance.now() - t1) / 1000, connected];
        polling.push(keepPolling(i));
      }
    }),
  );
  const connectSeconds = (performance.now() - t1) / 1000;
  // Hold: every device goes on polling every POLL_MS until holdSeconds after the last one connected.
  stopAt = performance.now() + s.holdSeconds * 1000;
  await Promise.all(polling);
  return { connected, connectSeconds, firstSeconds, firstConnected, firstDevices, up };
}

async function admit(info: { admin: string; adminToken: string }, spiffeId: string): Promise<void> {
  const res = await fetch(`${info.admin}/hooks/admitClient`, {
    method: 'POST',
    headers: { authorization: `Bearer ${info.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ spiffeId }),
  });
  if (!res.ok) throw new Error(`admitClient: HTTP ${res.status} ${await res.text()}`);
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
