// Figure 2: devices per second from nothing to onboarded + capabilities reported, through the fleet runner and its
// real environment (driver, DeviceApiClient, RFC 9421 signatures) against the reference WFM in its own process.
// Each device brings its certificate: they are minted before the clock starts, as a provisioned device holds one.
import { describeFleet } from '../simulators/data/describe.ts';
import { fleetEnvironment } from '../simulators/fleet/devices.ts';
import { runFleet, type EnvironmentFactory } from '../simulators/fleet/runner.ts';
import { resolveFleetSpec } from '../simulators/fleet/spec.ts';
import { resolveProfile } from '../spec/profile.ts';
import { CertificateMint, type MintedCertificate } from './mint.ts';
import { round } from './targets.ts';
import { CpuMeter, startWfmProcess, type BenchPki } from './wfm-process.ts';
import { withTick } from './with-tick.ts';

export interface OnboardingSettings {
  devices: number;
  /** Devices starting at once: `wfmck fleet`'s default. */
  concurrency: number;
}

export interface OnboardingMeasurement {
  settings: OnboardingSettings;
  devicesPerSecond: number;
  /** From the first device created to the last one reporting. */
  seconds: number;
  onboarded: number;
  reporting: number;
  unexpected: number;
  requests: number;
  /** Minting the certificates, before the clock. */
  mintSeconds: number;
  wfmCpuMsPer1000: number;
  /** The kit's own CPU (this process: the fleet, its transport and signatures) per device onboarded and reporting, µs. */
  clientCpuUsPerOnboarding: number;
}

export async function measureOnboarding(pki: BenchPki, settings: OnboardingSettings): Promise<OnboardingMeasurement> {
  const spec = resolveFleetSpec({
    devices: settings.devices,
    concurrency: settings.concurrency,
    duration: 0,
    tickInterval: 0.05,
    seed: 1,
    idPrefix: 'bench',
  });
  const mintStart = performance.now();
  const mint = new CertificateMint(pki.deviceCa);
  const pool = new Map<string, MintedCertificate>();
  for (const desc of describeFleet(spec)) pool.set(desc.id, await mint.mint(desc.id));
  const mintSeconds = (performance.now() - mintStart) / 1000;

  const wfm = await startWfmProcess(pki, {});
  try {
    const cpu = CpuMeter.of(wfm);
    const target = { wfm: wfm.url, ca: pki.root.certPem, deviceCa: pki.deviceCa, profile: resolveProfile() };
    await cpu.begin();
    const own = process.cpuUsage();
    const result = await runFleet(spec, target, { environment: startOnly(pool) });
    const ownUs = process.cpuUsage(own);
    await cpu.end();
    const { clients, requests } = result.totals;
    const seconds = result.startPhaseMs / 1000;
    return {
      settings,
      devicesPerSecond: seconds > 0 ? round(clients.reporting / seconds) : 0,
      seconds: round(seconds, 2),
      onboarded: clients.onboarded,
      reporting: clients.reporting,
      unexpected: requests.unexpected + requests.transportErrors,
      requests: requests.total,
      mintSeconds: round(mintSeconds, 1),
      wfmCpuMsPer1000: requests.total > 0 ? round((cpu.ms * 1000) / requests.total, 1) : 0,
      clientCpuUsPerOnboarding: clients.reporting > 0 ? round((ownUs.user + ownUs.system) / clients.reporting, 1) : 0,
    };
  } finally {
    await wfm.close();
  }
}

/** The fleet's own environment with brought certificates; ticks do nothing, so only the start is timed. */
function startOnly(pool: Map<string, MintedCertificate>): EnvironmentFactory {
  const certificate = async (desc: { id: string }) => {
    const minted = pool.get(desc.id);
    if (!minted) throw new Error(`bench: no certificate minted for ${desc.id}`);
    pool.delete(desc.id);
    return minted;
  };
  return async (target, limiter, settings) => {
    const env = await fleetEnvironment(target, limiter, settings, { certificate });
    return {
      ...env,
      createDevice: async (desc, ctx) => withTick(await env.createDevice(desc, ctx), async () => undefined),
    };
  };
}
