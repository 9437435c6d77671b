// A device description as a fleet holds it for a device's whole life: the capabilities document kept as its JSON
// text (about half the heap of the object tree, measured by `npm run bench`) and parsed again on each read, which
// happens only when a document is sent or a deployment placed.
import type { DeviceCapabilities } from '../../spec/types.ts';
import type { DeviceDescription, DeviceMisbehaviour, DeviceKind } from '../device/types.ts';

/** Most devices have no fault: they all share one frozen empty set. */
const NO_FAULTS: DeviceMisbehaviour = Object.freeze({});

class CompactDescription implements DeviceDescription {
  readonly kind: DeviceKind;
  readonly id: string;
  readonly faults: DeviceMisbehaviour;
  readonly hostsWorkloads: boolean | undefined;
  readonly children: DeviceDescription[] | undefined;
  private readonly document: string;

  constructor(desc: DeviceDescription) {
    this.kind = desc.kind;
    this.id = desc.id;
    this.faults = Object.keys(desc.faults).length === 0 ? NO_FAULTS : desc.faults;
    this.hostsWorkloads = desc.hostsWorkloads;
    this.children = desc.children?.map(compactDescription);
    this.document = JSON.stringify(desc.capabilities);
  }

  /** A fresh object on every read, so a caller that keeps or changes it shares nothing with the next one. */
  get capabilities(): DeviceCapabilities {
    return JSON.parse(this.document) as DeviceCapabilities;
  }
}

/** The same description, children included, in its compact form (already compact ones are kept as they are). */
export function compactDescription(desc: DeviceDescription): DeviceDescription {
  return desc instanceof CompactDescription ? desc : new CompactDescription(desc);
}
