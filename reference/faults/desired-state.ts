// Faults of profiles.md P4 (desired state: state manifests, deployment YAMLs, bundles): rewrites of the answers, or
// desired state decisions of the reference WFM (reference/wfm/decisions/desired-state.ts).
import { gunzipSync, gzipSync } from 'node:zlib';
import { parse, stringify } from 'yaml';
import type { ApplicationDeployment } from '../../spec/types.ts';
import { on } from './rewrite.ts';
import type { ServiceFaultImplementation, ServiceFaultTable } from './types.ts';

const MANIFEST = /^\/api\/v1\/clients\/[^/]+\/deployments$/;
const DEPLOYMENT = /^\/api\/v1\/clients\/[^/]+\/deployments\/[^/]+\/[^/]+$/;
const BUNDLE = /^\/api\/v1\/clients\/[^/]+\/bundles\/[^/]+$/;

/**
 * A WFM that publishes every deployment YAML edited by `change` (so under another digest), at every manifest it
 * builds. Also used by the miaf faults of the same document (reference/faults/miaf.ts).
 */
export function editingYaml(change: (doc: ApplicationDeployment) => void): ServiceFaultImplementation {
  return {
    wfm: (base) => ({
      servedDeploymentYaml: (yaml) => {
        const doc = parse(base.servedDeploymentYaml(yaml).toString('utf8')) as ApplicationDeployment;
        change(doc);
        return Buffer.from(stringify(doc), 'utf8');
      },
    }),
  };
}

/** A manifest without deployments offers a bundle of an empty archive (miaf.ts judges it by the miaf rule). */
export const emptyBundle: ServiceFaultImplementation = { wfm: () => ({ offersEmptyBundle: true }) };
/** The digest in a deployment URL is not compared: any digest serves the current YAML (also miaf.ts). */
export const anyDeploymentDigest: ServiceFaultImplementation = { wfm: () => ({ comparesDeploymentDigest: false }) };
/** manifestVersion counts from 0 (also miaf.ts, judged by the miaf rule that the first manifest is 1). */
export const versionsFromZero: ServiceFaultImplementation = { wfm: () => ({ servedManifestVersion: (version) => version - 1 }) };

export const implementations: ServiceFaultTable = {
  'DS-GET-200': {
    rewrite: () =>
      on('GET', MANIFEST, (a) => {
        const { etag: _dropped, ...headers } = a.headers;
        return a.status === 200 ? { ...a, headers } : undefined;
      }),
  },
  // The ETag is the version counter, not the digest of the bytes.
  'DS-ETAG-IS-DIGEST': { wfm: () => ({ manifestEtag: (manifest) => `"v${manifest.version}"` }) },
  // Any authenticated client is served the state manifest, YAMLs and bundles of the client the path names.
  'DS-SERVED-TO-OWN-CLIENT': { wfm: () => ({ servesOtherClients: true }) },
  // If-None-Match is ignored; the :changed variant answers 304 to any If-None-Match.
  'DS-304': { wfm: () => ({ manifestNotModified: () => false }) },
  'DS-304:changed': {
    wfm: (base) => ({
      manifestNotModified: (ifNoneMatch, etag) => ifNoneMatch !== undefined || base.manifestNotModified(ifNoneMatch, etag),
    }),
  },
  'DS-406': { wfm: () => ({ honoursAccept: false }) },
  'DS-MANIFESTVERSION-RANGE': versionsFromZero,
  // Every manifest is version 1, changed or not.
  'DS-VERSION-STRICTLY-INCREASING': { wfm: () => ({ servedManifestVersion: () => 1 }) },
  // Counts down.
  'AMV-MONOTONIC': { wfm: () => ({ servedManifestVersion: (version) => 1000 - version }) },
  'DS-BUNDLE-NULL-WHEN-EMPTY': emptyBundle,
  // Labelled as plain gzip.
  'DS-BUNDLE-DESCRIPTOR': { wfm: () => ({ bundleMediaType: () => 'application/gzip' }) },
  // The first deployment is listed twice.
  'DS-DEPLOYMENTS-ENTRIES': {
    wfm: (base) => ({
      manifestEntries: (entries) => {
        const listed = base.manifestEntries(entries);
        return listed.length > 0 ? [...listed, listed[0]!] : listed;
      },
    }),
  },
  // Uppercase hex (the URLs keep the real digest).
  'DS-DIGEST-FORMAT': {
    wfm: () => ({
      servedDigest: (digest) => {
        const [alg, hex] = digest.split(':');
        return `${alg}:${hex!.toUpperCase()}`;
      },
    }),
  },
  // The URLs handed out lose their version segment.
  'VER-PATH-V1': { wfm: () => ({ servedPath: (path) => path.replace('/api/v1/', '/api/') }) },
  'DS-DEPLOYMENT-DIGEST-MATCHES': {
    rewrite: () =>
      on('GET', DEPLOYMENT, (a) =>
        a.status === 200 ? { ...a, body: Buffer.concat([a.body, Buffer.from('# served by a faulty WFM\n')]) } : undefined,
      ),
  },
  'DS-DEPLOYMENT-404': anyDeploymentDigest,
  'DS-BUNDLE-DIGEST-MATCHES': {
    rewrite: () => on('GET', BUNDLE, (a) => (a.status === 200 ? { ...a, body: gzipSync(gunzipSync(a.body), { level: 1 }) } : undefined)),
  },
  // The bundle carries a file that is no deployment.
  'DS-BUNDLE-CONTENTS': { wfm: () => ({ bundleHoldsOnlyDeployments: false }) },
  'DS-BUNDLE-IMMUTABLE': {
    rewrite: () =>
      on('GET', BUNDLE, (a) => (a.status === 200 ? { ...a, headers: { ...a.headers, 'cache-control': 'no-cache' } } : undefined)),
  },
  // Earlier bundle URLs stop answering once the manifest moves on.
  'DS-BUNDLE-IMMUTABLE:forgotten': { wfm: () => ({ keepsEarlierBundles: false }) },
  'DS-YAML-KIND': editingYaml((d) => void ((d as { kind: string }).kind = 'Deployment')),
  'DS-YAML-ID-MATCHES': editingYaml((d) => void (d.metadata.annotations.id = '00000000-0000-4000-8000-000000000000')),
  // Only the last segment of a hierarchy is written.
  'DS-YAML-DEVICEID': editingYaml(
    (d) => void (d.metadata.deviceId?.endsWith('/*') || (d.metadata.deviceId = d.metadata.deviceId?.split('/').at(-1))),
  ),
  'DS-YAML-WILDCARD-CHILD': editingYaml((d) => void (d.metadata.deviceId = d.metadata.deviceId?.replace(/\/\*$/, ''))),
  'DS-YAML-PROFILE-TYPE': editingYaml((d) => void (d.spec.deploymentProfile.type = 'docker-compose')),
  'DS-YAML-COMPONENTS': editingYaml((d) =>
    d.spec.deploymentProfile.components.forEach((c) => (c.properties.repository = c.properties.repository.replace(/^oci:\/\//, ''))),
  ),
};
