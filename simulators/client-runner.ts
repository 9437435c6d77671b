// One simulated device client run on its own until stopped: the kit's own client under test for the device persona
// (the startClient hook of the embedded default), and a template of what a vendor's startClient hook receives.
import { X509Certificate, createHash, createPrivateKey } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { describeDevice } from './data/describe.ts';
import { DeviceApiClient } from './device-api.ts';
import { createDevice, createSeeThruGateway, type ChangeableDevice } from './device/driver.ts';
import type { DeviceKind } from './device/types.ts';
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

/** What startClient gets (P5-style hook input of the device persona); the kit minted the credentials for this run. */
export interface StartClientInput {
  /** Base URL of the WFM the client must use. */
  wfm: string;
  /** PEM of the CA of the services' TLS certificates. */
  caPem: string;
  /** The client's certificate (seed: its device certificate; miaf: its X.509-SVID chain) and key, PEM. */
  certPem: string;
  keyPem: string;
  edition: Edition;
  vendor: string;
  /** miaf: the WFM's SPIFFE ID, which the client checks. */
  wfmSpiffeId?: string;
  /** What the kit would like to see; a real client may be what it is (checks that need a kind skip otherwise). */
  kind?: DeviceKind;
  /** Seed of the simulated device's data. */
  seed?: number;
  /** §4.5: the discovery document's URL, from operator configuration (the client fetches its trust bundle from it). */
  discoveryUrl?: string;
  /** §4.5: the trust bundle URI from operator configuration, used without a discovery document. */
  trustBundleUri?: string;
  /** §4.6 rule 4: the operator-configured refresh interval of the trust bundle, in seconds. */
  bundleRefreshSeconds?: number;
  /**
   * Absent on a client's first start. Otherwise the kit stopped this client (same credentials) and starts it again:
   * `keep-state` as after a reboot, with whatever it keeps on its disk (its deployments, its cached trust bundle);
   * `lose-state` as after it lost its local state (§2.4.1 rule 6): wipe it first.
   */
  restart?: 'keep-state' | 'lose-state';
  /** The kit's own simulator only: client faults (faults/catalog.yaml, implemented in simulators/faults/) that break one rule each. */
  faults?: string[];
}

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

/** What a startClient hook answers for a running client (besides its handle): its id, kind, and an opaque gateway's word. */
export function startClientAnswer(client: RunningClient): Record<string, unknown> {
  return {
    deviceId: client.deviceId,
    kind: client.kind,
    ...(client.opaque && { children: client.opaque.children, deploymentTypes: client.opaque.deploymentTypes }),
  };
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
  const mtls =
    input.edition === 'miaf'
      ? {
          ...(d.presentsSvid && { clientCert: { cert: input.certPem, key: input.keyPem } }),
          ...(input.wfmSpiffeId && d.checksServerSpiffeId && { serverSpiffeId: input.wfmSpiffeId, serverLeniency: d.serverIdLeniency }),
          ...(d.acceptsUnverifiedServer && { acceptUnverifiedServer: true }),
          ...(d.maxTlsVersion && { maxTlsVersion: d.maxTlsVersion }),
        }
      : undefined;
  // miaf with a trust bundle: the WFM's SVID is validated against the bundle's anchors at every handshake (§4.6).
  const anchored = mtls && trust ? anchoredAgent(() => trust.client.anchors?.map((a) => a.certificate.toString('pem')), mtls) : undefined;
  const transport: UndiciTransport = createTransport({
    baseUrl: input.wfm,
    honourRetryAfter: d.honoursRetryAfter,
    ...(anchored ? { dispatcher: anchored } : { ca: input.caPem, connections: 1, ...mtls }),
  });
  const privateKey = createPrivateKey(input.keyPem);
  const omit = d.signatureOmits;
  const signer: RequestSigner = {
    keyId: createHash(d.keyIdHash).update(der).digest('hex'),
    privateKey,
    algorithm: algorithmForKey(new X509Certificate(der).publicKey) ?? profile.signatureAlgorithm,
    ...(omit && { omit }),
  };
  const clientId = spiffe?.role === 'client' ? spiffe.clientId : undefined;
  const unsigned = d.unsignedRequests;
  const api = new DeviceApiClient({ transport, profile, signer, ...(clientId && { clientId }), ...(unsigned && { unsigned }) });
  const kind = input.kind ?? 'plain';
  const desc = describeDevice(input.seed ?? 1, 1, kind, {
    idPrefix: `cut${createHash('sha256').update(der).digest('hex').slice(0, 8)}`,
    ...(kind === 'see-thru-gateway' && { hostsWorkloads: true }),
  });
  const registries = registryPool((origin) => createTransport({ baseUrl: origin, ca: input.caPem }), 'the client under test');
  const env = {
    api,
    registry: registries.client,
    profile,
    certificate: der.toString('base64'),
    timeScale: 0.001,
    decisions: d,
    ...(clientId && { clientId }),
    ...(disk.machine && { restored: disk.machine }),
  };
  const gateway = kind === 'see-thru-gateway' ? createSeeThruGateway(desc, env) : undefined;
  const device: ChangeableDevice = gateway ?? createDevice(desc, env);
  // One step of the machine at a time: a child's departure waits for the tick in flight, and the next tick for it.
  let turn: Promise<unknown> = Promise.resolve();
  const serially = <T>(step: () => Promise<T>): Promise<T> => {
    const next = turn.then(step);
    turn = next.catch(() => undefined);
    return next;
  };
  const stopping = new AbortController();
  const loop = (async () => {
    try {
      // §4.6: the trust bundle first, then on its own cadence between ticks.
      if (trust) await serially(() => trust.client.refresh());
      await serially(() => device.start());
      while (!stopping.signal.aborted) {
        await delay(TICK_MS, undefined, { signal: stopping.signal }).catch(() => undefined);
        if (trust && !stopping.signal.aborted) await serially(() => trust.client.refreshIfDue());
        if (!stopping.signal.aborted) await serially(() => device.tick());
      }
    } catch (err) {
      if (!stopping.signal.aborted) console.error(`client under test ${desc.id}: ${(err as Error).message}`);
    }
  })();
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
    async stop() {
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
    },
  };
}
