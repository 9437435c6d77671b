// Client faults: the kit's own device simulator breaking exactly one client rule, so the device persona can prove
// each of its checks fails. Each is consulted at one named seam of simulators/device (search for the id).
import type { Edition } from '../../spec/profile.ts';
import type { DeviceCapabilities } from '../../spec/types.ts';

export interface ClientFaultDefinition {
  /** The client requirement it breaks. */
  id: string;
  /** Requirement ids whose checks must fail against it (the first is `id`). */
  breaks: string[];
  description: string;
  /** The client kind the fault needs to show (default: any). */
  kind?: 'plain' | 'see-thru-gateway';
  /** The edition whose checks it breaks (default seed). */
  edition?: Edition;
}

/**
 * Faults of the capabilities document: each bends the client's own document so it breaks exactly one rule of §2.1
 * or §2.1.1 (applied in simulators/device/driver.ts, documentAt).
 */
export const DOCUMENT_FAULTS: Readonly<Record<string, { description: string; bend: (doc: DeviceCapabilities) => DeviceCapabilities }>> = {
  'CAP-PROPERTIES-REQUIRED': { description: 'sends a document without properties', bend: ({ properties: _p, ...rest }) => rest as DeviceCapabilities },
  'PROPS-IDENTITY-REQUIRED': { description: 'leaves serialNumber out', bend: (d) => ({ ...d, properties: omit(d.properties, 'serialNumber') as DeviceCapabilities['properties'] }) },
  'PROPS-STORAGE-FORMAT': { description: 'writes storage as "2TB"', bend: (d) => ({ ...d, properties: { ...d.properties, storage: '2TB' } }) },
  'CPU-CORES-REQUIRED': { description: 'reports a CPU with 0 cores', bend: (d) => ({ ...d, properties: { ...d.properties, cpus: [{ ...(d.properties.cpus?.[0] ?? {}), cores: 0 }] } }) },
  'ENUM-CPU-ARCH': { description: 'reports CPU architecture mips', bend: (d) => ({ ...d, properties: { ...d.properties, cpus: [{ cores: 2, ...(d.properties.cpus?.[0] ?? {}), architecture: 'mips' as never }] } }) },
  'PROPS-RUNTIMES-NONEMPTY': { description: 'a hosting document with an empty supportedRuntimes', bend: (d) => ({ ...d, properties: { ...d.properties, supportedRuntimes: [] } }) },
  'PROPS-DEPLOYTYPES-NONEMPTY': { description: 'a hosting document with an empty supportedDeploymentTypes', bend: (d) => ({ ...d, properties: { ...d.properties, supportedDeploymentTypes: [] } }) },
  'ENUM-CUSTOM-NEEDS-LABELS': { description: 'says runtime custom and sends no labels', bend: (d) => ({ ...omit(d, 'labels'), properties: { ...d.properties, supportedRuntimes: ['custom'] } }) },
  'CAP-LABELS-VALUE-TYPES': { description: 'sends a label whose value is an object', bend: (d) => ({ ...d, labels: { ...(d.labels ?? {}), 'example.com/rack': { row: 3 } as never } }) },
  'CAP-EXT-AT-ROOT': { description: 'sends its extensions block as a string', bend: (d) => ({ ...d, 'x-acme-extensions': 'firmware 1.2' as never }) },
  'PROPS-PERIPHERAL-TYPE-REQUIRED': { description: 'reports a peripheral without a type', bend: (d) => ({ ...d, properties: { ...d.properties, peripherals: [{ manufacturer: 'Acme', model: 'C1' } as never] } }) },
  'ENUM-PERIPHERAL-TYPE': { description: 'reports a peripheral of type lidar', bend: (d) => ({ ...d, properties: { ...d.properties, peripherals: [{ type: 'lidar' as never }] } }) },
  'PROPS-HOSTING-FIELDS': { description: 'a hosting document without memory', bend: (d) => ({ ...d, properties: omit(d.properties, 'memory') as DeviceCapabilities['properties'] }) },
  'PROPS-OTEL-HOSTING-TRUE': { description: 'a hosting document with otelCollector false', bend: (d) => ({ ...d, properties: { ...d.properties, otelCollector: false } }) },
  'PROPS-INTERFACE-TYPE-REQUIRED': { description: 'reports a network interface without a type', bend: (d) => ({ ...d, properties: { ...d.properties, interfaces: [{ name: 'eth0' } as never] } }) },
  'ENUM-INTERFACE-TYPE': { description: 'reports a network interface of type zigbee', bend: (d) => ({ ...d, properties: { ...d.properties, interfaces: [{ type: 'zigbee' } as never] } }) },
};

function omit<T extends object, K extends keyof T>(o: T, key: K): Omit<T, K> {
  const { [key]: _dropped, ...rest } = o;
  return rest;
}

export const CLIENT_FAULTS: readonly ClientFaultDefinition[] = Object.freeze([
  ...Object.entries(DOCUMENT_FAULTS).map(([id, f]) => ({ id, breaks: [id], description: f.description })),
  { id: 'CAP-FIRST-EXCHANGE', breaks: ['CAP-FIRST-EXCHANGE'], description: 'polls the desired state before its first capabilities' },
  { id: 'SIG-DEVICE-API-SIGNED', breaks: ['SIG-DEVICE-API-SIGNED'], description: 'sends Device API requests after onboarding without a signature' },
  { id: 'PROPS-MEMORY-FORMAT', breaks: ['PROPS-MEMORY-FORMAT'], description: 'writes memory as "16GB" (no binary unit)' },
  { id: 'GW-ORDER-GATEWAY-FIRST', breaks: ['GW-ORDER-GATEWAY-FIRST'], description: 'a see-thru gateway registers its children before itself', kind: 'see-thru-gateway' },
  { id: 'STATUS-COMPONENTS-ONE-PER', breaks: ['STATUS-COMPONENTS-ONE-PER'], description: 'status reports list one component that the deployment does not have' },
  { id: 'ONB-SIGNED', breaks: ['ONB-SIGNED'], description: 'onboards without an HTTP message signature' },
  { id: 'API-JSON-REQUESTS', breaks: ['API-JSON-REQUESTS'], description: 'sends its capabilities as YAML' },
  { id: 'CAP-DEVICEID-GRAMMAR', breaks: ['CAP-DEVICEID-GRAMMAR'], description: 'puts a space into the deviceId of its capabilities path' },
  { id: 'COMPOSE-VALIDATE-BEFORE-EXTRACT', breaks: ['COMPOSE-VALIDATE-BEFORE-EXTRACT'], description: 'extracts and runs a compose archive whatever §2.7 rule it breaks (traversal, absolute path, link out, setuid, two top-level directories)' },
  { id: 'COMPOSE-CLIENT-REJECTS-OTHER-NAMES', breaks: ['COMPOSE-CLIENT-REJECTS-OTHER-NAMES'], description: 'takes docker-compose.yml for compose.yaml' },
  { id: 'COMPOSE-TOP-DIR-NOT-FOR-DISCOVERY', breaks: ['COMPOSE-TOP-DIR-NOT-FOR-DISCOVERY'], description: 'looks for compose.yaml under a directory named after the component, so an archive whose top-level directory has another name fails' },
  { id: 'COMPOSE-VERIFY-DIGEST', breaks: ['COMPOSE-VERIFY-DIGEST'], description: 'extracts a compose blob without checking that its bytes hash to the layer digest' },
  { id: 'STATUS-REPORT-WHILE-APPLYING', breaks: ['STATUS-REPORT-WHILE-APPLYING'], description: 'applies deployments without ever reporting their status' },
  { id: 'AMV-NO-RESERVED-VALUE', breaks: ['AMV-NO-RESERVED-VALUE'], description: 'its first report of a deployment says adoptedManifestVersion 0 ("none before")' },
  { id: 'STATUS-ERROR-SOURCE-COMPONENT', breaks: ['STATUS-ERROR-SOURCE-COMPONENT'], description: 'a component\'s error names the device, not the component, as its source' },
  { id: 'GW-HOSTING-FULL-DOCUMENT', breaks: ['GW-HOSTING-FULL-DOCUMENT'], description: 'a hosting see-thru gateway leaves supportedRuntimes out of its own document', kind: 'see-thru-gateway' },
  { id: 'GW-OPAQUE-CHILDREN-HIDDEN', breaks: ['GW-OPAQUE-CHILDREN-HIDDEN'], description: 'an opaque gateway also registers one of its children' },
  { id: 'MIAF-CLIENT-SVID', breaks: ['MIAF-CLIENT-SVID'], description: 'connects without presenting its X.509-SVID', edition: 'miaf' },
  { id: 'MIAF-CLIENT-CHECKS-SERVER-ID', breaks: ['MIAF-CLIENT-CHECKS-SERVER-ID'], description: 'talks to any server whose certificate chains to the bundle, whatever its SPIFFE ID', edition: 'miaf' },
  { id: 'ONB-KIND', breaks: ['ONB-KIND'], description: 'onboards with kind Onboarding' },
  { id: 'ONB-APIVERSION-REQUIRED', breaks: ['ONB-APIVERSION-REQUIRED'], description: 'onboards without apiVersion' },
  { id: 'ONB-CERT-BASE64', breaks: ['ONB-CERT-BASE64'], description: 'onboards with its certificate\'s DER as hex, not base64' },
  { id: 'SIG-KEYID', breaks: ['SIG-KEYID'], description: 'signs with a keyid that is the SHA-1, not the SHA-256, of its certificate' },
  { id: 'STATUS-STATE-VALUES', breaks: ['STATUS-STATE-VALUES'], description: 'writes the installed state as "done"' },
  { id: 'STATUS-DEVICEID-CHILD', breaks: ['STATUS-DEVICEID-CHILD'], description: 'reports for a device behind the gateway name only its last segment', kind: 'see-thru-gateway' },
  { id: 'AMV-INDEPENDENT-OF-OUTCOME', breaks: ['AMV-INDEPENDENT-OF-OUTCOME'], description: 'a failed deployment reports the manifest version before the one it failed to apply' },
  { id: 'STATUS-DEPLOYMENTID-REQUIRED', breaks: ['STATUS-DEPLOYMENTID-REQUIRED'], description: 'status reports leave deploymentId out' },
  { id: 'STATUS-STATUS-REQUIRED', breaks: ['STATUS-STATUS-REQUIRED'], description: 'status reports leave status out' },
  { id: 'STATUS-PRECEDENCE', breaks: ['STATUS-PRECEDENCE', 'STATUS-LIFE-EACH-REPORT'], description: 'the overall state is installed from the first report on, whatever the components say' },
]);

export type ClientFaultId = string;
export type ActiveClientFaults = ReadonlySet<string>;
export const NO_CLIENT_FAULTS: ActiveClientFaults = new Set();

/** The set of ids, each known (an unknown id is an error that lists the known ones). */
export function activeClientFaults(ids: readonly string[]): ActiveClientFaults {
  for (const id of ids) {
    if (!CLIENT_FAULTS.some((f) => f.id === id)) throw new Error(`unknown client fault "${id}" (known: ${CLIENT_FAULTS.map((f) => f.id).join(', ')})`);
  }
  return new Set(ids);
}

/** The client faults as the catch-rate harness and the reports list them beside the services' faults. */
export const CLIENT_FAULT_ENTRIES = Object.freeze(CLIENT_FAULTS.map((f) => ({ id: f.id, service: 'client' as const, breaks: f.breaks, description: f.description, ...(f.edition && { edition: f.edition }) })));
