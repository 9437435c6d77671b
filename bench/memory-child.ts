// Figure 3, in its own process (node --expose-gc): N devices alive at once, each built by the fleet's own
// environment (compact description, driver machine, DeviceApiClient with its own P-256 key and keyid, certificate)
// and started into phase `reporting` against a replay of one onboarding recorded with the reference WFM.
// Heap per device = heapUsed after global.gc() with every device held, minus heapUsed before the first one.
import { createRootCa } from '../protocol/pki.ts';
import { startWfm } from '../reference/wfm/server.ts';
import { describeDevice, describeFleet } from '../simulators/data/describe.ts';
import type { SimulatedDevice } from '../simulators/device/types.ts';
import { fleetEnvironment } from '../simulators/fleet/devices.ts';
import { tokenBucket } from '../simulators/fleet/rate-limit.ts';
import type { DeviceContext } from '../simulators/fleet/runner.ts';
import { resolveFleetSpec } from '../simulators/fleet/spec.ts';
import { FleetStats } from '../simulators/fleet/stats.ts';
import { createTransport } from '../simulators/transport/undici-transport.ts';
import { resolveProfile } from '../spec/profile.ts';
import { CertificateMint, type MintedCertificate } from './mint.ts';
import { recording, replay, type Recording } from './replay-transport.ts';

export interface MemoryChildResult {
  devices: number;
  reporting: number;
  heapBytesPerDevice: number;
  /** Off-heap (Buffers) and whole-process growth per device, for honesty about what the heap leaves out. */
  externalBytesPerDevice: number;
  rssBytesPerDevice: number;
  heapUsedMiB: number;
  seconds: { mint: number; create: number; start: number };
}

const gc = (globalThis as { gc?: () => void }).gc;

function settledMemory(): NodeJS.MemoryUsage {
  gc!();
  gc!();
  return process.memoryUsage();
}

async function main(n: number): Promise<MemoryChildResult> {
  if (!gc) throw new Error('bench: the memory figure needs node --expose-gc');
  const spec = resolveFleetSpec({ devices: n, seed: 1, idPrefix: 'bench' });
  const profile = resolveProfile();
  const deviceCa = await createRootCa('wfmck bench device CA');
  const mint = new CertificateMint(deviceCa);
  const settings = { timeoutMs: spec.timeout, timeScale: spec.timeScale };
  const ctx: DeviceContext = { observer: new FleetStats().record, signal: new AbortController().signal, onStatusReport: () => undefined };
  const answers = await recordOnboarding(mint, deviceCa, ctx, settings);

  const pool: (MintedCertificate | undefined)[] = [];
  let taken = 0;
  const target = { wfm: 'https://127.0.0.1:9', deviceCa, profile };
  const transport = replay(answers);
  const certificate = async () => {
    const minted = pool[taken];
    pool[taken++] = undefined;
    return minted ?? (await mint.mint('bench-warm-000000'));
  };
  const env = await fleetEnvironment(target, tokenBucket(0), settings, { certificate, transport: () => transport });
  // Warm every code path first, so compiled code and lazy module state are not counted as device heap.
  await startAll(
    await Promise.all(Array.from({ length: 200 }, (_, i) => env.createDevice(describeDevice(2, i, 'plain', { idPrefix: 'bench' }), ctx))),
  );
  taken = 0;
  const before = settledMemory();

  let t = performance.now();
  for (let i = 0; i < n; i++) pool.push(await mint.mint(`bench-dev-${String(i).padStart(6, '0')}`));
  const mintSeconds = (performance.now() - t) / 1000;
  t = performance.now();
  const devices: SimulatedDevice[] = [];
  for (const desc of describeFleet(spec)) devices.push(await env.createDevice(desc, ctx));
  const createSeconds = (performance.now() - t) / 1000;
  t = performance.now();
  await startAll(devices);
  const startSeconds = (performance.now() - t) / 1000;
  pool.length = 0;

  const after = settledMemory();
  const per = (key: 'heapUsed' | 'external' | 'rss') => Math.round((after[key] - before[key]) / n);
  return {
    devices: devices.length,
    reporting: devices.filter((d) => d.phase === 'reporting').length,
    heapBytesPerDevice: per('heapUsed'),
    externalBytesPerDevice: per('external'),
    rssBytesPerDevice: per('rss'),
    heapUsedMiB: Math.round(after.heapUsed / 2 ** 20),
    seconds: { mint: round1(mintSeconds), create: round1(createSeconds), start: round1(startSeconds) },
  };
}

/** One real device onboarded by the same environment against the reference WFM (plain HTTP, in this process). */
async function recordOnboarding(
  mint: CertificateMint,
  deviceCa: Awaited<ReturnType<typeof createRootCa>>,
  ctx: DeviceContext,
  settings: { timeoutMs: number; timeScale: number },
) {
  const root = await createRootCa('wfmck bench root CA');
  const wfm = await startWfm({ rootCaPem: root.certPem, trustedDeviceCaPems: [deviceCa.certPem] });
  let rec: Recording | undefined;
  try {
    const env = await fleetEnvironment({ wfm: wfm.url, deviceCa, profile: resolveProfile() }, tokenBucket(0), settings, {
      certificate: (desc) => mint.mint(desc.id),
      transport: (baseUrl) => (rec = recording(createTransport({ baseUrl }))).transport,
    });
    const device = await env.createDevice(describeDevice(3, 0, 'plain', { idPrefix: 'bench' }), ctx);
    await device.start();
    await env.close();
    if (device.phase !== 'reporting' || !rec) throw new Error(`bench: the recorded onboarding ended in phase ${device.phase}`);
    return rec.answers;
  } finally {
    await rec?.transport.close();
    await wfm.close();
  }
}

async function startAll(devices: SimulatedDevice[]): Promise<void> {
  for (let i = 0; i < devices.length; i += 256) await Promise.all(devices.slice(i, i + 256).map((d) => d.start()));
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

main(Number(process.argv[2]))
  .then((result) => process.send?.({ type: 'result', result }))
  .catch((err: Error) => process.send?.({ type: 'failed', message: err.stack ?? err.message }))
  .finally(() => process.disconnect?.());
