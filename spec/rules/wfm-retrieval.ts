// §4.7 retrieval workflow and §5 registry tokens, judged from the requests a registry received while a WFM pulled
// one package. Pure: the recorded requests in, findings out.
import { OCI_MANIFEST } from '../media-types.ts';
import { DIGEST_PATTERN } from '../schemas/common.ts';
import { finding, type Finding } from './finding.ts';

/** One request as the watching registry saw it. */
export interface RecordedPull {
  method: string;
  path: string;
  query: string;
  accept?: string | undefined;
  authorization?: string | undefined;
  /** 0 until the answer was sent. */
  status: number;
}

export interface PulledPackage {
  /** Repository name in the registry. */
  name: string;
  /** The version the WFM was asked to deploy, and the digest of its manifest. */
  version: string;
  manifestDigest: string;
  layerDigests: string[];
}

const DIGEST = new RegExp(DIGEST_PATTERN);

function kindOf(p: RecordedPull, name: string): 'tags' | 'manifest' | 'blob' | undefined {
  if (p.path === `/v2/${name}/tags/list`) return 'tags';
  if (p.path.startsWith(`/v2/${name}/manifests/`)) return 'manifest';
  if (p.path.startsWith(`/v2/${name}/blobs/`) && !p.path.includes('/uploads')) return 'blob';
  return undefined;
}

const lastSegment = (path: string) => decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));

/** List versions, then the selected version's manifest, then each layer blob (all GETs answered 200, in that order). */
export function retrievalOrder(pulls: readonly RecordedPull[], pkg: PulledPackage): Finding[] {
  const ok = pulls.map((p, i) => ({ p, i, kind: kindOf(p, pkg.name) })).filter((x) => x.kind && x.p.method === 'GET' && x.p.status === 200);
  const tags = ok.find((x) => x.kind === 'tags');
  const manifest = ok.find((x) => x.kind === 'manifest' && [pkg.version, pkg.manifestDigest].includes(lastSegment(x.p.path)));
  const out: Finding[] = [];
  if (!manifest)
    return [
      finding(
        'manifest-pulled',
        `§4.7: the WFM pulls the manifest of the selected version ${pkg.version} (by tag or ${pkg.manifestDigest})`,
      ),
    ];
  if (!tags || tags.i > manifest.i)
    out.push(
      finding(
        'versions-listed-first',
        `§4.7: the WFM lists the versions (GET /v2/${pkg.name}/tags/list) before pulling the manifest of ${pkg.version}`,
      ),
    );
  for (const digest of pkg.layerDigests) {
    const blob = ok.find((x) => x.kind === 'blob' && lastSegment(x.p.path) === digest);
    if (!blob)
      out.push(finding('each-layer-pulled', `§4.7: the WFM pulls each layer blob of the manifest, and ${digest} was never pulled`));
    else if (blob.i < manifest.i)
      out.push(finding('layers-after-manifest', `§4.7: layer ${digest} was pulled before the manifest that lists it`));
  }
  return out;
}

/** Whether an Accept value lists `type` (parameters and q-values aside; q=0 refuses it). */
export function accepts(accept: string | undefined, type: string): boolean {
  return (accept ?? '').split(',').some((part) => {
    const [media, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    return media === type && !params.some((p) => /^q=0(\.0*)?$/.test(p));
  });
}

/** OCI pulling-manifests and pulling-blobs: reads only, an Accept naming the OCI image manifest, blobs by digest. */
export function ociPullRules(pulls: readonly RecordedPull[], pkg: PulledPackage): Finding[] {
  const out: Finding[] = [];
  for (const p of pulls) {
    const kind = kindOf(p, pkg.name);
    if (!kind) continue;
    if (p.method !== 'GET' && p.method !== 'HEAD')
      out.push(finding('pull-is-read-only', `OCI pull: the WFM only reads the package, yet sent ${p.method} ${p.path}`));
    if (kind === 'manifest' && p.method === 'GET' && !accepts(p.accept, OCI_MANIFEST)) {
      out.push(
        finding(
          'manifest-accept',
          `OCI pulling-manifests: GET ${p.path} carries Accept listing ${OCI_MANIFEST}, got ${p.accept === undefined ? 'no Accept header' : JSON.stringify(p.accept)}`,
        ),
      );
    }
    if (kind === 'blob' && !DIGEST.test(lastSegment(p.path)))
      out.push(finding('blob-by-digest', `OCI pulling-blobs: blobs are pulled by digest, not ${p.path}`));
  }
  return out;
}

/** §5: a token was asked for this repository's pull scope, and every pull of it after that carried a Bearer token. */
export function tokenRules(pulls: readonly RecordedPull[], pkg: PulledPackage, tokenPath: string): Finding[] {
  const asked = pulls.findIndex(
    (p) =>
      p.path === tokenPath &&
      new URLSearchParams(p.query)
        .getAll('scope')
        .some((s) => s.startsWith(`repository:${pkg.name}:`) && s.split(':').at(-1)!.split(',').includes('pull')),
  );
  if (asked < 0)
    return [
      finding(
        'token-requested',
        `§5: the WFM requests a token for repository:${pkg.name}:pull from the authentication service (${tokenPath}) the registry's challenge names`,
      ),
    ];
  const after = pulls.slice(asked + 1).filter((p) => kindOf(p, pkg.name) && p.method === 'GET');
  if (after.length === 0)
    return [finding('token-used', '§5: after getting a token the WFM pulls the package with it, and it pulled nothing')];
  return after
    .filter((p) => !/^Bearer\s+\S+$/i.test(p.authorization ?? '') || p.status !== 200)
    .map((p) =>
      finding(
        'token-used',
        `§5: the WFM's registry call GET ${p.path} carries the Bearer token and is served (got ${p.authorization ? 'a token' : 'no Authorization'}, HTTP ${p.status})`,
      ),
    );
}
