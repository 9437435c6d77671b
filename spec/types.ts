// The resources of interfaces.md §2 (and profiles.md P4, P7) as TypeScript types. Schemas in spec/schemas/.

/** §2.1.1 enumerations. */
export const CPU_ARCHITECTURES = ['amd64', 'arm64', 'arm'] as const;
export const INTERFACE_TYPES = ['ethernet', 'wifi', 'cellular', 'bluetooth', 'usb', 'canbus', 'rs232'] as const;
export const PERIPHERAL_TYPES = ['gpu', 'display', 'camera', 'microphone', 'speaker'] as const;
export const SUPPORTED_RUNTIMES = ['oci', 'custom'] as const;
export const SUPPORTED_DEPLOYMENT_TYPES = ['helm', 'compose', 'custom'] as const;
/** §3: the six deployment states. */
export const DEPLOYMENT_STATES = ['pending', 'installing', 'installed', 'removing', 'removed', 'failed'] as const;

export type CpuArchitectureType = (typeof CPU_ARCHITECTURES)[number];
export type CommunicationInterfaceType = (typeof INTERFACE_TYPES)[number];
export type PeripheralType = (typeof PERIPHERAL_TYPES)[number];
export type SupportedRuntime = (typeof SUPPORTED_RUNTIMES)[number];
export type SupportedDeploymentType = (typeof SUPPORTED_DEPLOYMENT_TYPES)[number];
export type DeploymentState = (typeof DEPLOYMENT_STATES)[number];

export interface Cpu {
  cores: number;
  architecture?: CpuArchitectureType;
}
export interface Peripheral {
  type: PeripheralType;
  manufacturer?: string;
  model?: string;
}
export interface CommunicationInterface {
  type: CommunicationInterfaceType;
}

/** §2.1.1. The `Y*` fields are optional here: a non-hosting see-thru gateway omits all of them (§2.2). */
export interface Properties {
  id: string;
  vendor: string;
  modelNumber: string;
  serialNumber: string;
  cpus?: Cpu[];
  memory?: string;
  storage?: string;
  peripherals?: Peripheral[];
  interfaces?: CommunicationInterface[];
  otelCollector?: boolean;
  /** Unknown values are allowed on the wire; the WFM defaults them to `custom` (§2.1.1). */
  supportedRuntimes?: (SupportedRuntime | string)[];
  supportedDeploymentTypes?: (SupportedDeploymentType | string)[];
}

export type LabelValue = string | number | boolean | string[] | number[];

/** §2.1: the body of PUT capabilities. `x-<name>-extensions` keys sit at the root. */
export interface DeviceCapabilities {
  properties: Properties;
  labels?: Record<string, LabelValue>;
  [extension: `x-${string}-extensions`]: Record<string, unknown>;
}

/** §2.3 */
export interface OnboardingRequest {
  apiVersion: string;
  kind: 'OnboardingRequest';
  certificate: string;
}
export interface OnboardingResponse {
  clientId: string;
}

/** §2.4 Error. Empty strings mean "no error" (P7). */
export interface StatusError {
  code: string;
  source: string;
  message: string;
}
export interface ComponentStatus {
  name: string;
  state: DeploymentState;
  error?: StatusError;
}
/** §2.4 with P7: `status` is one object. `apiVersion`/`kind` are sent by the kit (P7). */
export interface DeploymentStatusReport {
  apiVersion?: string;
  kind?: 'DeploymentStatusManifest';
  deploymentId: string;
  deviceId?: string;
  adoptedManifestVersion: number;
  status: { state: DeploymentState; error?: StatusError };
  components: ComponentStatus[];
}

/** §2.5 */
export interface DiscoveryDocument {
  trustDomain: string;
  trustBundleUri: string;
  [unknown: string]: unknown;
}

/** §2.6 A JWK entry of a SPIFFE bundle. */
export interface BundleJwk {
  kty: string;
  crv?: string;
  x?: string;
  y?: string;
  n?: string;
  e?: string;
  use?: string;
  kid?: string;
  x5c?: string[];
  [unknown: string]: unknown;
}
export interface TrustBundle {
  spiffe_sequence?: number;
  spiffe_refresh_hint?: number;
  keys: BundleJwk[];
  [unknown: string]: unknown;
}

/** OCI descriptor and image manifest (§2.7, OCI image-spec). */
export interface OciDescriptor {
  mediaType: string;
  digest: string;
  size: number;
  annotations?: Record<string, string>;
  artifactType?: string;
  data?: string;
}
export interface OciImageManifest {
  schemaVersion: 2;
  mediaType: 'application/vnd.oci.image.manifest.v1+json';
  artifactType?: string;
  config: OciDescriptor;
  layers: OciDescriptor[];
  subject?: OciDescriptor;
  annotations?: Record<string, string>;
}
/** §2.7 tag list document. */
export interface TagList {
  name: string;
  tags: string[];
}

/** P4: the state manifest a client polls. */
export interface StateManifest {
  manifestVersion: number;
  bundle: null | { mediaType: string; digest: string; sizeBytes?: number; url: string };
  deployments: { deploymentId: string; digest: string; sizeBytes?: number; url: string }[];
}

/** P4: the ApplicationDeployment YAML (fields the kit reads). */
export interface ApplicationDeployment {
  apiVersion: string;
  kind: 'ApplicationDeployment';
  metadata: {
    name: string;
    namespace?: string;
    deviceId?: string;
    annotations: { id: string; applicationId?: string; [k: string]: string | undefined };
  };
  spec: {
    deploymentProfile: {
      type: string;
      components: {
        name: string;
        properties: { repository: string; revision: string; wait?: boolean; timeout?: string; [k: string]: unknown };
      }[];
    };
    parameters?: Record<string, unknown>;
  };
}
