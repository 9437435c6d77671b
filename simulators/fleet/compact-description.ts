// A device description as a fleet holds it for a device's whole life: the capabilities document kept as its JSON
// text (about half the heap of the object tree, measured by `npm run bench`) and parsed again on each read, which
// happens only when a document is sent. A description made by describeDevice drops even the text after its first
// read (the first PUT) and makes the document again from its recipe on a later one: ~0.9 KB less per device, for
// ~0.2 ms of Faker on the rare read after the first (a change, a restart).
import { capabilitiesRecipe, type CapabilitiesRecipe } from '../data/describe.ts';
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
  private document: string | undefined;
  private readonly recipe: CapabilitiesRecipe | undefined;

  constructor(desc: DeviceDescription) {
    this.kind = desc.kind;
    this.id = desc.id;
    this.faults = Object.keys(desc.faults).length === 0 ? NO_FAULTS : desc.faults;
    this.hostsWorkloads = desc.hostsWorkloads;
    this.children = desc.children?.map(compactDescription);
    this.document = JSON.stringify(desc.capabilities);
    this.recipe = capabilitiesRecipe(desc);
  }

  /** A fresh object on every read, so a caller that keeps or changes it shares nothing with the next one. */
  get capabilities(): DeviceCapabilities {
    if (this.document === undefined) return this.recipe!.make();
    const doc = JSON.parse(this.document) as DeviceCapabilities;
    if (this.recipe) this.document = undefined;
    return doc;
  }
}

/** The same description, children included, in its compact form (already compact ones are kept as they are). */
export function compactDescription(desc: DeviceDescription): DeviceDescription {
  return desc instanceof CompactDescription ? desc : new CompactDescription(desc);
}
