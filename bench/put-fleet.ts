// The fleet runner in PUT mode: as many devices as connections, each onboarded for real through the device driver,
// then at every tick (tick interval 0: as soon as its last answer is in) PUTting the same capabilities document over
// the fleet's transport (DeviceApiClient, undici, P3 signature when the profile signs). Counted in a timed window.
import { certificateKeyId } from '../protocol/pki.ts';
import { DeviceApiClient } from '../simulators/device-api.ts';
import { createDevice } from '../simulators/device/driver.ts';
import type { DeviceDescription } from '../simulators/device/types.ts';
import { runFleet, type DeviceContext, type EnvironmentFactory, type FleetTarget } from '../simulators/fleet/runner.ts';
import { resolveFleetSpec } from '../simulators/fleet/spec.ts';
import { TransportError } from '../simulators/transport/types.ts';
import { createSharedAgent, createTransport } from '../simulators/transport/undici-transport.ts';
import { rateLimited } from '../simulators/fleet/rate-limit.ts';
import type { MintedCertificate } from './mint.ts';
import { measuredPart, type Window } from './wfm-process.ts';
import { withTick } from './with-tick.ts';

export interface PutModeOptions {
  target: FleetTarget & { profile: NonNullable<FleetTarget['profile']> };
  connections: number;
  /** The one plain device every client reports: the same body on every PUT. */
  description: DeviceDescription;
  /** One per device (`connections` of them), minted before the clock starts. */
  certificates: MintedCertificate[];
  warmupMs: number;
  durationMs: number;
  /** Requests per second across the devices (the fleet's own token bucket); default no limit. */
  rate?: number;
  /**
   * Where the PUTs go once the devices are onboarded (default the target's WFM): a bare server there takes the
   * WFM's cost out, so what is measured is the client's side alone.
   */
  putUrl?: string;
}

export interface PutModeRun {
  /** 2xx answers inside the window. */
  ok: number;
  other: number;
  errors: number;
  seconds: number;
}

export async function fleetPuts(o: PutModeOptions, window?: Window): Promise<PutModeRun> {
  if (o.certificates.length < o.connections)
    throw new Error(`bench: ${o.connections} PUT-mode devices need as many certificates, not ${o.certificates.length}`);
  const run: PutModeRun = { ok: 0, other: 0, errors: 0, seconds: 0 };
  const stop = new AbortController();
  let counting = false;
  let started = 0;
  let windowDone: Promise<void> = Promise.resolve();
  const record = (status: number | undefined) => {
    if (!counting) return;
    if (status === undefined) run.errors++;
    else if (status >= 200 && status < 300) run.ok++;
    else run.other++;
  };
  const measure = async () => {
    run.seconds = await measuredPart(o, window, (on) => (counting = on));
    stop.abort(new Error('measured'));
  };
  let settled = 0;
  // The window opens once every device reports; a device that could not start ends the run at once.
  const onStarted = (reporting: boolean) => {
    if (reporting) started++;
    if (++settled < o.connections) return;
    if (started === o.connections) windowDone = measure();
    else stop.abort(new Error('a PUT-mode device did not start'));
  };
  const spec = resolveFleetSpec({
    devices: o.connections,
    concurrency: o.connections,
    tickInterval: 0,
    duration: 3600,
    seed: 1,
    ...(o.rate !== undefined && { rate: o.rate, burst: o.connections }),
  });
  await runFleet(spec, o.target, { signal: stop.signal, environment: putEnvironment(o, onStarted, record) });
  await windowDone;
  if (started < o.connections) throw new Error(`bench: only ${started} of ${o.connections} PUT-mode devices started`);
  return run;
}

function putEnvironment(
  o: PutModeOptions,
  onStarted: (reporting: boolean) => void,
  record: (status: number | undefined) => void,
): EnvironmentFactory {
  return async (target, limiter, settings) => {
    const tls = target.ca === undefined ? {} : { ca: target.ca };
    const agent = createSharedAgent({ connections: o.connections, ...tls });
    const transport = rateLimited(createTransport({ baseUrl: target.wfm, dispatcher: agent, timeoutMs: settings.timeoutMs }), limiter);
    const putAgent = o.putUrl === undefined ? agent : createSharedAgent({ connections: o.connections, ...tls });
    const putTransport =
      o.putUrl === undefined
        ? transport
        : rateLimited(createTransport({ baseUrl: o.putUrl, dispatcher: putAgent, timeoutMs: settings.timeoutMs }), limiter);
    const profile = o.target.profile;
    // The same document every PUT: serialised once, as autocannon is handed its body (the bytes are the same).
    const body = Buffer.from(JSON.stringify(o.description.capabilities), 'utf8');
    let next = 0;
    return {
      createDevice(_desc, ctx) {
        const certificate = o.certificates[next++]!;
        const signer = {
          keyId: certificateKeyId(certificate.der),
          privateKey: certificate.privateKey,
          algorithm: profile.signatureAlgorithm,
        };
        const api = new DeviceApiClient({ transport, baseUrl: target.wfm, profile, signer });
        const puts = o.putUrl === undefined ? api : new DeviceApiClient({ transport: putTransport, baseUrl: o.putUrl, profile, signer });
        const device = createDevice(o.description, {
          api,
          profile,
          certificate: certificate.der.toString('base64'),
          observer: ctx.observer,
        });
        const tick = putTick(puts, o.description.id, body, ctx, record);
        // The PUTs elsewhere go to the clientId the WFM gave at onboarding.
        const ticks = puts === api ? tick : () => ((puts.clientId = api.clientId), tick());
        return withTick(device, ticks, () => onStarted(device.phase === 'reporting'));
      },
      abort: () => undefined,
      close: async () => {
        await Promise.all([agent.close(), putAgent === agent ? undefined : putAgent.close()]);
      },
    };
  };
}

/** One tick = one PUT of the same document, reported to the runner as the driver reports its own. */
function putTick(
  api: DeviceApiClient,
  deviceId: string,
  body: Uint8Array,
  ctx: DeviceContext,
  record: (status: number | undefined) => void,
): () => Promise<void> {
  return async () => {
    try {
      const response = await api.putCapabilities(deviceId, body);
      const expected = response.status === 200 || response.status === 201;
      ctx.observer({
        type: 'response',
        deviceId,
        endpoint: 'capabilities.put',
        status: response.status,
        latencyMs: response.durationMs ?? response.exchange.durationMs,
        expected,
      });
      record(response.status);
    } catch (e) {
      if (!(e instanceof TransportError)) throw e;
      ctx.observer({
        type: 'transport-error',
        deviceId,
        endpoint: 'capabilities.put',
        code: e.code,
        message: e.message,
        exchange: e.exchange,
      });
      record(undefined);
    }
  };
}
