// What the reference WFM decides about the desired state it serves (P4, P10): the state manifest, its deployment YAMLs
// and bundles, and how each is cached. A faulty variant replaces single decisions (reference/faults/desired-state.ts, miaf.ts).
import { etagMatches } from '../../../spec/rules/desired-state.ts';
import type { Edition } from '../../../spec/profile.ts';
import type { StateManifest } from '../../../spec/types.ts';
import type { ServedManifest } from '../store.ts';

export const IMMUTABLE_PRIVATE = 'private, max-age=31536000, immutable';
export const IMMUTABLE_PUBLIC = 'public, max-age=31536000, immutable';

export interface DesiredStateDecisions {
  /** P4: an Accept the state manifest cannot satisfy is refused (406). */
  honoursAccept: boolean;
  /** P4: the ETag of the state manifest (the digest of its bytes, quoted). */
  manifestEtag(manifest: ServedManifest): string;
  /** P10: Cache-Control of the state manifest: private, one client's. */
  manifestCacheControl: string;
  /** P4: the state manifest is answered 304 to this If-None-Match. */
  manifestNotModified(ifNoneMatch: string | undefined, etag: string): boolean;
  /** P4: a deployment URL serves its YAML only under the digest the manifest lists (else 404). */
  comparesDeploymentDigest: boolean;
  /** P10: Cache-Control of a deployment YAML. */
  deploymentCacheControl: string;
  /** P4, P10: Cache-Control of a bundle (public in seed, private in miaf). */
  bundleCacheControl(edition: Edition): string;
  /** P4: the manifestVersion served for the version the WFM counts (1, 2, ... strictly increasing). */
  servedManifestVersion(version: number): number;
  /** P4: a digest as the manifest writes it. */
  servedDigest(digest: string): string;
  /** P4: a URL path as the manifest writes it. */
  servedPath(path: string): string;
  /** P4: the YAML a deployment is published as (its digest is taken of what this answers). */
  servedDeploymentYaml(yaml: Buffer): Buffer;
  /** P4, P10: a manifest without deployments offers a bundle (of an empty archive) instead of null. */
  offersEmptyBundle: boolean;
  /** P4: a bundle holds the deployment YAMLs and nothing else. */
  bundleHoldsOnlyDeployments: boolean;
  /** P4: an earlier bundle URL still answers once the manifest moves on (bundle URLs are immutable). */
  keepsEarlierBundles: boolean;
  /** P4: bundle.mediaType, for the vendor's bundle type. */
  bundleMediaType(vendorType: string): string;
  /** P4: the deployments entries of the manifest, one per active deployment. */
  manifestEntries(entries: StateManifest['deployments']): StateManifest['deployments'];
}

export const cleanDesiredStateDecisions: DesiredStateDecisions = {
  honoursAccept: true,
  manifestEtag: (manifest) => manifest.etag,
  manifestCacheControl: 'private',
  manifestNotModified: (ifNoneMatch, etag) => etagMatches(ifNoneMatch, etag),
  comparesDeploymentDigest: true,
  deploymentCacheControl: IMMUTABLE_PRIVATE,
  bundleCacheControl: (edition) => (edition === 'miaf' ? IMMUTABLE_PRIVATE : IMMUTABLE_PUBLIC),
  servedManifestVersion: (version) => version,
  servedDigest: (digest) => digest,
  servedPath: (path) => path,
  servedDeploymentYaml: (yaml) => yaml,
  offersEmptyBundle: false,
  bundleHoldsOnlyDeployments: true,
  keepsEarlierBundles: true,
  bundleMediaType: (vendorType) => vendorType,
  manifestEntries: (entries) => entries,
};
