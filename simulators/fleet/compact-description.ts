// A device description as a fleet holds it for a device's whole life: the capabilities document kept as its JSON
// text (about half the heap of the object tree, measured by `npm run bench`) and parsed again on each read, which
// happens only when a document is sent. A description made by describeDevice hands its own document to the first
// read (the first PUT, moments after the fleet described it: no text made and parsed back, ~30 µs a device start)
// and makes the document again from its recipe on a later one: ~0.9 KB less per device, for ~0.2 ms of Faker on the
// rare read after the first (a change, a restart).
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
  /** Without a recipe: the text, for ever. */
  private readonly document: string | undefined;
  private readonly recipe: CapabilitiesRecipe | undefined;
  /** With one: the description's own document until the first read takes it. */
  private first: DeviceCapabilities | undefined;

  /** The fleet drops `desc` once it is compact: the first read may hand over its document as it is. */
  constructor(desc: DeviceDescription) {
    this.kind = desc.kind;
    this.id = desc.id;
    this.faults = Object.keys(desc.faults).length === 0 ? NO_FAULTS : desc.faults;
    this.hostsWorkloads = desc.hostsWorkloads;
    this.children = desc.children?.map(compactDescription);
    this.recipe = capabilitiesRecipe(desc);
    if (this.recipe) this.first = desc.capabilities;
    else this.document = JSON.stringify(desc.capabilities);
  }

  /** A different object on every read (the first one the description's own), so no reader shares one with the next. */
  get capabilities(): DeviceCapabilities {
    if (this.document !== undefined) return JSON.parse(this.document) as DeviceCapabilities;
    const first = this.first;
    if (first === undefined) return this.recipe!.make();
    this.first = undefined;
    return first;
  }
}

/** The same description, children included, in its compact form (already compact ones are kept as they are). */
export function compactDescription(desc: DeviceDescription): DeviceDescription {
  return desc instanceof CompactDescription ? desc : new CompactDescription(desc);
}
