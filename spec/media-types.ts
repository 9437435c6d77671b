// Media types, annotation keys and the discovery path of interfaces.md §2.7/§4.5, built from the vendor token (P1).

export const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
export const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';
export const OCI_EMPTY = 'application/vnd.oci.empty.v1+json';
/** The OCI empty descriptor: the two bytes `{}`. */
export const OCI_EMPTY_DESCRIPTOR = {
  mediaType: OCI_EMPTY,
  digest: 'sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a',
  size: 2,
  data: 'e30=',
} as const;

export type ResourceKind = 'icon' | 'descriptionFile' | 'licenseFile' | 'releaseNotes';
export const RESOURCE_KINDS: readonly ResourceKind[] = ['icon', 'descriptionFile', 'licenseFile', 'releaseNotes'];

export interface MediaTypes {
  appArtifact: string;
  appDescription: string;
  resource(kind: ResourceKind, fileFormat: string): string;
  /** Matches any resource layer media type and tells its kind and format. */
  parseResource(mediaType: string): { kind: ResourceKind; fileFormat: string } | undefined;
  composeArtifact: string;
  composeLayer: string;
  stateManifest: string;
  deploymentBundle: string;
  annotation: { resource: string; componentType: string; componentVersion: string };
  discoveryPath: string;
}

export function mediaTypes(vendor = 'platform'): MediaTypes {
  const resourceRe = new RegExp(
    `^application/vnd\\.${escapeRegExp(vendor)}\\.app\\.(icon|descriptionFile|licenseFile|releaseNotes)\\.v1\\+(.+)$`,
  );
  return {
    appArtifact: `application/vnd.${vendor}.app.v1+json`,
    appDescription: `application/vnd.${vendor}.app.description.v1+yaml`,
    resource: (kind, fileFormat) => `application/vnd.${vendor}.app.${kind}.v1+${fileFormat}`,
    parseResource(mediaType) {
      const m = resourceRe.exec(mediaType);
      return m ? { kind: m[1] as ResourceKind, fileFormat: m[2]! } : undefined;
    },
    composeArtifact: `application/vnd.org.${vendor}.component.compose+json`,
    composeLayer: `application/vnd.org.${vendor}.component.compose.tar+gzip`,
    stateManifest: `application/vnd.${vendor}.manifest.v1+json`,
    deploymentBundle: `application/vnd.${vendor}.bundle.v1+tar+gzip`,
    annotation: {
      resource: `org.${vendor}.app.resource`,
      componentType: `org.${vendor}.component.type`,
      componentVersion: `org.${vendor}.component.version`,
    },
    discoveryPath: `/.well-known/${vendor}`,
  };
}

/** Escapes a literal for use inside a RegExp source. */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
