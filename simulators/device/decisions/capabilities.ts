// What the kit's device client decides about its capabilities (§2.1, §2.1.1, §2.2, §4.1, §4.2): the documents it
// sends, where and in what order. A faulty client replaces single decisions (simulators/faults/documents.ts, gateways.ts).
import type { DeviceCapabilities, Properties } from '../../../spec/types.ts';
import type { DeviceKind } from '../types.ts';

/** Which document is sent: of the client's own device (index 0), or of a device behind its see-thru gateway. */
export interface DocumentAt {
  index: number;
  kind: DeviceKind;
  /** An opaque gateway's children (what its document aggregates, §2.2). */
  children: readonly Properties[];
}

export interface CapabilitiesDecisions {
  /** §2.1: the document sent for the device `at` names, given the one the client describes. */
  capabilitiesDocument(doc: DeviceCapabilities, at: DocumentAt): DeviceCapabilities;
  /** §2.1: its first exchange is its capabilities; the desired state is polled only after. */
  sendsCapabilitiesFirst: boolean;
  /** §4.1: the deviceId of the capabilities path (the device `index` names). */
  capabilitiesPathId(deviceId: string, index: number): string;
  /** API JSON: the body of a capabilities PUT (the document as JSON when clean). */
  capabilitiesBody(doc: DeviceCapabilities): DeviceCapabilities | string;
  /** §2.1: a change of what it reports is sent again. */
  sendsChangedCapabilities: boolean;
  /** §2.2: the order its devices register in (a see-thru gateway first, then what is behind it). */
  registrationOrder<T>(devices: readonly T[]): T[];
  /** §2.2: what an opaque gateway registers beside its own document (nothing when clean). */
  alsoRegisters(
    gatewayId: string,
    doc: DeviceCapabilities,
    children: readonly { id: string; capabilities: DeviceCapabilities }[],
  ): { deviceId: string; doc: DeviceCapabilities }[];
  /** §4.2: the deviceId a DELETE names for a device that left the gateway. */
  deletePathId(deviceId: string): string;
  /** §4.2: a DELETE carries the departed device's last document (it sends no body when clean). */
  deleteCarriesDocument: boolean;
  /** §4.1-§4.4: after a 403 the client stops asking (the WFM's local policy refused it). */
  stopsAfter403: boolean;
}

export const cleanCapabilitiesDecisions: CapabilitiesDecisions = {
  capabilitiesDocument: (doc) => doc,
  sendsCapabilitiesFirst: true,
  capabilitiesPathId: (deviceId) => deviceId,
  capabilitiesBody: (doc) => doc,
  sendsChangedCapabilities: true,
  registrationOrder: (devices) => [...devices],
  alsoRegisters: () => [],
  deletePathId: (deviceId) => deviceId,
  deleteCarriesDocument: false,
  stopsAfter403: true,
};
