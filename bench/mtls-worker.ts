// One worker process of the mTLS figure (mtls.ts): its share of the devices, each with its own X.509-SVID and the
// kit's own transport over one connection (or, for the same-exchange floor, bare Node TLS doing the same), against a
// `wfmck serve --edition miaf` of its own (the WFM's open-files limit is its own, not the kit's). It steps with the
// other workers: all mint, then all connect, then all hold, so the devices held are held at the same time and the
// handshake rate is the workers' together.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { loadIssued } from '../protocol/pki.ts';
import { nativeSvidIssuer, svidCaOf } from '../protocol/svid-issuer.ts';
import { clientSpiffeId, wfmSpiffeId } from '../spec/spiffe-id.ts';
import { createTransport } from '../simulators/transport/undici-transport.ts';
import { bareMtlsDevice, type HeldDevice } from './bare-mtls-device.ts';
import type { MtlsClient, MtlsSettings } from './mtls.ts';
import { childMain, parentSays } from './in-step.ts';

/** From the parent: which devices are this worker's (global index i with i mod workers = worker, below attempted). */
export interface MtlsWorkerStart {
  settings: MtlsSettings;
  worker: number;
  workers: number;
  attempted: number;
  firstDevices: number;
  /** The kit's transport per device, or the same exchange over bare Node TLS (the same-exchange floor). */
  client: MtlsClient;
}

export type MtlsWorkerReport =
  | { type: 'minted'; mintSeconds: number }
  | {
      type: 'connected';
      devices: number;
      connected: number;
      connectSeconds: number;
      firstSeconds: number;
      firstConnected: number;
      /** CPU over the connecting phase: this worker's, and its WFM's (undefined where /proc cannot say). */
      clientCpuMs: number;
      wfmCpuMs: number | undefined;
      /** Growth from before the first connection to the last one up, after global.gc(): before any hold. */
      rssGrowth: number;
      heapGrowth: number;
    }
  | { type: 'held'; held: number; rssGrowth: number; heapGrowth: number };

const root = fileURLToPath(new URL('..', import.meta.url));

childMain<MtlsWorkerStart>((start) => `bench mtls ${start.client} worker ${start.worker + 1}/${start.workers}`, run);

const send = (report: MtlsWorkerReport) => process.send!(report);

async function run({ settings: s, worker, workers, attempted, firstDevices, client: kind }: MtlsWorkerStart): Promise<void> {
  const indexes: number[] = [];
  for (let i = worker; i < attempted; i += workers) indexes.push(i);
  const server = spawn(process.execPath, [`${root}bin/wfmck.mjs`, 'serve', '--edition', 'miaf'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const info = await serveInfo(server);
    const ca = await readFile(info.caFile, 'utf8');
    const identity = { trustDomain: info.trustDomain, vendor: 'platform', wfmId: info.wfmId };
    const { svids, mintSeconds } = await mintSvids(info, identity, indexes);
    send({ type: 'minted', mintSeconds });
    await parentSays('connect');

    global.gc?.();
    const before = process.memoryUsage();
    const devices = svids.map((svid, k) => {
      const device = { cert: svid.chainPem, key: svid.keyPem, localAddress: `127.0.0.${(indexes[k]! % s.sources) + 1}` };
      return (kind === 'kit' ? kitDevice : bareMtlsDevice)({
        wfm: info.wfm,
        path: POLLED,
        ca,
        serverSpiffeId: wfmSpiffeId(identity),
        timeoutMs: 30_000,
        ...device,
      });
    });
    const [client0, wfm0] = [process.cpuUsage(), processCpuMs(server.pid)];
    const hold = connectAndPoll(devices, s, Math.ceil(firstDevices / workers));
    const connected = await hold.connected;
    const [client, wfm1] = [process.cpuUsage(client0), processCpuMs(server.pid)];
    const wfmCpuMs = wfm0 !== undefined && wfm1 !== undefined ? wfm1 - wfm0 : undefined;
    global.gc?.();
    const up = process.memoryUsage();
    send({
      type: 'connected',
      devices: devices.length,
      ...connected,
      clientCpuMs: (client.user + client.system) / 1000,
      wfmCpuMs,
      rssGrowth: up.rss - before.rss,
      heapGrowth: up.heapUsed - before.heapUsed,
    });
    await parentSays('hold');
    const stillUp = await hold.holdFor(s.holdSeconds);
    global.gc?.();
    const after = process.memoryUsage();
    send({
      type: 'held',
      held: stillUp.filter(Boolean).length,
      rssGrowth: after.rss - before.rss,
      heapGrowth: after.heapUsed - before.heapUsed,
    });
    await Promise.all(devices.map((d) => d.close()));
  } finally {
    if (server.exitCode === null && server.signalCode === null) {
      const exited = once(server, 'exit');
      server.kill('SIGTERM');
      await exited;
    }
  }
}

/** What each device GETs, on connecting and at every poll. */
const POLLED = '/api/v1/deployments';

/** A device as a miaf fleet device holds it: the kit's own transport over one connection of its own. */
function kitDevice(o: Parameters<typeof bareMtlsDevice>[0]): HeldDevice {
  const transport = createTransport({
    baseUrl: o.wfm,
    connections: 1,
    timeoutMs: o.timeoutMs,
    connectTimeoutMs: o.timeoutMs,
    keepAliveTimeoutMs: 60_000,
    ca: o.ca,
    clientCert: { cert: o.cert, key: o.key },
    serverSpiffeId: o.serverSpiffeId,
    localAddress: o.localAddress,
  });
  return {
    poll: async () => {
      try {
        const res = await transport.request({ method: 'GET', url: o.path });
        return res.status === 200 || res.status === 304;
      } catch {
        return false;
      }
    },
    close: () => transport.close().catch(() => undefined),
  };
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
  const first = await Promise.race([
    once(createInterface({ input: server.stdout! }), 'line') as Promise<[string]>,
    once(server, 'exit').then(([code]) => {
      throw new Error(`wfmck serve exited ${code}`);
    }),
  ]);
  return JSON.parse(first[0]) as ServeInfo;
}

/** One SVID per device from the served device CA, admitted by the WFM's hook; timed apart from the connections. */
async function mintSvids(info: ServeInfo, identity: { trustDomain: string; vendor: string; wfmId: string }, indexes: number[]) {
  const deviceCa = await loadIssued(await readFile(info.deviceCaCertFile, 'utf8'), await readFile(info.deviceCaKeyFile, 'utf8'));
  const svidCa = svidCaOf(deviceCa, info.trustDomain);
  const t0 = performance.now();
  const svids = [];
  // Minted as a fleet mints them: issueSvid's leaf, natively.
  const mint = nativeSvidIssuer(svidCa);
  for (const i of indexes) {
    const svid = mint(clientSpiffeId({ ...identity, clientId: `bench-${i}` }));
    await admit(info, svid.spiffeId);
    svids.push(svid);
  }
  return { svids, mintSeconds: (performance.now() - t0) / 1000 };
}

/**
 * Connects the devices, `concurrency` handshakes at a time, each polling from the moment it is up (its connection
 * stays in use: the reference WFM closes an mTLS connection idle 65 s) until holdFor's seconds have passed; `up`
 * says which were still answering at the end. A poll that fails marks the device dropped for good.
 */
function connectAndPoll(devices: HeldDevice[], s: MtlsSettings, firstDevices: number) {
  const POLL_MS = s.pollSeconds * 1000;
  let stopAt = Infinity;
  const up = new Array<boolean>(devices.length).fill(false);
  const polling: Promise<void>[] = [];
  const keepPolling = async (i: number) => {
    while (up[i] && performance.now() < stopAt) {
      await new Promise((r) => setTimeout(r, Math.min(POLL_MS, Math.max(0, stopAt - performance.now()))));
      if (performance.now() >= stopAt) break;
      up[i] = await devices[i]!.poll();
      if (!up[i]) await devices[i]!.close();
    }
  };
  const connected = (async () => {
    const t1 = performance.now();
    let next = 0;
    let done = 0;
    let connected = 0;
    let firstSeconds: number | undefined;
    let firstConnected = 0;
    const first = Math.min(devices.length, firstDevices);
    await Promise.all(
      Array.from({ length: s.concurrency }, async () => {
        while (next < devices.length) {
          const i = next++;
          up[i] = await devices[i]!.poll();
          if (up[i]) connected++;
          else await devices[i]!.close();
          if (++done === first) [firstSeconds, firstConnected] = [(performance.now() - t1) / 1000, connected];
          polling.push(keepPolling(i));
        }
      }),
    );
    const connectSeconds = (performance.now() - t1) / 1000;
    return { connected, connectSeconds, firstSeconds: firstSeconds ?? connectSeconds, firstConnected };
  })();
  return {
    connected,
    /** Every device goes on polling until `seconds` from now; then which were still up. */
    holdFor: async (seconds: number) => {
      stopAt = performance.now() + seconds * 1000;
      await Promise.all(polling);
      return up;
    },
  };
}

async function admit(info: { admin: string; adminToken: string }, spiffeId: string): Promise<void> {
  const res = await fetch(`${info.admin}/hooks/admitClient`, {
    method: 'POST',
    headers: { authorization: `Bearer ${info.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ spiffeId }),
  });
  if (!res.ok) throw new Error(`admitClient: HTTP ${res.status} ${await res.text()}`);
}

/** Another process's CPU so far (user + system), from Linux's /proc/PID/stat in clock ticks of 10 ms (USER_HZ). */
function processCpuMs(pid: number | undefined): number | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // After "pid (comm) " (comm may hold spaces and parentheses, so the last ")"): state is field 3, so utime (14)
    // and stime (15) are at 11 and 12. The same reading as run/processes/watchdog.ts procStat, for another process.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}
