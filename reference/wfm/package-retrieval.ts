// §4.7 retrieval workflow (WFM): list versions, pull the manifest of the selected version, pull each layer blob,
// per the OCI pulling-manifests and pulling-blobs sections, with the §5 token flow when the registry challenges.
// The kit's reading (errata of REG-WFM-RETRIEVAL): the reference WFM retrieves the package it is assigned.
import { OCI_MANIFEST } from '../../spec/media-types.ts';
import { isLoopbackHost } from '../../spec/loopback.ts';
import { digestOf } from '../../spec/rules/desired-state.ts';
import type { AssignmentDecisions } from './decisions/index.ts';
import { nextLink } from '../../protocol/header-params.ts';
import { loopbackFetch } from '../../protocol/loopback-fetch.ts';
import { pullToken } from './registry-token.ts';

/** The application package an assignment deploys: `oci://<registry host>/<name>` and the version (a tag). */
export interface PackageRef {
  repository: string;
  version: string;
}

export interface Retrieved {
  manifestDigest: string;
  layers: string[];
}

const MAX_TAG_PAGES = 100;

export async function retrievePackage(ref: PackageRef, decisions: AssignmentDecisions): Promise<Retrieved> {
  const { host, name } = parseReference(ref);
  const session = await openSession(host, decisions);
  if (decisions.listsVersionsFirst) {
    const tags = await listTags(session, name);
    if (!tags.includes(ref.version))
      throw new Error(`package ${ref.repository}: version ${ref.version} is not listed (${tags.join(', ')})`);
  }
  // OCI pulling-manifests: the client SHOULD send Accept with the manifest types it takes.
  const accept: Record<string, string> = decisions.sendsManifestAccept ? { accept: OCI_MANIFEST } : {};
  const res = await session.get(`/v2/${name}/manifests/${ref.version}`, accept);
  const bytes = await body(res, `manifest ${name}:${ref.version}`);
  const manifestDigest = digestOf(bytes);
  const served = res.headers.get('docker-content-digest');
  if (served && served !== manifestDigest && decisions.verifiesPulledDigests) {
    throw new Error(`package ${ref.repository}: the manifest hashes to ${manifestDigest}, not the Docker-Content-Digest ${served}`);
  }
  const manifest = JSON.parse(bytes.toString('utf8')) as { layers?: { digest?: unknown; size?: unknown }[] };
  const layers = decisions.layersPulled((manifest.layers ?? []).map((l) => ({ digest: String(l.digest), size: Number(l.size) })));
  for (const layer of layers) {
    const blob = await body(await session.get(`/v2/${name}/blobs/${layer.digest}`), `blob ${layer.digest}`);
    // OCI pulling-blobs: the client verifies the bytes against the digest it asked for.
    if (!decisions.verifiesPulledDigests) continue;
    if (digestOf(blob, layer.digest.split(':')[0]) !== layer.digest || blob.length !== layer.size) {
      throw new Error(`package ${ref.repository}: blob ${layer.digest} does not match its descriptor (digest or size)`);
    }
  }
  return { manifestDigest, layers: layers.map((l) => l.digest) };
}

function parseReference(ref: PackageRef): { host: string; name: string } {
  if (typeof ref?.repository !== 'string' || typeof ref.version !== 'string' || ref.version === '') {
    throw new Error('assignDeployment: package needs string repository (oci://<host>/<name>) and version');
  }
  const m = /^oci:\/\/([^/]+)\/(.+)$/.exec(ref.repository);
  if (!m) throw new Error(`assignDeployment: package repository ${ref.repository} is not oci://<host>/<name>`);
  // The kit's network policy: the reference services only ever talk to loopback.
  if (!isLoopbackHost(new URL(`http://${m[1]}`).hostname))
    throw new Error(`assignDeployment: package registry ${m[1]} is not a loopback address`);
  return { host: m[1]!, name: m[2]! };
}

interface Session {
  get(path: string, headers?: Record<string, string>): Promise<Response>;
}

/** GET /v2/ over https, else plain http (a loopback registry, as clients treat localhost registries). */
async function openSession(host: string, decisions: AssignmentDecisions): Promise<Session> {
  let origin = `https://${host}`;
  try {
    await loopbackFetch(`${origin}/v2/`, { signal: AbortSignal.timeout(10_000) });
  } catch {
    origin = `http://${host}`;
  }
  let token: string | undefined;
  const send = (path: string, headers: Record<string, string>) =>
    loopbackFetch(new URL(path, origin), {
      headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      signal: AbortSignal.timeout(30_000),
    });
  return {
    async get(path, headers = {}) {
      const res = await send(path, headers);
      if (res.status !== 401 || token !== undefined || !decisions.asksForRegistryToken) return res;
      token = await pullToken(res.headers.get('www-authenticate'));
      return token === undefined ? res : send(path, headers);
    },
  };
}

async function listTags(session: Session, name: string): Promise<string[]> {
  const tags: string[] = [];
  let path: string | undefined = `/v2/${name}/tags/list`;
  for (let page = 0; path !== undefined && page < MAX_TAG_PAGES; page++) {
    const res = await session.get(path);
    const doc = JSON.parse((await body(res, `tag list of ${name}`)).toString('utf8')) as { tags?: unknown };
    if (Array.isArray(doc.tags)) tags.push(...doc.tags.map(String));
    path = nextLink(res.headers.get('link') ?? undefined, res.url);
  }
  return tags;
}

async function body(res: Response, what: string): Promise<Buffer> {
  const bytes = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`retrieving ${what}: HTTP ${res.status} ${bytes.toString('utf8').slice(0, 200)}`);
  return bytes;
}
