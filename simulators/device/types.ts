// The contract between device descriptions (simulators/data), device machines (simulators/device, gateways)
// and the fleet runner (simulators/fleet). Descriptions are data; machines hold only compact live state.
import type { DeviceCapabilities } from '../../spec/types.ts';
import type { Exchange } from '../transport/types.ts';

export type DeviceKind = 'plain' | 'opaque-gateway' | 'see-thru-gateway';

/** Per-device misbehaviour knobs: what a misbehaving real device does, for QA fleets (not the faults of faults/catalog.yaml). */
export interface DeviceMisbehaviour {
  /** A container exits non-zero during startup: the deployment must be reported failed at once (§4.8 rule 2). */
  crashingContainer?: boolean;
  /** Health checks never pass: the device keeps `installing` until the component timeout, then `failed`. */
  unhealthyContainer?: boolean;
  /** Extra time spent in `installing`. */
  slowInstallMs?: number;
  /** A see-thru gateway cannot reach one child: reports carry reserved code 102 with the gateway as source. */
  unreachableChild?: boolean;
  /** The device loses local state once and resynchronises (§2.4.1 rule 6). */
  stateLoss?: boolean;
  /** Seconds added to the device clock (signature `created`, timestamps). */
  clockSkewSeconds?: number;
  /** Memory/storage changes every few polls, so capabilities are sent again (§2.1). */
  flappingCapabilities?: boolean;
}

export interface DeviceDescription {
  kind: DeviceKind;
  /** Full hierarchical deviceId (§2.1.1). */
  id: string;
  /** The document this device reports first (for an opaque gateway: already aggregated). */
  capabilities: DeviceCapabilities;
  /** See-thru gateway children (any depth), each with a hierarchical id under this one; opaque gateway children. */
  children?: DeviceDescription[];
  /** A see-thru gateway that hosts workloads reports the hosting fields; one that does not sends identity only (§2.2). */
  hostsWorkloads?: boolean;
  faults: DeviceMisbehaviour;
}

/** Endpoint names used in statistics and summaries. */
export type Endpoint =
  | 'certificate'
  | 'onboarding'
  | 'capabilities.put'
  | 'capabilities.delete'
  | 'desired-state'
  | 'deployment'
  | 'bundle'
  | 'status'
  | 'registry';

/** What a device tells its observer (the fleet runner, a suite). Kept small: fleets emit millions. */
export type DeviceEvent =
  | {
      type: 'response';
      deviceId: string;
      endpoint: Endpoint;
      status: number;
      latencyMs: number;
      expected: boolean;
      exchange?: Exchange;
      /** capabilities.put: the deviceId the document was for (the device itself, or a child behind its gateway). */
      subject?: string;
    }
  | { type: 'transport-error'; deviceId: string; endpoint: Endpoint; code: string; message: string; exchange?: Exchange }
  | { type: 'phase'; deviceId: string; phase: DevicePhase }
  | { type: 'deployment'; deviceId: string; deploymentId: string; state: string; adoptedManifestVersion: number };

/** §1 client sequence. `reporting` = capabilities accepted, polling desired state. */
export type DevicePhase = 'new' | 'ca-fetched' | 'onboarded' | 'reporting' | 'failed' | 'stopped';

export type DeviceObserver = (event: DeviceEvent) => void;

export interface SimulatedDevice {
  readonly id: string;
  readonly kind: DeviceKind;
  readonly phase: DevicePhase;
  readonly clientId: string | undefined;
  /** Root CA, onboarding, first capabilities (and, for a see-thru gateway, its children in order). */
  start(): Promise<void>;
  /** One cycle: poll desired state, adopt, apply, report; send capabilities again if they changed. */
  tick(): Promise<void>;
  /** A see-thru gateway's child goes away: DELETE its deviceId (§2.2). */
  stop(): Promise<void>;
}
