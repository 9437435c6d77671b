// §2.2 opaque gateway: one document that aggregates the children behind it, and the check of such a document.

import type { Cpu, DeviceCapabilities, LabelValue, Properties } from '../types.ts';
import { normalizeDeploymentTypes, normalizeRuntimes } from './capabilities.ts';
import { finding, type Finding } from './finding.ts';
import { parseQuantity, sumQuantities, type QuantityField, type QuantityFormat } from './quantity.ts';

export interface OpaqueGateway {
  id: string;
  vendor: string;
  modelNumber: string;
  serialNumber: string;
  /** "the deployment types the gateway can deploy" (§2.2): the gateway's own list, not the children's. */
  deploymentTypes: string[];
  /** A hosting device MUST report true (§2.1.1), so true unless told otherwise. */
  otelCollector?: boolean;
  labels?: Record<string, LabelValue>;
}

/**
 * §2.2 aggregation: one cpus entry per child CPU (children in order), memory and storage summed, interfaces added
 * (every entry kept), supportedRuntimes the union of the children's. The spec says nothing of peripherals:
 * they are concatenated like interfaces, the natural reading of "reports the aggregated resource fields".
 * Throws when a child's memory or storage does not parse (the children are the caller's own data).
 */
export function aggregateOpaque(
  gateway: OpaqueGateway,
  children: readonly Properties[],
  format: QuantityFormat = 'spaced',
): DeviceCapabilities {
  const properties: Properties = {
    id: gateway.id,
    vendor: gateway.vendor,
    modelNumber: gateway.modelNumber,
    serialNumber: gateway.serialNumber,
    cpus: children.flatMap((c) => (c.cpus ?? []).map((cpu) => ({ ...cpu }))),
    memory: sumField(children, 'memory', format),
    storage: sumField(children, 'storage', format),
    peripherals: children.flatMap((c) => (c.peripherals ?? []).map((p) => ({ ...p }))),
    interfaces: children.flatMap((c) => (c.interfaces ?? []).map((i) => ({ ...i }))),
    otelCollector: gateway.otelCollector ?? true,
    supportedRuntimes: [...new Set(children.flatMap((c) => c.supportedRuntimes ?? []))],
    supportedDeploymentTypes: [...gateway.deploymentTypes],
  };
  return gateway.labels ? { properties, labels: { ...gateway.labels } } : { properties };
}

/** A child without the field (an identity-only child) adds nothing. */
function sumField(children: readonly Properties[], field: QuantityField, format: QuantityFormat): string {
  return sumQuantities(
    children.flatMap((c) => (c[field] === undefined ? [] : [c[field]])),
    field,
    format,
  );
}

/** Judges a document from a device client that claims to be an opaque gateway over `children`. */
export function checkOpaqueAggregation(
  reported: DeviceCapabilities,
  children: readonly Properties[],
  gatewayDeploymentTypes: readonly string[],
): Finding[] {
  const props = reported.properties;
  return [
    ...cpuFindings(
      props.cpus ?? [],
      children.flatMap((c) => c.cpus ?? []),
    ),
    ...quantitySumFindings(props, children, 'memory'),
    ...quantitySumFindings(props, children, 'storage'),
    ...interfaceFindings(props, children),
    ...setFindings(
      'opaque-runtimes-union',
      'supportedRuntimes',
      normalizeRuntimes(props.supportedRuntimes ?? []),
      normalizeRuntimes(children.flatMap((c) => c.supportedRuntimes ?? [])),
      "the union of the children's runtimes",
    ),
    ...setFindings(
      'opaque-deployment-types-gateway',
      'supportedDeploymentTypes',
      normalizeDeploymentTypes(props.supportedDeploymentTypes ?? []),
      normalizeDeploymentTypes([...gatewayDeploymentTypes]),
      'the deployment types the gateway can deploy',
    ),
  ];
}

const cpuKey = (cpu: Cpu) => `${cpu.cores}@${cpu.architecture ?? '-'}`;

/** Entry order is not part of the rule, so entries compare as multisets. */
function cpuFindings(reported: readonly Cpu[], childCpus: readonly Cpu[]): Finding[] {
  if (sameMultiset(reported.map(cpuKey), childCpus.map(cpuKey))) return [];
  const summed = reported.length < childCpus.length ? ' (entries look merged or summed)' : '';
  return [
    finding(
      'opaque-cpus-one-per-child-cpu',
      `§2.2: an opaque gateway reports one cpus entry per child CPU: expected ${childCpus.length} entries [${childCpus.map(cpuKey).join(', ')}], got ${reported.length} [${reported.map(cpuKey).join(', ')}]${summed}`,
      '/properties/cpus',
    ),
  ];
}

function quantitySumFindings(props: Properties, children: readonly Properties[], field: QuantityField): Finding[] {
  const texts = children.flatMap((c) => (c[field] === undefined ? [] : [c[field]]));
  let expected = 0n;
  for (const text of texts) {
    const parsed = parseQuantity(text, field);
    if (parsed.ok) expected += parsed.bytes;
  }
  const got = props[field] === undefined ? undefined : parseQuantity(props[field], field);
  if (got?.ok && got.bytes === expected) return [];
  return [
    finding(
      `opaque-${field}-summed`,
      `§2.2: an opaque gateway reports the sum of its children's ${field} (${expected} bytes), got ${props[field] === undefined ? 'none' : `"${props[field]}"`}`,
      `/properties/${field}`,
    ),
  ];
}

function interfaceFindings(props: Properties, children: readonly Properties[]): Finding[] {
  const expected = children.flatMap((c) => (c.interfaces ?? []).map((i) => i.type));
  const got = (props.interfaces ?? []).map((i) => i.type);
  if (sameMultiset(got, expected)) return [];
  return [
    finding(
      'opaque-interfaces-added',
      `§2.2: an opaque gateway adds every child's interface entries: expected [${expected.join(', ')}], got [${got.join(', ')}]`,
      '/properties/interfaces',
    ),
  ];
}

function setFindings(rule: string, field: string, got: readonly string[], expected: readonly string[], what: string): Finding[] {
  const same = got.length === expected.length && expected.every((v) => got.includes(v));
  if (same) return [];
  return [
    finding(
      rule,
      `§2.2: an opaque gateway reports ${what} as ${field}: expected [${expected.join(', ')}], got [${got.join(', ')}]`,
      `/properties/${field}`,
    ),
  ];
}

function sameMultiset(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const sorted = (xs: readonly string[]) => JSON.stringify([...xs].sort());
  return sorted(a) === sorted(b);
}
