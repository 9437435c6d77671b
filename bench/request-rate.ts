// Figure 1: PUT capabilities per second, the fleet's PUT mode beside autocannon, same endpoint, body, connections and
// duration, interleaved in rounds so a noisy machine slows both alike. Signing off on one reference WFM (P3 `none`),
// on on another (P3 `signature`): autocannon cannot sign, so the signed fleet is compared with unsigned autocannon.
// autocannon also PUTs to a bare node:https server in the WFM's place: what one exchange costs a server at least.
import { describeDevice } from '../simulators/data/describe.ts';
import { DeviceApiClient } from '../simulators/device-api.ts';
import { createTransport } from '../simulators/transport/undici-transport.ts';
import { deviceApiPaths, resolveProfile, type Profile } from '../spec/profile.ts';
import { cannon } from './autocannon.ts';
import { CertificateMint, type MintedCertificate } from './mint.ts';
import { fleetPuts } from './put-fleet.ts';
import { round } from './targets.ts';
import { undiciAlone } from './undici-alone.ts';
import { CpuMeter, startWfmProcess, windows, type BenchPki, type Window, type WfmProcess } from './wfm-process.ts';

export interface RateSettings {
  connections: number;
  /** Seconds measured per round and per side. */
  seconds: number;
  rounds: number;
  warmupSeconds: number;
}

export interface RateSide {
  requestsPerSecond: number;
  /** 2xx answers counted. */
  ok: number;
  /** Anything else: another status, a transport error, a timeout. */
  failed: number;
  seconds: number;
  /** The reference WFM's CPU time (user + system) per 1,000 of these requests. */
  wfmCpuMsPer1000: number;
  /** The client's (this process's) CPU time per 1,000 of these requests. */
  clientCpuMsPer1000: number;
}

export interface RateMeasurements {
  settings: RateSettings;
  autocannon: RateSide;
  fleetUnsigned: RateSide;
  fleetSigned: RateSide;
  /**
   * The unsigned fleet again, held by its token bucket to the signed fleet's rate: a client's CPU per request grows as
   * its rate falls (fewer answers per wake-up of the event loop), so the cost of signing is read at the same rate.
   */
  fleetUnsignedAtSignedRate: RateSide;
  /**
   * autocannon against a bare node:https server (wfm-child.ts `bare`) in the WFM's place, same PUT and connections,
   * held to the rate autocannon reached against the WFM: its `wfmCpuMsPer1000` is the floor of one exchange on the
   * server's side at that rate, what node:https costs and no more.
   */
  bareServer: RateSide;
  /**
   * undici alone (undici-alone.ts) against the unsigned WFM, same PUT, body and connections, in the same rounds: the
   * HTTP client the kit's transport is built on, with no kit code. The fleet's client CPU over it is the kit's part;
   * its own over autocannon's is undici's.
   */
  undiciAlone: RateSide;
}

/** P3 paths `client-scoped`: the clientId is in the path, so the unsigned profile needs no header to name the client. */
export const UNSIGNED: Partial<Profile> = { deviceAuth: 'none', paths: 'client-scoped' };
const SIGNED: Partial<Profile> = { deviceAuth: 'signature', paths: 'client-scoped' };

export async function measureRequestRates(pki: BenchPki, settings: RateSettings): Promise<RateMeasurements> {
  const unsigned = await startWfmProcess(pki, UNSIGNED);
  const signed = await startWfmProcess(pki, SIGNED).catch(async (err) => {
    await unsigned.close();
    throw err;
  });
  const bare = await startWfmProcess(pki, UNSIGNED, { bare: true }).catch(async (err) => {
    await Promise.all([unsigned.close(), signed.close()]);
    throw err;
  });
  try {
    const description = describeDevice(1, 0, 'plain', { idPrefix: 'bench' });
    const mint = new CertificateMint(pki.deviceCa);
    const certificates: MintedCertificate[] = [];
    for (let i = 0; i <= settings.connections; i++) certificates.push(await mint.mint(`bench-put-${String(i).padStart(6, '0')}`));
    const cannonCertificate = certificates.pop()!;
    const url = await cannonUrl(unsigned, pki, cannonCertificate, description.id);
    const body = JSON.stringify(description.capabilities);
    const sides = {
      autocannon: new Side(unsigned),
      fleetUnsigned: new Side(unsigned),
      fleetSigned: new Side(signed),
      fleetUnsignedAtSignedRate: new Side(unsigned),
      bareServer: new Side(bare),
      undiciAlone: new Side(unsigned),
    };
    const fleet = (wfm: WfmProcess, profile: Partial<Profile>, side: Side, rate?: number) => async () => {
      const target = { wfm: wfm.url, ca: pki.root.certPem, deviceCa: pki.deviceCa, profile: resolveProfile(profile) };
      const options = {
        target,
        connections: settings.connections,
        description,
        certificates,
        warmupMs: settings.warmupSeconds * 1000,
        durationMs: settings.seconds * 1000,
        ...(rate !== undefined && { rate }),
      };
      const r = await fleetPuts(options, side.window);
      side.add(r.ok, r.other + r.errors, r.seconds);
    };
    const autocannonOn = (target: string, side: Side, rate?: number) => async () => {
      const options = {
        url: target,
        method: 'PUT' as const,
        headers: { 'content-type': 'application/json' },
        body,
        connections: settings.connections,
        duration: settings.seconds,
        warmupSeconds: settings.warmupSeconds,
        ...(rate !== undefined && { rate }),
      };
      const r = await cannon(options, side.window);
      side.add(r.ok, r.non2xx + r.errors + r.timeouts, r.seconds);
    };
    const undiciOn = (side: Side) => async () => {
      const options = {
        url,
        headers: { 'content-type': 'application/json' },
        body,
        connections: settings.connections,
        ca: pki.root.certPem,
      };
      const r = await undiciAlone(
        { ...options, warmupMs: settings.warmupSeconds * 1000, durationMs: settings.seconds * 1000 },
        side.window,
      );
      side.add(r.ok, r.failed, r.seconds);
    };
    const steps = [
      autocannonOn(url, sides.autocannon),
      undiciOn(sides.undiciAlone),
      fleet(unsigned, UNSIGNED, sides.fleetUnsigned),
      fleet(signed, SIGNED, sides.fleetSigned),
    ];
    // Alternate the order every round, so neither side always runs on a warmer (or busier) machine.
    for (let round = 0; round < settings.rounds; round++) for (const step of round % 2 === 0 ? steps : [...steps].reverse()) await step();
    await fleet(unsigned, UNSIGNED, sides.fleetUnsignedAtSignedRate, Math.max(1, sides.fleetSigned.result().requestsPerSecond))();
    // At the rate autocannon drove the WFM to: a server's CPU per exchange falls as its rate rises (more answers per
    // wake-up), so the floor of the WFM's exchanges is read at the WFM's own rate.
    await autocannonOn(`${bare.url}${new URL(url).pathname}`, sides.bareServer, Math.max(1, sides.autocannon.result().requestsPerSecond))();
    return {
      settings,
      autocannon: sides.autocannon.result(),
      fleetUnsigned: sides.fleetUnsigned.result(),
      fleetSigned: sides.fleetSigned.result(),
      fleetUnsignedAtSignedRate: sides.fleetUnsignedAtSignedRate.result(),
      bareServer: sides.bareServer.result(),
      undiciAlone: sides.undiciAlone.result(),
    };
  } finally {
    await Promise.all([unsigned.close(), signed.close(), bare.close()]);
  }
}

class Side {
  readonly window: Window;
  private readonly wfm: CpuMeter;
  private readonly client = CpuMeter.ofThisProcess();
  private ok = 0;
  private failed = 0;
  private seconds = 0;

  constructor(wfm: WfmProcess) {
    this.wfm = CpuMeter.of(wfm);
    this.window = windows(this.wfm, this.client);
  }

  add(ok: number, failed: number, seconds: number): void {
    this.ok += ok;
    this.failed += failed;
    this.seconds += seconds;
  }

  result(): RateSide {
    const requests = this.ok + this.failed;
    return {
      requestsPerSecond: this.seconds > 0 ? round(this.ok / this.seconds) : 0,
      ok: this.ok,
      failed: this.failed,
      seconds: round(this.seconds, 2),
      wfmCpuMsPer1000: requests > 0 ? round((this.wfm.ms * 1000) / requests, 1) : 0,
      clientCpuMsPer1000: requests > 0 ? round((this.client.ms * 1000) / requests, 1) : 0,
    };
  }
}

/** autocannon's client onboards like any device (no signature: P3 `none`), then PUTs to its own path. */
async function cannonUrl(wfm: WfmProcess, pki: BenchPki, certificate: MintedCertificate, deviceId: string): Promise<string> {
  const profile = resolveProfile(UNSIGNED);
  const transport = createTransport({ baseUrl: wfm.url, ca: pki.root.certPem });
  try {
    const { response, clientId } = await new DeviceApiClient({ transport, profile }).onboard(certificate.der.toString('base64'));
    if (!clientId) throw new Error(`bench: autocannon's client was not onboarded: HTTP ${response.status} ${response.text()}`);
    return `${wfm.url}${deviceApiPaths(profile).capabilities(deviceId, clientId)}`;
  } finally {
    await transport.close();
  }
}
