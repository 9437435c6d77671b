// One trust domain served by the identity role: its discovery document and its bundle, each a resource at a path of
// the origin that can be withdrawn (404) and restored. The origin serves its main domain at /.well-known/<vendor>
// and any further domain at another URL (§4.5: "An origin serving several MAY use other absolute HTTPS URLs").
import type { TrustBundle } from '../../spec/types.ts';
import type { IdentityDecisions } from './decisions.ts';
import type { Issued } from '../../protocol/pki.ts';
import { createAnchorSet, type AnchorSet } from './anchors.ts';
import { bundlePath, discoveryDocument, represent, trustBundle, type Representation } from './documents.ts';

export interface Resource {
  kind: 'discovery' | 'bundle';
  /** undefined: the resource exists as a path but has no document right now (404 with `missing`). */
  current(): Representation | undefined;
  missing: string;
}

export type ResourceKind = Resource['kind'];

export interface ServedDomain {
  trustDomain: string;
  anchors: AnchorSet;
  discoveryUrl: string;
  trustBundleUri: string;
  bundle(): TrustBundle;
  /** false: the resource answers 404 until set back to true. */
  setAvailable(kind: ResourceKind, available: boolean): void;
}

export interface DomainOptions {
  trustDomain: string;
  /** Origin of the identity role, https://127.0.0.1:<port>. */
  origin: string;
  discoveryPath: string;
  /** false: no discovery document for this domain (404); clients take the bundle URI from configuration. */
  discovery: boolean;
  refreshHintSeconds: number;
  includeJwtSvidKey: boolean;
  decisions: IdentityDecisions;
  /** Operator-added anchors of this domain (never rotated). */
  fixedAnchors?: Issued[];
}

/** Creates the domain's anchors and adds its two resources to `resources` (path -> resource). */
export async function serveDomain(resources: Map<string, Resource>, o: DomainOptions): Promise<ServedDomain> {
  const anchors = await createAnchorSet({
    trustDomain: o.trustDomain,
    includeJwtSvidKey: o.includeJwtSvidKey,
    decisions: o.decisions,
    ...(o.fixedAnchors && { fixed: o.fixedAnchors }),
  });
  const available = { discovery: true, bundle: true };
  const trustBundleUri = o.origin + bundlePath(o.trustDomain);
  const discoveryBody = represent(discoveryDocument(o.trustDomain, trustBundleUri));
  const bundle = (): TrustBundle => trustBundle(anchors.sequence(), o.refreshHintSeconds, anchors.keys());
  if (o.discovery)
    resources.set(o.discoveryPath, {
      kind: 'discovery',
      current: () => (available.discovery ? discoveryBody : undefined),
      missing: 'no discovery document',
    });
  resources.set(bundlePath(o.trustDomain), {
    kind: 'bundle',
    current: () => (available.bundle ? represent(bundle()) : undefined),
    missing: 'bundle unavailable',
  });
  return {
    trustDomain: o.trustDomain,
    anchors,
    discoveryUrl: o.origin + o.discoveryPath,
    trustBundleUri,
    bundle,
    setAvailable: (kind, value) => void (available[kind] = value),
  };
}
