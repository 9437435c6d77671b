// Faults of profiles.md P4 (desired state: state manifests, deployment YAMLs, bundles). Behaviour-level faults have
// their seam in reference/wfm/desired-state.ts, manifest.ts or manifest-faults.ts, found by the fault id.
import { gunzipSync, gzipSync } from 'node:zlib';
import { on } from './rewrite.ts';
import type { FaultDefinition } from './types.ts';

const MANIFEST = /^\/api\/v1\/clients\/[^/]+\/deployments$/;
const DEPLOYMENT = /^\/api\/v1\/clients\/[^/]+\/deployments\/[^/]+\/[^/]+$/;
const BUNDLE = /^\/api\/v1\/clients\/[^/]+\/bundles\/[^/]+$/;

const seam = (id: string, breaks: string[], description: string): FaultDefinition => ({ id, service: 'wfm', breaks, description });

export const faults: FaultDefinition[] = [
  {
    id: 'DS-GET-200',
    service: 'wfm',
    breaks: ['DS-GET-200', 'DS-ETAG-IS-DIGEST'],
    description: 'the state manifest is served without an ETag',
    rewrite: on('GET', MANIFEST, (a) => {
      const { etag: _dropped, ...headers } = a.headers;
      return a.status === 200 ? { ...a, headers } : undefined;
    }),
  },
  seam('DS-ETAG-IS-DIGEST', ['DS-ETAG-IS-DIGEST'], 'the ETag of the state manifest is a version counter, not the digest of its bytes'),
  seam('DS-SERVED-TO-OWN-CLIENT', ['DS-SERVED-TO-OWN-CLIENT'], "serves a client's state manifest, deployment YAMLs and bundles to any other client whose request authenticates"),
  seam('DS-304', ['DS-304'], 'If-None-Match is ignored: never 304'),
  seam('DS-304:changed', ['DS-304'], '304 to any If-None-Match, even after the manifest changed'),
  seam('DS-406', ['DS-406'], 'the Accept header is ignored: 200 instead of 406'),
  seam('DS-MANIFESTVERSION-RANGE', ['DS-MANIFESTVERSION-RANGE'], 'manifestVersion counts from 0'),
  seam('DS-VERSION-STRICTLY-INCREASING', ['DS-VERSION-STRICTLY-INCREASING', 'AMV-MONOTONIC'], 'manifestVersion stays 1 while the manifest changes (it repeats)'),
  seam('AMV-MONOTONIC', ['AMV-MONOTONIC', 'DS-VERSION-STRICTLY-INCREASING'], 'manifestVersion goes down at every change'),
  seam('DS-BUNDLE-NULL-WHEN-EMPTY', ['DS-BUNDLE-NULL-WHEN-EMPTY'], 'a manifest without deployments offers a bundle of an empty archive instead of null'),
  seam('DS-BUNDLE-DESCRIPTOR', ['DS-BUNDLE-DESCRIPTOR'], 'bundle.mediaType is application/gzip, not the vendor bundle type'),
  seam('DS-DEPLOYMENTS-ENTRIES', ['DS-DEPLOYMENTS-ENTRIES'], 'deployments lists the first deployment twice'),
  seam('DS-DIGEST-FORMAT', ['DS-DIGEST-FORMAT'], 'digests in the manifest are written with uppercase hex'),
  seam('VER-PATH-V1', ['VER-PATH-V1'], 'the URLs of the state manifest lack the v1 segment (/api/clients/...)'),
  {
    id: 'DS-DEPLOYMENT-DIGEST-MATCHES',
    service: 'wfm',
    breaks: ['DS-DEPLOYMENT-DIGEST-MATCHES'],
    description: 'the deployment YAML gets a trailing comment, so its bytes no longer hash to the listed digest',
    rewrite: on('GET', DEPLOYMENT, (a) => (a.status === 200 ? { ...a, body: Buffer.concat([a.body, Buffer.from('# served by a faulty WFM\n')]) } : undefined)),
  },
  seam('DS-DEPLOYMENT-404', ['DS-DEPLOYMENT-404'], 'a deployment URL with any digest serves the current YAML'),
  {
    id: 'DS-BUNDLE-DIGEST-MATCHES',
    service: 'wfm',
    breaks: ['DS-BUNDLE-DIGEST-MATCHES'],
    description: 'the bundle is recompressed on the way out: the same tar, other bytes than bundle.digest names',
    rewrite: on('GET', BUNDLE, (a) => (a.status === 200 ? { ...a, body: gzipSync(gunzipSync(a.body), { level: 1 }) } : undefined)),
  },
  seam('DS-BUNDLE-CONTENTS', ['DS-BUNDLE-CONTENTS'], 'the bundle holds a NOTES.txt beside the deployment YAMLs'),
  {
    id: 'DS-BUNDLE-IMMUTABLE',
    service: 'wfm',
    breaks: ['DS-BUNDLE-IMMUTABLE'],
    description: 'bundles are served with Cache-Control no-cache',
    rewrite: on('GET', BUNDLE, (a) => (a.status === 200 ? { ...a, headers: { ...a.headers, 'cache-control': 'no-cache' } } : undefined)),
  },
  seam('DS-BUNDLE-IMMUTABLE:forgotten', ['DS-BUNDLE-IMMUTABLE'], 'an earlier bundle URL answers 404 once the manifest changes'),
  seam('DS-YAML-KIND', ['DS-YAML-KIND'], 'the deployment YAML has kind Deployment'),
  seam('DS-YAML-ID-MATCHES', ['DS-YAML-ID-MATCHES'], 'metadata.annotations.id is another UUID than the deploymentId'),
  seam('DS-YAML-DEVICEID', ['DS-YAML-DEVICEID'], 'metadata.deviceId keeps only the last segment of the hierarchy'),
  seam('DS-YAML-WILDCARD-CHILD', ['DS-YAML-WILDCARD-CHILD'], 'a deployment for <gateway>/* is written for the gateway itself'),
  seam('DS-YAML-PROFILE-TYPE', ['DS-YAML-PROFILE-TYPE'], 'spec.deploymentProfile.type is docker-compose'),
  seam('DS-YAML-COMPONENTS', ['DS-YAML-COMPONENTS'], 'component repositories lose their oci:// scheme'),
];
