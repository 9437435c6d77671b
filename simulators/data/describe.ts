// Realistic, seeded device descriptions (issue 3): plain devices, see-thru gateways with hierarchical children,
// opaque gateways whose one document aggregates their children (§2.2). Valid by construction.
import type { Faker } from '@faker-js/faker';
import { aggregateOpaque } from '../../spec/rules/opaque-aggregation.ts';
import type { QuantityFormat } from '../../spec/rules/quantity.ts';
import type { DeviceCapabilities, LabelValue } from '../../spec/types.ts';
import type { DeviceDescription, DeviceMisbehaviour, DeviceKind } from '../device/types.ts';
import { withFaker } from './draw.ts';
import { deploymentTypes, hostingFields, identity } from './hardware.ts';
import { extensions, labels } from './labels.ts';

export { describeFleet, fleetLayout, kindAt, type FleetLayout } from './fleet.ts';
export { misbehaviourFor, FAULT_NAMES, type MisbehaviourMix, type MisbehaviourName } from './misbehaviour.ts';

export interface DescribeOptions {
  /** First part of every top-level id (default `wfmck`); RFC 3986 unreserved characters only. */
  idPrefix?: string;
  /** Children per gateway, and per intermediate see-thru gateway (default 2; an opaque gateway needs at least 1). */
  children?: number;
  /** See-thru levels below the gateway: 1 = `gw/child`, 2 = `gw/mid/leaf` (default 1). */
  depth?: number;
  /** A see-thru gateway (and its intermediates) reports the hosting fields (default false). */
  hostsWorkloads?: boolean;
  faults?: DeviceMisbehaviour;
  /** P8: "16 Gi" (default) or "16Gi". */
  quantityFormat?: QuantityFormat;
}

const KIND_TAG: Record<DeviceKind, string> = { plain: 'dev', 'see-thru-gateway': 'stg', 'opaque-gateway': 'ogw' };
/** What sits behind a gateway on a shop floor; the ordinal keeps sibling ids unique. */
const CHILD_ROLES = ['plc', 'cam', 'sensor', 'hmi', 'robot', 'scale', 'reader', 'drive'] as const;
const SEGMENT = /^[A-Za-z0-9._~-]+$/;

/**
 * How a description's capabilities document was made, to make it again: a fleet holding 100,000 devices drops each
 * document once sent and remakes it from this (~100 B) on the rare later read (a change, a restart). Deterministic,
 * like everything here: the same Faker seed path, the same draws in the same order.
 */
export class CapabilitiesRecipe {
  constructor(
    private readonly shape: 'hosting' | 'identity' | 'opaque',
    private readonly path: readonly number[],
    private readonly id: string,
    private readonly format: QuantityFormat,
    private readonly children = 0,
  ) {}

  make(): DeviceCapabilities {
    if (this.shape === 'opaque') return opaque([...this.path], this.id, this.children, this.format).capabilities;
    return withFaker(this.path, (faker) =>
      this.shape === 'hosting' ? hostingDocument(faker, this.id, this.format) : identityDocument(faker, this.id),
    );
  }
}

/** Only descriptions made here have one, and only as made: a caller that edits a document must not use it. */
const recipes = new WeakMap<DeviceDescription, CapabilitiesRecipe>();

export function capabilitiesRecipe(desc: DeviceDescription): CapabilitiesRecipe | undefined {
  return recipes.get(desc);
}

function withRecipe(desc: DeviceDescription, recipe: CapabilitiesRecipe | undefined): DeviceDescription {
  if (recipe) recipes.set(desc, recipe);
  return desc;
}

/** Deterministic in (seed, index, kind, opts) alone: each device and child has its own seeded Faker. */
export function describeDevice(seed: number, index: number, kind: DeviceKind, opts: DescribeOptions = {}): DeviceDescription {
  const prefix = opts.idPrefix ?? 'wfmck';
  const id = `${prefix ? `${prefix}-` : ''}${KIND_TAG[kind]}-${String(index).padStart(6, '0')}`;
  if (!SEGMENT.test(id))
    throw new RangeError(`describeDevice: idPrefix "${prefix}" makes "${id}", which is not one RFC 3986 unreserved segment`);
  const format = opts.quantityFormat ?? 'spaced';
  const faults = opts.faults ?? {};
  const path = [seed, index];
  const made =
    kind === 'plain'
      ? plainDevice(path, id, format)
      : kind === 'see-thru-gateway'
        ? seeThru(path, id, opts.depth ?? 1, opts.children ?? 2, opts.hostsWorkloads ?? false, format)
        : opaque(path, id, opts.children ?? 2, format);
  return withRecipe({ ...made, faults }, recipes.get(made));
}

function seeThru(path: number[], id: string, levels: number, children: number, hosts: boolean, format: QuantityFormat): DeviceDescription {
  return withFaker(path, (faker) => {
    const capabilities = hosts ? hostingDocument(faker, id, format) : identityDocument(faker, id);
    const kids = childIds(faker, id, levels < 1 ? 0 : children).map((childId, i) =>
      levels > 1 ? seeThru([...path, i + 1], childId, levels - 1, children, hosts, format) : plainDevice([...path, i + 1], childId, format),
    );
    const recipe = new CapabilitiesRecipe(hosts ? 'hosting' : 'identity', path, id, format);
    return withRecipe({ kind: 'see-thru-gateway', id, capabilities, children: kids, hostsWorkloads: hosts, faults: {} }, recipe);
  });
}

function opaque(path: number[], id: string, children: number, format: QuantityFormat): DeviceDescription {
  if (children < 1) throw new RangeError('describeDevice: an opaque gateway aggregates at least one child (§2.2)');
  // The gateway's Faker draws again after its children's (extensions): the children draw one level deeper.
  return withFaker(path, (faker) => {
    const gateway = { ...identity(faker, id), deploymentTypes: deploymentTypes(faker), labels: labels(faker) };
    const kids = childIds(faker, id, children).map((childId, i) => plainDevice([...path, i + 1], childId, format));
    const capabilities = aggregateOpaque(
      gateway,
      kids.map((k) => k.capabilities.properties),
      format,
    );
    Object.assign(capabilities, extensions(faker, gateway.vendor));
    const recipe = new CapabilitiesRecipe('opaque', path, id, format, children);
    return withRecipe({ kind: 'opaque-gateway', id, capabilities, children: kids, hostsWorkloads: true, faults: {} }, recipe);
  });
}

/** A device behind a gateway, or a plain device: always hosting, with its own seeded Faker. */
function plainDevice(path: number[], id: string, format: QuantityFormat): DeviceDescription {
  const capabilities = withFaker(path, (faker) => hostingDocument(faker, id, format));
  return withRecipe(
    { kind: 'plain', id, capabilities, hostsWorkloads: true, faults: {} },
    new CapabilitiesRecipe('hosting', path, id, format),
  );
}

function childIds(faker: Faker, parentId: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${parentId}/${faker.helpers.arrayElement(CHILD_ROLES)}-${i + 1}`);
}

function hostingDocument(faker: Faker, id: string, format: QuantityFormat): DeviceCapabilities {
  const properties = { ...identity(faker, id), ...hostingFields(faker, format) };
  // §2.1.1: `custom` MUST come with labels application suppliers can match on.
  const custom = [...properties.supportedRuntimes, ...properties.supportedDeploymentTypes].includes('custom');
  const labelled = faker.datatype.boolean(0.85) || custom;
  return finish(faker, { properties }, labelled ? labels(faker) : undefined);
}

/** §2.2: a see-thru gateway that hosts nothing sends the four identity fields only. */
function identityDocument(faker: Faker, id: string): DeviceCapabilities {
  const properties = identity(faker, id);
  return finish(faker, { properties }, faker.datatype.boolean(0.6) ? labels(faker) : undefined);
}

function finish(faker: Faker, doc: DeviceCapabilities, labelSet: Record<string, LabelValue> | undefined): DeviceCapabilities {
  if (labelSet) doc.labels = labelSet;
  if (faker.datatype.boolean(0.8)) Object.assign(doc, extensions(faker, doc.properties.vendor));
  return doc;
}
