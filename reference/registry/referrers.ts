// Listing referrers (distribution-spec 1.1): GET /v2/<name>/referrers/<digest>[?artifactType=<type>] (end-12a/b).
import { OCI_INDEX } from '../../spec/media-types.ts';
import { ociError } from './errors.ts';
import { checkDigest } from './grammar.ts';
import type { Route } from './context.ts';

/**
 * Always an image index. A registry with the API "MUST NOT return a 404" (a 404 tells clients to fall back to
 * the tag schema), so an unknown repository or subject gets an empty list; only a malformed digest is a 400.
 */
export const listReferrers: Route = ({ store, decisions }, req) => {
  const check = checkDigest(req.param);
  if (!check.ok && check.reason === 'invalid') throw ociError(400, 'DIGEST_INVALID', 'invalid digest', { digest: req.param });
  const artifactType = req.query.get('artifactType');
  let records = store.referrers(req.name, req.param);
  const headers: Record<string, string> = { 'Content-Type': OCI_INDEX };
  if (artifactType !== null) {
    records = records.filter((r) => r.artifactType === artifactType);
    headers['OCI-Filters-Applied'] = 'artifactType';
  }
  const index = { schemaVersion: 2, mediaType: OCI_INDEX, manifests: records.map((r) => decisions.referrerDescriptor(r)) };
  return { status: 200, headers, body: JSON.stringify(index) };
};
