// Applying one compose component on a simulated device: pull (§4.7), check the manifest and the blob digest (§2.7
// rule 8), judge the archive before anything counts as extracted (§2.7 rule 7), then simulate the containers (§4.8).
import { createHash } from 'node:crypto';
import { setTimeout as sleepMs } from 'node:timers/promises';
import { parse } from 'yaml';
import { mediaTypes } from '../../spec/media-types.ts';
import { composeFileEntry } from '../../spec/rules/compose-archive.ts';
import { composeComponentFindings } from '../../spec/rules/compose-file.ts';
import { verifyDigest } from '../../spec/rules/desired-state.ts';
import { ArchiveReadError, readTarGz } from '../../spec/rules/tar-read.ts';
import { formatSchemaErrors, validate } from '../../spec/schemas/index.ts';
import type { OciImageManifest, StatusError } from '../../spec/types.ts';
import { DigestError, type RegistryClient } from '../registry-client.ts';
import { RecentResults } from '../recent-results.ts';
import { TransportError, type Exchange } from '../transport/types.ts';
import type { DeviceMisbehaviour } from './types.ts';
import { cleanComposeDecisions, type ComposeDecisions } from './decisions/index.ts';

export interface ComposeComponent {
  name: string;
  properties: { repository: string; revision: string; wait?: boolean; timeout?: string; [k: string]: unknown };
}

export interface ComposeApplyOptions {
  /** The client for the registry of `oci://host[:port]/name`. */
  registry: (repositoryUrl: string) => RegistryClient;
  vendor: string;
  faults: DeviceMisbehaviour;
  /** Multiplies every simulated wait (timeouts, slow installs), so tests run fast; default 1. */
  timeScale?: number;
  sleep?: (ms: number) => Promise<void>;
  /** Sees every registry answer; `expected` is false for a refusal or bytes that miss their digest. */
  onResponse?: (exchange: Exchange, expected: boolean) => void;
  /** What the client decides; default the clean client's (the kit's faulty client replaces some, simulators/faults/). */
  decisions?: ComposeDecisions;
}

export type ApplyOutcome = { state: 'installed' } | { state: 'failed'; error: StatusError };

/** Used when a component gives no timeout (its grammar is not shown in the seed edition). */
export const DEFAULT_COMPONENT_TIMEOUT = '5m0s';

class Refusal extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export async function applyComposeComponent(component: ComposeComponent, opts: ComposeApplyOptions): Promise<ApplyOutcome> {
  try {
    const { registryUrl, name } = parseRepository(component.properties.repository);
    const client = opts.registry(registryUrl);
    const layer = await pullManifest(client, name, component.properties.revision, opts);
    const blob = await pullBlob(client, name, layer.digest, opts);
    const composeYaml = await judgeArchive(blob, opts.decisions ?? cleanComposeDecisions, component.name);
    return await runContainers(component, composeYaml, opts);
  } catch (e) {
    if (e instanceof Refusal) return failed(component.name, e.code, e.message);
    if (e instanceof TransportError)
      return failed(component.name, 'REGISTRY_UNREACHABLE', `§4.7: pulling ${component.properties.repository} failed: ${e.message}`);
    throw e;
  }
}

/** `oci://host[:port]/name[/more]`: the registry and the repository namespace. */
export function parseRepository(repository: string): { registryUrl: string; host: string; name: string } {
  const m = /^oci:\/\/([^/]+)\/(.+)$/.exec(repository);
  if (!m || !/^[a-z0-9]+(?:[._-][a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*$/.test(m[2]!)) {
    throw new Refusal('REPOSITORY_INVALID', `§2.7: components[].properties.repository "${repository}" is not oci://host[:port]/name`);
  }
  return { registryUrl: `oci://${m[1]}`, host: m[1]!, name: m[2]! };
}

async function pullManifest(client: RegistryClient, name: string, revision: string, { vendor, onResponse }: ComposeApplyOptions) {
  const pulled = await client.getManifest(name, revision);
  onResponse?.(pulled.response.exchange, pulled.response.status === 200);
  if (pulled.response.status !== 200)
    throw new Refusal('MANIFEST_UNAVAILABLE', `§4.7: GET manifest ${name}:${revision} answered ${pulled.response.status}`);
  let manifest: unknown;
  try {
    manifest = JSON.parse(Buffer.from(pulled.bytes).toString('utf8'));
  } catch {
    throw new Refusal('MANIFEST_INVALID', `§2.7: the manifest of ${name}:${revision} is not JSON`);
  }
  const checked = validate('ComposeComponentManifest', manifest, { vendor });
  if (!checked.ok) throw new Refusal('MANIFEST_INVALID', `§2.7 compose component manifest: ${formatSchemaErrors(checked.errors)}`);
  const layer = (manifest as OciImageManifest).layers[0]!;
  const annotations = layer.annotations ?? {};
  const version = annotations[mediaTypes(vendor).annotation.componentVersion];
  if (version !== revision) {
    throw new Refusal(
      'MANIFEST_INVALID',
      `§2.7: layer annotation component.version "${version}" MUST match the OCI tag and revision "${revision}"`,
    );
  }
  const imageVersion = annotations['org.opencontainers.image.version'];
  if (imageVersion !== undefined && imageVersion !== version) {
    throw new Refusal(
      'MANIFEST_INVALID',
      `§2.7: org.opencontainers.image.version "${imageVersion}" MUST equal component.version "${version}"`,
    );
  }
  return layer;
}

/** §2.7 rule 8: the digest is verified after pulling and before anything reads the archive. */
async function pullBlob(
  client: RegistryClient,
  name: string,
  digest: string,
  { onResponse, decisions }: ComposeApplyOptions,
): Promise<Uint8Array> {
  const trusting = !(decisions ?? cleanComposeDecisions).verifiesBlobDigest;
  let pulled;
  try {
    pulled = await client.getBlob(name, digest, { verify: !trusting });
  } catch (e) {
    if (!(e instanceof DigestError)) throw e;
    onResponse?.(e.exchange, false);
    throw new Refusal('DIGEST_MISMATCH', `§2.7 rule 8: blob ${digest} failed digest verification before extraction (${e.message})`);
  }
  onResponse?.(pulled.response.exchange, pulled.response.status === 200);
  if (pulled.response.status !== 200) throw new Refusal('BLOB_UNAVAILABLE', `§4.7: GET blob ${digest} answered ${pulled.response.status}`);
  if (!trusting && !verifyDigest(pulled.bytes, digest))
    throw new Refusal('DIGEST_MISMATCH', `§2.7 rule 8: blob bytes do not hash to ${digest}; refused before extraction`);
  return pulled.bytes;
}

/** §2.7 rules 1-7 on the entry list in memory: nothing is extracted unless every rule holds. Returns compose.yaml. */
async function judgeArchive(blob: Uint8Array, decisions: ComposeDecisions, componentName?: string): Promise<string> {
  let entries, judged;
  try {
    ({ entries, findings: judged } = await readArchive(blob));
  } catch (e) {
    if (e instanceof ArchiveReadError)
      throw new Refusal('ARCHIVE_INVALID', `§2.7: the compose archive cannot be read (${e.code}: ${e.message})`);
    throw e;
  }
  const findings = judged.filter((f) => !decisions.overlooksArchiveFinding(f));
  if (decisions.takesOtherComposeFileNames) {
    const other = entries.find((e) => /(^|\/)(docker-)?compose\.ya?ml$/.test(e.name) && e.content);
    if (other && findings.length === 0) return new TextDecoder().decode(other.content!);
  }
  const refusal = decisions.archiveRefusal(entries, componentName);
  if (refusal) throw new Refusal(refusal.code, refusal.message);
  if (findings.length > 0) {
    const first = findings[0]!;
    const more = findings.length > 1 ? ` (+${findings.length - 1} more)` : '';
    throw new Refusal(
      'ARCHIVE_INVALID',
      `refused before extraction: ${first.message}${first.path ? ` at ${first.path}` : ''} [${first.rule}]${more}`,
    );
  }
  return new TextDecoder().decode(composeFileEntry(entries)!.content!);
}

/** The archive's entries and its §2.7 findings, read once per distinct archive (keyed by the bytes' SHA-256). */
const readArchives = new RecentResults<ReturnType<typeof judgeBytes>>();
const readArchive = (blob: Uint8Array) => readArchives.get(createHash('sha256').update(blob).digest('hex'), () => judgeBytes(blob));

async function judgeBytes(blob: Uint8Array) {
  const entries = await readTarGz(blob);
  return { entries, findings: composeComponentFindings(entries) };
}

/** §4.8: start every service; a crash fails at once (rule 2); `wait` waits for running (rule 1) and healthy (rule 3). */
async function runContainers(component: ComposeComponent, composeYaml: string, opts: ComposeApplyOptions): Promise<ApplyOutcome> {
  const services = servicesOf(composeYaml);
  const scale = opts.timeScale ?? 1;
  const sleep = opts.sleep ?? ((ms: number) => sleepMs(ms).then(() => undefined));
  if (opts.faults.slowInstallMs) await sleep(opts.faults.slowInstallMs * scale);
  if (opts.faults.crashingContainer) {
    const service = services[0]?.name ?? component.name;
    return failed(component.name, 'CONTAINER_EXITED', `§4.8 rule 2: container of service "${service}" exited with code 1 during startup`);
  }
  const wait = component.properties.wait === true;
  const checked = services.filter((s) => s.healthcheck);
  if (wait && checked.length > 0 && opts.faults.unhealthyContainer) {
    const timeout = component.properties.timeout ?? DEFAULT_COMPONENT_TIMEOUT;
    await sleep(timeoutMs(timeout) * scale);
    return failed(
      component.name,
      'HEALTHCHECK_TIMEOUT',
      `§4.8 rule 3: service "${checked[0]!.name}" not healthy within timeout ${timeout}`,
    );
  }
  return { state: 'installed' };
}

/** `^\d+m\d+s$` (the timeout grammar of the standard's newest edition); anything else falls back to the default. */
export function timeoutMs(timeout: string): number {
  const m = /^(\d+)m(\d+)s$/.exec(timeout) ?? /^(\d+)m(\d+)s$/.exec(DEFAULT_COMPONENT_TIMEOUT)!;
  return (Number(m[1]) * 60 + Number(m[2])) * 1000;
}

/** Service names and whether each declares a health check that is not disabled. */
function servicesOf(composeYaml: string): { name: string; healthcheck: boolean }[] {
  return composeServices.get(composeYaml, () => readServices(composeYaml));
}

const composeServices = new RecentResults<{ name: string; healthcheck: boolean }[]>();

function readServices(composeYaml: string): { name: string; healthcheck: boolean }[] {
  const doc = parse(composeYaml) as { services?: Record<string, { healthcheck?: { disable?: boolean } } | null> } | null;
  return Object.entries(doc?.services ?? {}).map(([name, s]) => ({
    name,
    healthcheck: !!s?.healthcheck && s.healthcheck.disable !== true,
  }));
}

function failed(component: string, code: string, message: string): ApplyOutcome {
  return { state: 'failed', error: { code, source: component, message } };
}
