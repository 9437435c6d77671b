// Client faults of the capabilities document (§2.1, §2.1.1, §2.2): each bends the document the client sends one way,
// so it breaks exactly one rule (decision capabilitiesDocument, simulators/device/decisions/capabilities.ts).
import { SUPPORTED_DEPLOYMENT_TYPES, type DeviceCapabilities, type Properties } from '../../spec/types.ts';
import type { DocumentAt } from '../device/decisions/index.ts';
import type { ClientFaultImplementation, ClientFaultTable } from './types.ts';

/** A client that sends `bend(doc)` for the documents `at` picks, and the clean one for the others. */
function bending(
  picks: (at: DocumentAt, doc: DeviceCapabilities) => boolean,
  bend: (doc: DeviceCapabilities, at: DocumentAt) => DeviceCapabilities,
): ClientFaultImplementation {
  return (base) => ({ capabilitiesDocument: (doc, at) => (picks(at, doc) ? bend(doc, at) : base.capabilitiesDocument(doc, at)) });
}

/** Its own device's document (not one of a device behind its see-thru gateway). */
const own = (bend: (doc: DeviceCapabilities) => DeviceCapabilities) => bending((at) => at.index === 0, bend);
/** An opaque gateway's aggregate, given the properties of its children (§2.2). */
const aggregate = (bend: (doc: DeviceCapabilities, children: readonly Properties[]) => DeviceCapabilities) =>
  bending(
    (at) => at.kind === 'opaque-gateway',
    (doc, at) => bend(doc, at.children),
  );
/** A see-thru gateway's own document. */
const seeThruGateway = (bend: (doc: DeviceCapabilities) => DeviceCapabilities) =>
  bending((at) => at.index === 0 && at.kind === 'see-thru-gateway', bend);
/** The document of a device behind a see-thru gateway. */
const behindGateway = (bend: (doc: DeviceCapabilities) => DeviceCapabilities) => bending((at) => at.index > 0, bend);

function omit<T extends object, K extends keyof T>(o: T, key: K): Omit<T, K> {
  const { [key]: _dropped, ...rest } = o;
  return rest;
}

export const implementations: ClientFaultTable = {
  'CAP-PROPERTIES-REQUIRED': own(({ properties: _p, ...rest }) => rest as DeviceCapabilities),
  'PROPS-IDENTITY-REQUIRED': own((d) => ({ ...d, properties: omit(d.properties, 'serialNumber') as DeviceCapabilities['properties'] })),
  'PROPS-STORAGE-FORMAT': own((d) => ({ ...d, properties: { ...d.properties, storage: '2TB' } })),
  'CPU-CORES-REQUIRED': own((d) => ({ ...d, properties: { ...d.properties, cpus: [{ ...(d.properties.cpus?.[0] ?? {}), cores: 0 }] } })),
  'ENUM-CPU-ARCH': own((d) => ({
    ...d,
    properties: { ...d.properties, cpus: [{ cores: 2, ...(d.properties.cpus?.[0] ?? {}), architecture: 'mips' as never }] },
  })),
  'PROPS-RUNTIMES-NONEMPTY': own((d) => ({ ...d, properties: { ...d.properties, supportedRuntimes: [] } })),
  'PROPS-DEPLOYTYPES-NONEMPTY': own((d) => ({ ...d, properties: { ...d.properties, supportedDeploymentTypes: [] } })),
  'ENUM-CUSTOM-NEEDS-LABELS': own((d) => ({ ...omit(d, 'labels'), properties: { ...d.properties, supportedRuntimes: ['custom'] } })),
  'CAP-LABELS-VALUE-TYPES': own((d) => ({ ...d, labels: { ...(d.labels ?? {}), 'example.com/rack': { row: 3 } as never } })),
  'CAP-EXT-AT-ROOT': own((d) => ({ ...d, 'x-acme-extensions': 'firmware 1.2' as never })),
  'PROPS-PERIPHERAL-TYPE-REQUIRED': own((d) => ({
    ...d,
    properties: { ...d.properties, peripherals: [{ manufacturer: 'Acme', model: 'C1' } as never] },
  })),
  'ENUM-PERIPHERAL-TYPE': own((d) => ({ ...d, properties: { ...d.properties, peripherals: [{ type: 'lidar' as never }] } })),
  'PROPS-HOSTING-FIELDS': own((d) => ({ ...d, properties: omit(d.properties, 'memory') as DeviceCapabilities['properties'] })),
  'PROPS-OTEL-HOSTING-TRUE': own((d) => ({ ...d, properties: { ...d.properties, otelCollector: false } })),
  'PROPS-INTERFACE-TYPE-REQUIRED': own((d) => ({ ...d, properties: { ...d.properties, interfaces: [{ name: 'eth0' } as never] } })),
  'ENUM-INTERFACE-TYPE': own((d) => ({ ...d, properties: { ...d.properties, interfaces: [{ type: 'zigbee' } as never] } })),
  'ENUM-RUNTIME-VALUES': own((d) => ({ ...d, properties: { ...d.properties, supportedRuntimes: ['podman' as never] } })),
  'ENUM-DEPLOYTYPE-VALUES': own((d) => ({ ...d, properties: { ...d.properties, supportedDeploymentTypes: ['helm.v3' as never] } })),
  'CAP-LABELS-DOMAIN-PREFIX': own((d) => ({ ...d, labels: { ...(d.labels ?? {}), tier: 'edge' } })),
  'PROPS-ID-CHARSET': own((d) => ({ ...d, properties: { ...d.properties, id: `${d.properties.id} 2` } })),
  // The seed edition's habit of apiVersion and kind at the root, which the closed rc.3 root refuses.
  'MIAF-CLIENT-CAP-ROOT-CLOSED': own((d) => ({ apiVersion: 'wfm.margo.org/v1', kind: 'DeviceCapabilities', ...d }) as DeviceCapabilities),
  // An opaque gateway's aggregate (§2.2): each breaks one aggregation rule, whatever the children (the kit's opaque
  // gateway has two, each with CPUs, memory, storage and interfaces).
  'GW-OPAQUE-AGG-CPUS': aggregate((d) => ({
    ...d,
    properties: {
      ...d.properties,
      cpus: [{ ...d.properties.cpus?.[0], cores: (d.properties.cpus ?? []).reduce((n, c) => n + c.cores, 0) }],
    },
  })),
  'GW-OPAQUE-AGG-MEMORY': aggregate((d, children) => ({ ...d, properties: { ...d.properties, memory: children[0]!.memory! } })),
  'GW-OPAQUE-AGG-STORAGE': aggregate((d, children) => ({ ...d, properties: { ...d.properties, storage: children[0]!.storage! } })),
  'GW-OPAQUE-AGG-INTERFACES': aggregate((d, children) => ({
    ...d,
    properties: { ...d.properties, interfaces: [...(children[0]!.interfaces ?? [])] },
  })),
  // Both runtimes when the children share one, oci alone when they have both.
  'GW-OPAQUE-AGG-RUNTIMES': aggregate((d) => ({
    ...d,
    properties: { ...d.properties, supportedRuntimes: (d.properties.supportedRuntimes ?? []).length > 1 ? ['oci'] : ['oci', 'custom'] },
  })),
  // A deployment type it cannot deploy added (one dropped when it can deploy all three).
  'GW-OPAQUE-AGG-DEPLOYTYPES': aggregate((d) => {
    const types = d.properties.supportedDeploymentTypes ?? [];
    const missing = SUPPORTED_DEPLOYMENT_TYPES.find((t) => !types.includes(t));
    return { ...d, properties: { ...d.properties, supportedDeploymentTypes: missing ? [...types, missing] : types.slice(1) } };
  }),
  // The see-thru gateway's own document and those behind it (§2.2).
  'GW-HOSTING-FULL-DOCUMENT': seeThruGateway((d) => ({
    ...d,
    properties: omit(d.properties, 'supportedRuntimes') as DeviceCapabilities['properties'],
  })),
  // Identity plus memory and storage: some hosting fields, not all.
  'GW-NONHOSTING-IDENTITY-ONLY': seeThruGateway((d) => {
    const { cpus: _c, supportedRuntimes: _r, supportedDeploymentTypes: _t, ...properties } = d.properties;
    return { ...d, properties: { memory: '4 Gi', storage: '32 Gi', ...properties } };
  }),
  'GW-SEETHRU-SAME-SCHEMA': behindGateway(({ properties, ...rest }) => ({ ...rest, device: properties }) as never),
  'PROPS-ID-HIERARCHY': behindGateway((d) => ({ ...d, properties: { ...d.properties, id: d.properties.id.split('/').at(-1)! } })),
  // Memory in decimal gigabytes, a unit §2.1.1 does not have.
  'PROPS-MEMORY-FORMAT': bending(
    (_at, doc) => doc.properties.memory !== undefined,
    (d) => ({ ...d, properties: { ...d.properties, memory: '16GB' } }),
  ),
};
