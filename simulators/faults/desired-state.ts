// Client faults of the desired state (P4): how it revalidates, which manifests it adopts, which digests it checks
// (simulators/device/decisions/desired-state.ts).
import type { ClientFaultTable } from './types.ts';

export const implementations: ClientFaultTable = {
  // Revalidates with the first ETag it ever saw, by device, not the last.
  'DS-CLIENT-IF-NONE-MATCH': (base) => {
    const first = new Map<string, string | undefined>();
    return {
      manifestEtagReceived: (deviceId, etag) => {
        if (!first.has(deviceId)) first.set(deviceId, etag);
        base.manifestEtagReceived(deviceId, etag);
      },
      manifestRevalidationEtag: (deviceId, last) =>
        last === undefined ? base.manifestRevalidationEtag(deviceId, last) : first.get(deviceId),
    };
  },
  'DS-CLIENT-VERIFY-DEPLOYMENT-DIGEST': () => ({ verifiesDeploymentDigest: false }),
  'DS-CLIENT-VERIFY-BUNDLE-DIGEST': () => ({ verifiesBundleDigest: false }),
  // Whatever else the bundle holds is never looked at.
  'DS-CLIENT-BUNDLE-CONTENTS': () => ({ checksBundleContents: false }),
  // Every manifest is taken, whatever its version says.
  'DS-CLIENT-MONOTONIC': () => ({ adoptsAnyManifestVersion: true }),
};
