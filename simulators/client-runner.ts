// One simulated device client run on its own until stopped: the kit's own client under test for the device persona
// (the startClient hook of the embedded default), and a template of what a vendor's startClient hook receives.
import { X509Certificate, createHash, createPrivateKey } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { describeDevice } from './data/describe.ts';
import type { ChangeableDevice, SeeThruGateway } from './device/driver.ts';
import type { DeviceDescription, DeviceKind } from './device/types.ts';
import type { ClientDecisions } from './device/decisions/index.ts';
import { deviceClient, seeThruGatewayClient, type DeviceClientParts } from './device-client.ts';
import { registryPool } from './registry-pool.ts';
import { algorithmForKey } from '../protocol/signing.ts';
import { createTransport, type UndiciTransport } from './transport/undici-transport.ts';
import type { RequestSigner } from './transport/types.ts';
import { resolveProfile, type Edition } from '../spec/profile.ts';
import { identityOf } from '../spec/spiffe-id.ts';
import type { Properties } from '../spec/types.ts';
import { x509 } from '../spec/x509.ts';
import { clientVariant } from './faults/index.ts';
import { anchoredAgent, startBundleClient } from './client-trust-bundle.ts';
import type { CachedBundle } from './device/trust-bundle-client.ts';
import type { MachineState } from './device/machine.ts';
import type { StartClientInput } from './client-contract.ts';

/**
 * The simulated client's disk, kept by whoever starts it (the embedded hooks keep one per certificate in memory):
 * written when it stops, read when it starts again.
 */
export interface ClientDisk {
  /** The device machine's state (its onboarding, registrations, held deployments). */
  machine?: MachineState;
  /** §4.6 rule 5: its trust bundle, cached for offline validation. */
  bundle?: CachedBundle;
}

export interface RunningClient {
  deviceId: string;
  kind: DeviceKind;
  /**
   * An opaque gateway says what it aggregates (§2.2), which the wire never shows: the properties of each device behind
   * it, and the deployment types it can deploy.
   */
  opaque?: { children: Properties[]; deploymentTypes: string[] };
  /** A see-thru gateway's device `deviceId` goes away (the gateway DELETEs it and what is behind it, §2.2). */
  removeChild(deviceId: string): Promise<void>;
  /** The link from a see-thru gateway to its device `deviceId` goes down; the device stays registered (§2.4 code 102). */
  disconnectChild(deviceId: string): Promise<void>;
  /** What the device reports changes (its memory): it sends its capabilities again (§2.1). */
  changeCapabilities(): Promise<void>;
  stop(): Promise<void>;
}

/** The name a client's disk is kept under: its certificate, which a restart gives it again. */
export function diskKey(certPem: string): string {
  return createHash('sha256').update(certPem).digest('hex');
}

/** A poll of the desired state every half second: quick checks, and within the reference WFM's polling budget (miaf). */
const TICK_MS = 500;

/** `disk` is read at start and written at stop; `lost` is what a `lose-state` restart wiped (client fault AMV-RESYNC only). */
export async function startClientRunner(input: StartClientInput, disk: ClientDisk = {}, lost?: ClientDisk): Promise<RunningClient> {
  const profile = resolveProfile({ edition: input.edition, vendor: input.vendor });
  // What this client decides, built from its faults for this start only (each faulty decision's memory is this run's).
  const d = clientVariant(input.faults ?? [], {
    ...(disk.machine && { restored: disk.machine }),
    ...(lost?.machine && { lost: lost.machine }),
  });
  const leaf = new x509.X509Certificate(input.certPem);
  const der = Buffer.from(leaf.rawData);
  const spiffeUri =
    input.edition === 'miaf'
      ? leaf.getExtension(x509.SubjectAlternativeNameExtension)?.names.items.find((n) => n.type === 'url')?.value
      : undefined;
  const spiffe = spiffeUri === undefined ? undefined : identityOf(spiffeUri);
  const trust = startBundleClient(
    {
      ...(input.discoveryUrl && { discoveryUrl: input.discoveryUrl }),
      ...(input.trustBundleUri && { trustBundleUri: input.trustBundleUri }),
      ...(input.bundleRefreshSeconds && { refreshSeconds: input.bundleRefreshSeconds }),
    },
    input.caPem,
    d,
    spiffeUri,
    disk.bundle,
  );
  const { transport, anchored } = wfmConnection(input, d, trust);
  const signer = clientSigner(input.keyPem, der, d, profile.signatureAlgorithm);
  const clientId = spiffe?.role === 'client' ? spiffe.clientId : undefined;
  const kind = input.kind ?? 'plain';
  const desc = describeDevice(input.seed ?? 1, 1, kind, {
    idPrefix: `cut${createHash('sha256').update(der).digest('hex').slice(0, 8)}`,
    ...(kind === 'see-thru-gateway' && { hostsWorkloads: true }),
  });
  const registries = registryPool((origin) => createTransport({ baseUrl: origin, ca: input.caPem }), 'the client under test');
  const unsigned = d.unsignedRequests;
  const parts: DeviceClientParts = {
    transport,
    certificateDer: der,
    signer,
    ...(unsigned && { unsigned }),
    registry: registries.client,
    profile,
    timeScale: 0.001,
    decisions: d,
    ...(clientId && { clientId }),
    ...(disk.machine && { restored: disk.machine }),
  };
  const gateway = kind === 'see-thru-gateway' ? seeThruGatewayClient(desc, parts) : undefined;
  const device: ChangeableDevice = gateway ?? deviceClient(desc, parts);
  const serially = oneStepAtATime();
  const stopping = new AbortController();
  const loop = runUntilStopped(device, trust?.client, serially, stopping.signal, desc.id);
  return runningClient(desc, device, gateway, serially, async () => {
    stopping.abort();
    await loop;
    // What it keeps on its disk (a faulty client may keep its trust bundle in memory only).
    disk.machine = device.snapshot();
    const cached = trust?.client.snapshot();
    if (cached && d.cachesBundleOnDisk) disk.bundle = cached;
    await transport.close();
    await registries.close();
    await trust?.close();
    await anchored?.close();
  });
}

/**
 * The client's connection to the WFM. miaf: mutual TLS with its SVID, checking the WFM's SPIFFE ID as its decisions
 * say; with a trust bundle, the WFM's SVID is validated against the bundle's anchors at every handshake (§4.6).
 */
function wfmConnection(
  input: StartClientInput,
  d: ClientDecisions,
  trust: ReturnType<typeof startBundleClient>,
): { transport: UndiciTransport; anchored?: ReturnType<typeof anchoredAgent> } {
  const mtls =
    input.edition === 'miaf'
      ? {
          ...(d.presentsSvid && { clientCert: { cert: input.certPem, key: input.keyPem } }),
          ...(input.wfmSpiffeId && d.checksServerSpiffeId && { serverSpiffeId: input.wfmSpiffeId, serverLeniency: d.serverIdLeniency }),
          ...(d.acceptsUnverifiedServer && { acceptUnverifiedServer: true }),
          ...(d.maxTlsVersion && { maxTlsVersion: d.maxTlsVersion }),
        }
      : undefined;
  const anchored = mtls && trust ? anchoredAgent(() => trust.client.anchors?.map((a) => a.certificate.toString('pem')), mtls) : undefined;
  const transport = createTransport({
    baseUrl: input.wfm,
    honourRetryAfter: d.honoursRetryAfter,
    ...(anchored ? { dispatcher: anchored } : { ca: input.caPem, connections: 1, ...mtls }),
  });
  return { transport, ...(anchored && { anchored }) };
}

/** P3: the client's signer, its keyid a hash of its certificate (which hash, and what it omits, are its decisions). */
function clientSigner(keyPem: string, der: Buffer, d: ClientDecisions, fallback: RequestSigner['algorithm']): RequestSigner {
  const omit = d.signatureOmits;
  return {
    keyId: createHash(d.keyIdHash).update(der).digest('hex'),
    privateKey: createPrivateKey(keyPem),
    algorithm: algorithmForKey(new X509Certificate(der).publicKey) ?? fallback,
    ...(omit && { omit }),
  };
}

/** One step of the machine at a time: a child's departure waits for the tick in flight, and the next tick for it. */
function oneStepAtATime(): <T>(step: () => Promise<T>) => Promise<T> {
  let turn: Promise<unknown> = Promise.resolve();
  return <T>(step: () => Promise<T>): Promise<T> => {
    const next = turn.then(step);
    turn = next.catch(() => undefined);
    return next;
  };
}

/** §4.6: the trust bundle first, then the device's start, then a tick (and the bundle on its own cadence) every TICK_MS. */
async function runUntilStopped(
  device: ChangeableDevice,
  bundle: { refresh(): Promise<unknown>; refreshIfDue(): Promise<unknown> } | undefined,
  serially: ReturnType<typeof oneStepAtATime>,
  stopped: AbortSignal,
  id: string,
): Promise<void> {
  try {
    if (bundle) await serially(() => bundle.refresh());
    await serially(() => device.start());
    while (!stopped.aborted) {
      await delay(TICK_MS, undefined, { signal: stopped }).catch(() => undefined);
      if (bundle && !stopped.aborted) await serially(() => bundle.refreshIfDue());
      if (!stopped.aborted) await serially(() => device.tick());
    }
  } catch (err) {
    if (!stopped.aborted) console.error(`client under test ${id}: ${(err as Error).message}`);
  }
}

/** The handle of a running client: what it is, the hooks that act on it, one step at a time, and its stop. */
function runningClient(
  desc: DeviceDescription,
  device: ChangeableDevice,
  gateway: SeeThruGateway | undefined,
  serially: ReturnType<typeof oneStepAtATime>,
  stop: () => Promise<void>,
): RunningClient {
  const kind = desc.kind;
  return {
    deviceId: desc.id,
    kind,
    ...(kind === 'opaque-gateway' && {
      opaque: {
        children: (desc.children ?? []).map((c) => c.capabilities.properties),
        deploymentTypes: [...(desc.capabilities.properties.supportedDeploymentTypes ?? [])],
      },
    }),
    removeChild(deviceId) {
      if (!gateway) return Promise.reject(new Error(`removeChild: ${desc.id} is a ${kind}, no see-thru gateway`));
      return serially(() => gateway.removeChild(deviceId));
    },
    disconnectChild(deviceId) {
      if (!gateway) return Promise.reject(new Error(`disconnectChild: ${desc.id} is a ${kind}, no see-thru gateway`));
      return serially(async () => gateway.disconnectChild(deviceId));
    },
    changeCapabilities() {
      return serially(() => device.changeCapabilities());
    },
    stop,
  };
}
