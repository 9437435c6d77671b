// The embedded default: the reference WFM, identity role and OCI registry on loopback, with one kit CA for TLS,
// a device CA whose certificates the WFM trusts, and the admin API behind every hook of P5.
import { mkdir, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { looserModeNotice, writeSecretFile } from './secret-file.ts';
import { createRootCa, issueCertificate, type Issued } from '../../protocol/pki.ts';
import { isWildcard } from '../../protocol/url-host.ts';
import { startAdmin, type AdminService, type Hook } from '../../reference/admin.ts';
import { startWfm } from '../../reference/wfm/server.ts';
import { startIdentity } from '../../reference/identity/server.ts';
import { startRegistry } from '../../reference/registry/server.ts';
import { resolveProfile, type Profile } from '../../spec/profile.ts';
import { faultIdsOf, resolveFaultIds } from '../../faults/catalog.ts';
import { identityVariant, registryVariant, wfmVariant } from '../../reference/faults/index.ts';
import { createSvidCa, issueSvid, type SvidCa } from '../../protocol/svid-issuer.ts';
import { wfmSpiffeId } from '../../spec/spiffe-id.ts';
import { ExchangeRecorder } from '../../reference/wfm/recorder.ts';
import { judgingHooks } from '../../reference/judging.ts';
import { kitClientHooks } from './kit-client-hooks.ts';
import { AssignmentRefused } from '../../reference/wfm/placement.ts';

/** miaf: the <wfm-id> of the reference WFM's SPIFFE ID. */
export const REFERENCE_WFM_ID = 'reference';
/** miaf: polls of the desired state one client may make per window before the reference WFM answers 429. */
export const MIAF_POLL_LIMIT = Object.freeze({ requests: 50, windowMs: 10_000, paths: ['/api/v1/deployments'] });

export interface EmbeddedOptions {
  host?: string;
  /** DNS names the server certificate carries beside localhost (`wfmck serve --hostname`), so a client may name them. */
  hostnames?: readonly string[];
  ports?: { wfm?: number; identity?: number; registry?: number; admin?: number };
  profile?: Profile;
  trustDomain?: string;
  /** Ids of service faults (faults/catalog.yaml) to switch on: a faulty variant that breaks exactly those rules. */
  faults?: readonly string[];
  /**
   * Judging mode (device persona): the WFM keeps every exchange by client (hook clientExchanges), and the hooks
   * startClient/stopClient run the kit's own simulated client in this process.
   */
  judging?: boolean;
  /** Seed edition: the device CA the WFM trusts, when it must outlive the run (a fleet's --cert-cache); default a new one. */
  deviceCa?: Issued;
}

export interface Embedded {
  wfm: string;
  identity: string;
  discovery: string;
  trustBundleUri: string;
  /** miaf: the discovery URL a client of the devices' trust domain is configured with (its bundle anchors the WFM). */
  clientDiscovery?: string;
  /** Discovery URLs of the identity role's further trust domain(s), at other URLs of its origin (§4.5 MAY). */
  extraDiscovery: string[];
  registry: string;
  admin: AdminService;
  /** PEM of the kit CA that issued every server certificate (and that the Certificate API of P2 serves). */
  caPem: string;
  /** The CA whose leaf certificates the reference WFM trusts: at onboarding (seed), or in its trust bundle as the kit's SVID CA (miaf). */
  deviceCa: Issued;
  /** miaf: the trust domain of the WFM and its clients, and the WFM's <wfm-id>. */
  spiffe?: { trustDomain: string; wfmId: string };
  hooks: Record<string, Hook>;
  /** Ids of the faults switched on (empty for the clean reference services). */
  faults: string[];
  close(): Promise<void>;
}

export async function startEmbedded(opts: EmbeddedOptions = {}): Promise<Embedded> {
  const host = opts.host ?? '127.0.0.1';
  const profile = opts.profile ?? resolveProfile();
  const ca = await createRootCa('wfmck embedded root CA');
  const server = await serverCertificate(ca, host, opts.hostnames ?? []);
  const entries = resolveFaultIds(opts.faults ?? []);
  const client = entries.filter((f) => f.service === 'client').map((f) => f.id);
  if (client.length) throw new Error(`faults ${client.join(', ')} break the kit's own client (persona device), not the embedded services`);
  const faults = entries.map((f) => f.id);
  // Each service's decisions and rewrites, built from the active fault ids for this instance only.
  const wfmFaulty = wfmVariant(faultIdsOf('wfm', faults));
  const tls = { cert: server.certPem + ca.certPem, key: server.keyPem };
  const mtls = profile.deviceAuth === 'mtls';
  const trustDomain = opts.trustDomain ?? 'wfmck.test';
  // miaf: the WFM and its clients live in a trust domain of their own, served by the identity role but never rotated
  // by the main domain's rotation checks; the kit's SVID CA is an operator-added anchor of it (P10).
  const devicesDomain = `devices.${trustDomain}`;
  const svidCa = mtls ? await createSvidCa({ trustDomain: devicesDomain }) : undefined;
  const deviceCa = svidCa?.root ?? opts.deviceCa ?? (await createRootCa('wfmck device CA'));

  const started: { close(): Promise<void> }[] = [];
  try {
    const identity = await startIdentity({
      host,
      hostnames: opts.hostnames ?? [],
      port: opts.ports?.identity ?? 0,
      tls,
      vendor: profile.vendor,
      trustDomain,
      ...(svidCa && { deviceTrustDomain: { trustDomain: devicesDomain, fixedAnchors: [svidCa.root] } }),
      // A second domain for DISC-SEVERAL-DOMAINS-OTHER-URLS, and one only the withdrawal hook touches (DISC-404, BUNDLE-404).
      extraTrustDomains: [`second.${trustDomain}`],
      withdrawableTrustDomain: `withdrawable.${trustDomain}`,
      ...identityVariant(faultIdsOf('identity', faults)),
    });
    started.push(identity);
    // Token auth (§5) guards only `<ns>/protected/...` repositories, so every other repository stays anonymous.
    const registry = await startRegistry({
      host,
      hostnames: opts.hostnames ?? [],
      port: opts.ports?.registry ?? 0,
      tls,
      auth: {},
      ...registryVariant(faultIdsOf('registry', faults)),
    });
    started.push(registry);
    const devices = identity.deviceDomain;
    const presentedId = wfmFaulty.decisions.presentedWfmId(REFERENCE_WFM_ID);
    const miaf = svidCa && devices && (await wfmSvidOptions(svidCa, devicesDomain, profile.vendor, presentedId, devices));
    const recorder = opts.judging ? new ExchangeRecorder() : undefined;
    const wfm = await startWfm({
      host,
      hostnames: opts.hostnames ?? [],
      port: opts.ports?.wfm ?? 0,
      tls,
      rootCaPem: ca.certPem,
      trustedDeviceCaPems: [deviceCa.certPem],
      profile,
      ...(recorder && { recorder }),
      ...miaf,
      ...wfmFaulty,
    });
    started.push(wfm);
    // A rotation of the devices' trust domain reaches the WFM's TLS at once: its verifier reads the current bundle.
    if (wfmFaulty.decisions.followsTrustBundleRotation) devices?.onChange(() => wfm.setTrustAnchors(devices.anchorsPem()));
    const hooks = serviceHooks(wfm, identity, mtls);
    if (recorder) Object.assign(hooks, judgingHooks(recorder, wfm.state), kitClientHooks(started));
    const admin = await startAdmin(hooks, { host, hostnames: opts.hostnames ?? [], port: opts.ports?.admin ?? 0 });
    started.push(admin);
    return {
      wfm: wfm.url,
      identity: identity.url,
      discovery: identity.discoveryUrl,
      trustBundleUri: identity.trustBundleUri,
      extraDiscovery: identity.extraDiscoveryUrls,
      // miaf: the discovery document of the clients' own trust domain, whose bundle anchors the WFM's SVID.
      ...(identity.deviceDomain && { clientDiscovery: identity.deviceDomain.discoveryUrl }),
      registry: registry.url,
      admin,
      // miaf: the WFM presents an SVID of the kit's SVID CA, so a client needs that root too.
      caPem: ca.certPem + (svidCa ? svidCa.root.certPem : ''),
      deviceCa,
      ...(mtls && { spiffe: { trustDomain: devicesDomain, wfmId: REFERENCE_WFM_ID } }),
      hooks,
      faults,
      close: () => closeAll(started),
    };
  } catch (err) {
    await closeAll(started);
    throw err;
  }
}

/**
 * miaf: the WFM's SVID (naming `presentedId`, which a fault may change) under the devices' trust domain, the anchors
 * its TLS verifies clients by, and the polling budget P10's 429 rules need.
 */
async function wfmSvidOptions(
  svidCa: SvidCa,
  devicesDomain: string,
  vendor: string,
  presentedId: string,
  devices: { anchorsPem(): string[] },
) {
  const wfmSvid = await issueSvid(svidCa, wfmSpiffeId({ trustDomain: devicesDomain, vendor, wfmId: presentedId }));
  return {
    svid: {
      trustDomain: devicesDomain,
      wfmId: REFERENCE_WFM_ID,
      chainPem: wfmSvid.chainPem,
      keyPem: wfmSvid.keyPem,
      anchorsPem: devices.anchorsPem(),
    },
    // P10's 429 rules need a WFM that sheds load: a polling budget no check or fleet device comes near.
    rateLimit: MIAF_POLL_LIMIT,
  };
}

/** The one certificate every embedded service presents: localhost, the --hostname names, and a pod's own address. */
function serverCertificate(ca: Issued, host: string, hostnames: readonly string[]): Promise<Issued> {
  return issueCertificate(ca, {
    commonName: 'wfmck embedded services',
    dnsNames: ['localhost', ...hostnames],
    // A pod's own address (--listen) too; 0.0.0.0 and :: name no host a client could verify.
    ipAddresses: [...new Set(['127.0.0.1', '::1', ...(isIP(host) && !isWildcard(host) ? [host] : [])])],
    usage: ['server'],
  });
}

/** The P5 hooks of the WFM and identity role, as the admin API serves them. */
function serviceHooks(
  wfm: Awaited<ReturnType<typeof startWfm>>,
  identity: Awaited<ReturnType<typeof startIdentity>>,
  mtls: boolean,
): Record<string, Hook> {
  return {
    // The WFM declining an assignment is its decision, answered as the contract's {refused}, not a failed hook.
    assignDeployment: (i) =>
      wfm.hooks.assignDeployment(i as never).catch((e: unknown) => {
        if (e instanceof AssignmentRefused) return { refused: e.message };
        throw e;
      }),
    removeDeployment: (i) => wfm.hooks.removeDeployment(i as never),
    retireClient: (i) => wfm.hooks.retireClient(i as never),
    rotateTrustAnchor: (i) => identity.hooks.rotateTrustAnchor(i as never),
    withdrawIdentityDocument: (i) => identity.hooks.withdrawIdentityDocument(i as never),
    // Onboarding trusts certificates in seed; in miaf the policy admits SPIFFE IDs and the identity role mints SVIDs.
    ...(mtls
      ? { admitClient: (i) => wfm.hooks.admitClient(i as never), issueClientSvid: (i) => identity.hooks.issueClientSvid(i as never) }
      : { trustClientCertificate: (i) => wfm.hooks.trustClientCertificate(i as never) }),
  };
}

async function closeAll(services: { close(): Promise<void> }[]): Promise<void> {
  await Promise.allSettled([...services].reverse().map((s) => s.close()));
}

/** Writes the CA files a client needs (kit CA, device CA and its key) and returns their paths. */
export async function writeTrustFiles(
  embedded: Embedded,
  dir: string,
): Promise<{ caFile: string; deviceCaCertFile: string; deviceCaKeyFile: string }> {
  await mkdir(dir, { recursive: true });
  const files = {
    caFile: join(dir, 'ca.pem'),
    deviceCaCertFile: join(dir, 'device-ca.pem'),
    deviceCaKeyFile: join(dir, 'device-ca.key'),
  };
  await writeFile(files.caFile, embedded.caPem);
  await writeFile(files.deviceCaCertFile, embedded.deviceCa.certPem);
  const key = await writeSecretFile(files.deviceCaKeyFile, embedded.deviceCa.keyPem);
  const notice = looserModeNotice(files.deviceCaKeyFile, key);
  if (notice) process.stderr.write(`${notice}\n`);
  return files;
}
