// What the kit's device client decides about the desired state it retrieves (P4): revalidation, which manifests it
// adopts, the digests it checks. A faulty client replaces single decisions (simulators/faults/desired-state.ts).

export interface DesiredStateDecisions {
  /** P4: what it remembers of a state manifest it got, by device (nothing when clean). */
  manifestEtagReceived(deviceId: string, etag: string | undefined): void;
  /** P4: the If-None-Match of a poll, given the ETag of the last manifest it got. */
  manifestRevalidationEtag(deviceId: string, last: string | undefined): string | undefined;
  /** P4: a manifest whose manifestVersion repeats or goes down is adopted too. */
  adoptsAnyManifestVersion: boolean;
  /** P4: a deployment YAML's bytes are checked against the manifest's digest before they are parsed. */
  verifiesDeploymentDigest: boolean;
  /** P4: a bundle's bytes are checked against the manifest's digest before it is opened. */
  verifiesBundleDigest: boolean;
  /** P4: a bundle holding anything but the manifest's deployment YAMLs is refused. */
  checksBundleContents: boolean;
}

export const cleanDesiredStateDecisions: DesiredStateDecisions = {
  manifestEtagReceived: () => undefined,
  manifestRevalidationEtag: (_deviceId, last) => last,
  adoptsAnyManifestVersion: false,
  verifiesDeploymentDigest: true,
  verifiesBundleDigest: true,
  checksBundleContents: true,
};
