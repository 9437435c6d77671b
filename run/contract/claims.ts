// What a component claims, after the OCI conformance suite's workflow toggles: each requirement a persona judges belongs
// to one area (a registry's pull, push, content discovery; a WFM's onboarding, status, desired state ...). A run that
// names claims judges those areas only; every other requirement is `skip: not-claimed`, never a gap, so a registry
// that serves only what it claims can be conformant for exactly that, and the report says which areas it claimed.
import type { Observer, Requirement } from '../../spec/requirements.ts';

export interface ClaimArea {
  name: string;
  observer: Exclude<Observer, 'untestable'>;
  /** Requirement ids of the area: an id matches when it equals an entry or starts with an entry ending in `-`. */
  ids: readonly string[];
  doc: string;
}

// Ordered: the first area of a requirement's observer that matches it is its area.
export const CLAIM_AREAS: readonly ClaimArea[] = [
  {
    observer: 'registry',
    name: 'pull',
    ids: ['REG-OCI-DIST', 'REG-MANIFEST-BY-TAG', 'REG-MANIFEST-BY-DIGEST', 'REG-BLOB-BY-DIGEST'],
    doc: 'GET /v2/, manifests by tag and digest, blobs (OCI pull)',
  },
  { observer: 'registry', name: 'push', ids: ['REG-PUSH-OCI'], doc: 'blob uploads and manifest PUT (OCI push)' },
  {
    observer: 'registry',
    name: 'content-discovery',
    ids: ['REG-TAGS-', 'REG-TAG-LIST-SHAPE', 'LIMIT-TAGS-PAGINATION-COMPLETE'],
    doc: 'tags/list with n and last (OCI content discovery)',
  },
  { observer: 'registry', name: 'referrers', ids: ['REG-SIGNED-PACKAGES'], doc: 'package signatures found through the referrers API' },
  { observer: 'registry', name: 'token-auth', ids: ['AUTH-REGISTRY-TOKEN'], doc: 'bearer tokens and access control (§5)' },
  {
    observer: 'registry',
    name: 'packages',
    ids: ['PKG-', 'VER-MEDIATYPE-V1'],
    doc: 'application package manifests as stored and served (§2.7)',
  },
  {
    observer: 'registry',
    name: 'compose',
    ids: ['COMPOSE-', 'VER-COMPOSE-TAG-SEMVER'],
    doc: 'compose component artifacts and archives (§2.7)',
  },
  { observer: 'identity', name: 'discovery', ids: ['DISC-', 'ERR-DISC-404'], doc: 'the discovery document (§2.5, §4.5)' },
  {
    observer: 'identity',
    name: 'bundle',
    ids: ['BUNDLE-', 'ERR-BUNDLE-404', 'AUTH-IDENTITY-'],
    doc: 'the SPIFFE trust bundle and its rotation (§2.6, §4.6)',
  },
  {
    observer: 'wfm',
    name: 'onboarding',
    ids: ['ONB-', 'CERT-', 'ERR-ONB-', 'AUTH-ONB-SIGNATURE'],
    doc: 'the Certificate API and onboarding (§4.3, P2)',
  },
  { observer: 'wfm', name: 'signatures', ids: ['SIG-'], doc: 'RFC 9421 request signatures (P3)' },
  { observer: 'wfm', name: 'placement', ids: ['CPU-FIT-', 'CPU-NO-SUM'], doc: 'placement by requiredResources.cpu (§2.1.1)' },
  {
    observer: 'wfm',
    name: 'capabilities',
    ids: [
      'CAP-',
      'CPU-',
      'PROPS-',
      'ENUM-',
      'GW-',
      'ERR-CAP-',
      'ERR-NOT-JSON-400',
      'ERR-SCHEMA-INVALID-400-OR-422',
      'AUTH-RETIRED-CLIENT-403',
      'MIAF-CAP-',
      'MIAF-ENUMS-CLOSED',
    ],
    doc: 'PUT and DELETE capabilities, gateways (§2.1, §2.2, §4.1, §4.2)',
  },
  {
    observer: 'wfm',
    name: 'status',
    ids: ['STATUS-', 'AMV-', 'ERR-STATUS-', 'MIAF-STATUS-'],
    doc: 'deployment status reports (§2.4, §4.4)',
  },
  {
    observer: 'wfm',
    name: 'desired-state',
    ids: [
      'DS-',
      'MIAF-DS-',
      'MIAF-DEPLOYMENT-',
      'MIAF-BUNDLE-',
      'MIAF-PROFILE-TYPE',
      'MIAF-REVISION-SEMVER',
      'MIAF-TIMEOUT-FORMAT',
      'VER-PATH-V1',
    ],
    doc: 'state manifests, deployment YAMLs and bundles (P4, P10)',
  },
  { observer: 'wfm', name: 'mtls', ids: ['MIAF-', 'SVID-'], doc: 'mutual TLS with X.509-SVIDs and admission (P10)' },
  { observer: 'wfm', name: 'problem-details', ids: ['PROBLEM-'], doc: 'RFC 9457 problem details (P10)' },
  {
    observer: 'wfm',
    name: 'retrieval',
    ids: ['REG-WFM-', 'AUTH-WFM-REGISTRY-TOKEN'],
    doc: 'the WFM pulling packages from a registry (§4.7, §5)',
  },
  { observer: 'client', name: 'onboarding', ids: ['ONB-'], doc: 'the client onboards (§2.3, §4.3)' },
  { observer: 'client', name: 'signatures', ids: ['SIG-'], doc: 'the client signs its requests (P3)' },
  {
    observer: 'client',
    name: 'gateways',
    ids: ['GW-', 'STATUS-DEVICEID-CHILD', 'STATUS-RESERVED-', 'STATUS-ERROR-SOURCE-GATEWAY'],
    doc: 'see-thru and opaque gateways (§2.2, §2.4 reserved codes)',
  },
  {
    observer: 'client',
    name: 'capabilities',
    ids: ['CAP-', 'CPU-', 'PROPS-', 'ENUM-', 'API-JSON-REQUESTS', 'MIAF-CLIENT-CAP-'],
    doc: 'the capabilities documents it sends (§2.1)',
  },
  { observer: 'client', name: 'authorization', ids: ['CLIENT-403-'], doc: 'what it does once the WFM no longer authorizes it (§5)' },
  { observer: 'client', name: 'status', ids: ['STATUS-', 'AMV-'], doc: 'its status reports (§2.4)' },
  { observer: 'client', name: 'desired-state', ids: ['DS-CLIENT-'], doc: 'how it fetches and checks its desired state (P4)' },
  { observer: 'client', name: 'compose', ids: ['COMPOSE-', 'WAIT-'], doc: 'compose archives it is given (§2.7, §4.8)' },
  {
    observer: 'client',
    name: 'identity',
    ids: ['DISC-', 'BUNDLE-', 'AUTH-IDENTITY-', 'LIMIT-NO-STALENESS-BOUND'],
    doc: 'its discovery and trust bundle (§4.5, §4.6)',
  },
  { observer: 'client', name: 'mtls', ids: ['MIAF-CLIENT-'], doc: 'its side of mutual TLS and problem details (P10)' },
];

function matches(id: string, entry: string): boolean {
  return entry.endsWith('-') ? id.startsWith(entry) : id === entry;
}

/** The area a requirement belongs to; undefined for an untestable one, which no claim changes. */
export function areaOf(req: Pick<Requirement, 'id' | 'observer'>): ClaimArea | undefined {
  return CLAIM_AREAS.find((a) => a.observer === req.observer && a.ids.some((e) => matches(req.id, e)));
}

/** The areas of the observers a persona judges, each name once. */
export function areasFor(observers: readonly Observer[]): ClaimArea[] {
  return CLAIM_AREAS.filter((a) => observers.includes(a.observer));
}

/** Why `req` is not judged under `claims` (undefined = it is, or no claims were named: every area is claimed). */
export function unclaimedReason(claims: readonly string[] | undefined, req: Pick<Requirement, 'id' | 'observer'>): string | undefined {
  if (claims === undefined || claims.length === 0) return undefined;
  const area = areaOf(req);
  if (area === undefined || claims.includes(area.name)) return undefined;
  return `not claimed: area ${area.name} (${area.doc}); the component claims ${claims.join(', ')}`;
}
