// P4 desired state: the client's state manifest (ETag, 304, 406), its deployment YAMLs and bundles by digest.
import { mediaTypes } from '../../spec/media-types.ts';
import { etagMatches } from '../../spec/rules/desired-state.ts';
import { authenticate } from './auth.ts';
import type { WfmContext, WfmRequest } from './context.ts';
import { WfmError, header, type Reply } from './http.ts';
import type { Client } from './store.ts';

export async function getManifest(ctx: WfmContext, req: WfmRequest): Promise<Reply> {
  const d = ctx.decisions;
  const client = await authenticate(ctx, req);
  const vendorType = mediaTypes(ctx.profile.vendor).stateManifest;
  const accept = header(req.headers, 'accept');
  // Labelled with the vendor type unless the client accepts only plain JSON, which the same bytes also are.
  const type = acceptable(accept, [vendorType]) ? vendorType : 'application/json';
  if (!acceptable(accept, [type]) && d.honoursAccept) {
    throw new WfmError(406, `cannot produce the Accept type; the state manifest is ${vendorType} (or application/json)`);
  }
  const { bytes } = client.manifest;
  const etag = d.manifestEtag(client.manifest);
  // private: the manifest is one client's; caches may keep it but revalidate with If-None-Match.
  const headers = { etag, 'cache-control': d.manifestCacheControl, vary: 'Accept' };
  if (d.manifestNotModified(header(req.headers, 'if-none-match'), etag)) return { status: 304, headers };
  return { status: 200, headers: { ...headers, 'content-type': type }, body: bytes };
}

/** The clients whose desired state a request may be served: its own, unless every client's is served to anyone. */
function anyClients(ctx: WfmContext, own: Client): Client[] {
  return ctx.decisions.servesOtherClients ? [own, ...ctx.store.clients.values()] : [own];
}

export async function getDeployment(ctx: WfmContext, req: WfmRequest): Promise<Reply> {
  const client = await authenticate(ctx, req);
  const id = req.params['deploymentId']!;
  const deployment = anyClients(ctx, client)
    .map((c) => c.deployments.get(id))
    .find((d) => d !== undefined);
  const digestOk = deployment?.digest === req.params['digest'] || !ctx.decisions.comparesDeploymentDigest;
  // Judging mode, defects bundle-*: the YAML is to be had from the bundle only.
  if (!deployment || !digestOk || deployment.defect?.startsWith('bundle-')) {
    throw new WfmError(
      404,
      `no deployment ${req.params['deploymentId']} with digest ${req.params['digest']} for this client`,
      undefined,
      {},
      'deployment-not-found',
    );
  }
  // P10: the YAML may be served compressed, so caches key it by Accept-Encoding too.
  // Judging mode, defect yaml-digest: other bytes under the digest.
  return digestAddressed(
    req,
    deployment.servedYaml ?? deployment.yaml,
    deployment.digest,
    'application/yaml',
    ctx.decisions.deploymentCacheControl,
    ctx.profile.edition === 'miaf' ? { vary: 'Accept-Encoding' } : {},
  );
}

export async function getBundle(ctx: WfmContext, req: WfmRequest): Promise<Reply> {
  const client = await authenticate(ctx, req);
  const digest = req.params['digest']!;
  const bytes = anyClients(ctx, client)
    .map((c) => c.bundles.get(digest))
    .find((b) => b !== undefined);
  if (!bytes) throw new WfmError(404, `no bundle with digest ${digest} for this client`, undefined, {}, 'invalid-bundle');
  // P4 shows bundles public (they hold no client secrets); P10 makes them private like everything else.
  return digestAddressed(
    req,
    bytes,
    digest,
    mediaTypes(ctx.profile.vendor).deploymentBundle,
    ctx.decisions.bundleCacheControl(ctx.profile.edition),
  );
}

function digestAddressed(
  req: WfmRequest,
  bytes: Buffer,
  digest: string,
  type: string,
  cacheControl: string,
  extra: Record<string, string> = {},
): Reply {
  const headers = { etag: `"${digest}"`, 'cache-control': cacheControl, ...extra };
  if (etagMatches(header(req.headers, 'if-none-match'), headers.etag)) return { status: 304, headers };
  return { status: 200, headers: { ...headers, 'content-type': type }, body: bytes };
}

/** RFC 9110 §12.5.1: absent Accept takes anything; else some range with q > 0 must cover one of `offered`. */
export function acceptable(accept: string | undefined, offered: string[]): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return accept.split(',').some((member) => {
    const [range = '', ...params] = member.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) return false;
    const [type, subtype] = range.split('/');
    if (!type || !subtype) return false;
    return offered.some((o) => {
      const [ot, os] = o.split('/');
      return (type === '*' && subtype === '*') || (type === ot && (subtype === '*' || subtype === os));
    });
  });
}
