// The real fleet environment: the device driver over ONE shared undici agent, every request under the fleet's
// token bucket, bounded by the fleet's timeout and cut short by Ctrl-C, each device with its own certificate from
// the device CA and its own clock (a clockSkewSeconds fault shifts its signatures' `created`).
import { createPrivateKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { FleetKeys } from './device-keys.ts';
import { credentialCache, mintAlways, type CredentialSource } from './cert-cache.ts';
import { setMaxListeners } from 'node:events';
import { certificateKeyId, derOfPem, type Issued } from '../../protocol/pki.ts';
import { NATIVE_LEAF_KEYS, nativeLeafIssuer, type NativeLeafIssuer } from '../../protocol/native-leaf.ts';
import { resolveProfile, type Profile } from '../../spec/profile.ts';
import { clientSpiffeId, wfmSpiffeId } from '../../spec/spiffe-id.ts';
import { issueSvid, nativeSvidIssuer, svidCaOf } from '../../protocol/svid-issuer.ts';
import { deviceClient } from '../device-client.ts';
import type { DeviceDescription } from '../device/types.ts';
import { RegistryClient } from '../registry-client.ts';
import { sleep } from '../transport/retry.ts';
import type { Transport } from '../transport/types.ts';
import { createSharedAgent, createTransport, type UndiciTransport } from '../transport/undici-transport.ts';
import { compactDescription } from './compact-description.ts';
import { rateLimited, type RateLimiter } from './rate-limit.ts';
import type { EnvironmentFactory, EnvironmentSettings, FleetEnvironment, FleetTarget } from './runner.ts';
import { registryPool } from '../registry-pool.ts';

export interface DeviceCertificate {
  der: Buffer;
  /**
   * The device's key, held as a KeyObject for its whole life (~2.7 KB of OpenSSL memory each). Holding JWKs and
   * importing the KeyObjects of the devices that signed last instead was measured worse: each evicted KeyObject's
   * native memory waits for a major GC V8 does not know it should run (20,000 devices polling every 10 s: peak RSS
   * 744 MiB with 4,096 kept, 569 MiB with all).
   */
  key: KeyObject;
  /** The same key as a JWK, when at hand: a large fleet keeps only it (device-keys.ts). */
  jwk?: JsonWebKey;
}

/** What a benchmark swaps (bench/): where each device's certificate comes from, and the transport under the fleet's wrappers. */
export interface EnvironmentSeams {
  /** Default: issued from the target's device CA as the device starts. */
  certificate?: (desc: DeviceDescription, deviceCa: Issued) => Promise<DeviceCertificate>;
  /** Default: undici over the environment's one shared agent. */
  transport?: (baseUrl: string) => Transport;
}

export const realEnvironment: EnvironmentFactory = (target, limiter, settings) => fleetEnvironment(target, limiter, settings);

export async function fleetEnvironment(
  target: FleetTarget,
  limiter: RateLimiter,
  settings: EnvironmentSettings,
  seams: EnvironmentSeams = {},
): Promise<FleetEnvironment> {
  const profile = target.profile ?? resolveProfile();
  // The TLS handshake is part of the request's time: a loaded loopback WFM may take seconds to finish one.
  const agent = createSharedAgent({ connectTimeoutMs: settings.timeoutMs, ...(target.ca === undefined ? {} : { ca: target.ca }) });
  const cancel = new AbortController();
  // Every request in flight listens to it: thousands, by design.
  setMaxListeners(0, cancel.signal);
  const transport =
    seams.transport ?? ((baseUrl: string) => createTransport({ baseUrl, dispatcher: agent, timeoutMs: settings.timeoutMs }));
  const open = (baseUrl: string): Transport => cancellable(rateLimited(transport(baseUrl), limiter), cancel.signal);
  const wfm = open(target.wfm);
  // The shared agent carries the registries' connections too: closing it closes them.
  const registry = registryPool(open, 'fleet devices').client;
  const credentials = target.certCache === undefined ? mintAlways : credentialCache(target.certCache, target.deviceCa.certPem);
  if (profile.deviceAuth === 'mtls') return svidEnvironment(target, limiter, settings, profile, { cancel, registry, agent, credentials });
  let mintLeaf: NativeLeafIssuer | undefined;
  const keys = FleetKeys.forClients(settings.clients ?? 0);
  const certificate =
    seams.certificate ??
    ((desc: DeviceDescription) => issuedCertificate(desc, credentials, (mintLeaf ??= nativeLeafIssuer(target.deviceCa))));
  return {
    async createDevice(desc, ctx) {
      const { der, key, jwk } = await certificate(desc, target.deviceCa);
      // Held for the device's whole life: the compact form, and no closure below captures the full one.
      const held = compactDescription(desc);
      const skew = held.faults.clockSkewSeconds;
      const identity = { keyId: certificateKeyId(der), algorithm: profile.signatureAlgorithm, ...(skew ? { clockSkewSeconds: skew } : {}) };
      const onReport = ctx.onStatusReport;
      return deviceClient(held, {
        transport: wfm,
        baseUrl: target.wfm,
        signer: keys.signer(identity, key, jwk),
        certificateDer: der,
        ...(onReport && { onStatusReport: (report, status) => onReport(held.id, report, status) }),
        registry,
        observer: ctx.observer,
        profile,
        timeScale: settings.timeScale,
        sleep: sleeperOn(ctx.signal),
      });
    },
    abort: () => cancel.abort(new Error('fleet interrupted')),
    close: async () => {
      if (cancel.signal.aborted) await agent.destroy();
      else await agent.close();
    },
  };
}

async function issuedCertificate(
  desc: DeviceDescription,
  credentials: CredentialSource,
  mint: NativeLeafIssuer,
): Promise<DeviceCertificate> {
  let minted: KeyObject | undefined;
  const { certPem, keyPem, keyJwk } = await credentials(`device:${desc.id}`, async () => {
    const { certPem, keyPem, keyJwk, privateKey } = mint({ commonName: desc.id, usage: ['client'] });
    minted = privateKey;
    return { certPem, keyPem, keyJwk };
  });
  // Per device start, so neither the certificate nor the PEM key is parsed: the DER is the PEM's bytes, the key the
  // one just minted or a cached JWK.
  const key = minted ?? (keyJwk ? createPrivateKey({ key: keyJwk, format: 'jwk' }) : createPrivateKey(keyPem));
  return { der: derOfPem(certPem), key, ...(keyJwk && { jwk: keyJwk }) };
}

/**
 * A device's sleep, cut short by the fleet's stop. Made by a function, not written as `sleep: (ms) => ...`: tsx (which
 * ran the kit until bin/typescript.mjs) kept function names, and naming each device's closure gives it a property array of its own (~300 B a device,
 * seen in a heap snapshot of 20,000 devices); a returned arrow has no name to keep.
 */
function sleeperOn(signal: AbortSignal): (ms: number) => Promise<void> {
  return (ms) => sleep(ms, signal);
}

/** Adds the fleet's stop signal to every request, so Ctrl-C aborts what is in flight (WFMCK_E_ABORTED). */
function cancellable(inner: Transport, stop: AbortSignal): Transport {
  return {
    request: (opts) => inner.request({ ...opts, signal: opts.signal ? AbortSignal.any([opts.signal, stop]) : stop }),
    close: () => inner.close(),
  };
}

/**
 * P10 (miaf): each device holds its own X.509-SVID and key, so its TLS sessions are its own: one agent (one
 * connection) per device, spread over the target's loopback source addresses. No onboarding: the device starts as
 * the client its SPIFFE ID names, admitted first through the target's hook when it has one.
 */
function svidEnvironment(
  target: FleetTarget,
  limiter: RateLimiter,
  settings: EnvironmentSettings,
  profile: Profile,
  shared: {
    cancel: AbortController;
    registry: (url: string) => RegistryClient;
    agent: { close(): Promise<void>; destroy(): Promise<void> };
    credentials: CredentialSource;
  },
): FleetEnvironment {
  const spiffe = target.spiffe;
  if (!spiffe) throw new Error("a miaf fleet needs the target's SPIFFE names (trust domain and wfm-id)");
  const ca = svidCaOf(target.deviceCa, spiffe.trustDomain);
  const wfmId = wfmSpiffeId({ trustDomain: spiffe.trustDomain, vendor: profile.vendor, wfmId: spiffe.wfmId });
  const sources = target.sourceAddresses?.length ? target.sourceAddresses : undefined;
  const owned = new Set<UndiciTransport>();
  let next = 0;
  let mintSvid: ReturnType<typeof nativeSvidIssuer> | undefined;
  return {
    async createDevice(desc, ctx) {
      const clientId = desc.id.replace(/[^A-Za-z0-9._-]/g, '-');
      const spiffeId = clientSpiffeId({ trustDomain: spiffe.trustDomain, vendor: profile.vendor, wfmId: spiffe.wfmId, clientId });
      const svid = await shared.credentials(`svid:${spiffeId}:${profile.svidKeyAlgorithm}`, async () => {
        if (!NATIVE_LEAF_KEYS.includes(profile.svidKeyAlgorithm)) {
          const minted = await issueSvid(ca, spiffeId, { keyAlgorithm: profile.svidKeyAlgorithm });
          return { certPem: minted.certPem, keyPem: minted.keyPem, chainPem: minted.chainPem };
        }
        const { certPem, keyPem, keyJwk, chainPem } = (mintSvid ??= nativeSvidIssuer(ca))(spiffeId, profile.svidKeyAlgorithm);
        return { certPem, keyPem, keyJwk, chainPem };
      });
      await spiffe.admit?.(spiffeId);
      const transport = createTransport({
        baseUrl: target.wfm,
        timeoutMs: settings.timeoutMs,
        connections: 1,
        connectTimeoutMs: settings.timeoutMs,
        ...(target.ca !== undefined && { ca: target.ca }),
        clientCert: { cert: svid.chainPem ?? svid.certPem, key: svid.keyPem },
        serverSpiffeId: wfmId,
        ...(sources && { localAddress: sources[next++ % sources.length] }),
      });
      owned.add(transport);
      const held = compactDescription(desc);
      const onReport = ctx.onStatusReport;
      return deviceClient(held, {
        transport: cancellable(rateLimited(transport, limiter), shared.cancel.signal),
        baseUrl: target.wfm,
        certificateDer: derOfPem(svid.certPem),
        ...(onReport && { onStatusReport: (report, status) => onReport(held.id, report, status) }),
        registry: shared.registry,
        observer: ctx.observer,
        profile,
        clientId,
        timeScale: settings.timeScale,
        sleep: sleeperOn(ctx.signal),
      });
    },
    abort: () => shared.cancel.abort(new Error('fleet interrupted')),
    close: async () => {
      await Promise.allSettled([...owned].map((t) => t.close()));
      if (shared.cancel.signal.aborted) await shared.agent.destroy();
      else await shared.agent.close();
    },
  };
}
