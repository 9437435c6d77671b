// Client faults: the kit's own device simulator breaking exactly one client rule, so the device persona can prove
// each of its checks fails. Each is consulted at one named seam of simulators/device (search for the id).
import type { Edition } from '../../spec/profile.ts';
import { SUPPORTED_DEPLOYMENT_TYPES, type DeviceCapabilities, type Properties } from '../../spec/types.ts';

export interface ClientFaultDefinition {
  /** The client requirement it breaks. */
  id: string;
  /** Requirement ids whose checks must fail against it (the first is `id`). */
  breaks: string[];
  description: string;
  /** The client kind the fault needs to show (default: any). */
  kind?: 'plain' | 'see-thru-gateway' | 'opaque-gateway';
  /** The edition whose checks it breaks (default seed). */
  edition?: Edition;
}

/**
 * Faults of the capabilities document: each bends the client's own document so it breaks exactly one rule of §2.1
 * or §2.1.1 (applied in simulators/device/driver.ts, documentAt).
 */
export const DOCUMENT_FAULTS: Readonly<Record<string, { description: string; bend: (doc: DeviceCapabilities) => DeviceCapabilities; edition?: Edition }>> = {
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
  'ENUM-RUNTIME-VALUES': { description: 'says runtime podman, a value §2.1.1 does not list', bend: (d) => ({ ...d, properties: { ...d.properties, supportedRuntimes: ['podman' as never] } }) },
  'ENUM-DEPLOYTYPE-VALUES': { description: 'says deployment type helm.v3, the deployment-profile spelling, not a §2.1.1 value', bend: (d) => ({ ...d, properties: { ...d.properties, supportedDeploymentTypes: ['helm.v3' as never] } }) },
  'CAP-LABELS-DOMAIN-PREFIX': { description: 'adds a label key without an organization domain (tier)', bend: (d) => ({ ...d, labels: { ...(d.labels ?? {}), tier: 'edge' } }) },
  'PROPS-ID-CHARSET': { description: 'writes its properties.id with a space in it', bend: (d) => ({ ...d, properties: { ...d.properties, id: `${d.properties.id} 2` } }) },
  'MIAF-CLIENT-CAP-ROOT-CLOSED': { description: 'keeps the seed edition\'s habit of apiVersion and kind at the root of its document', bend: (d) => ({ apiVersion: 'wfm.margo.org/v1', kind: 'DeviceCapabilities', ...d }) as DeviceCapabilities, edition: 'miaf' },
};

/**
 * Faults of an opaque gateway's aggregate (§2.2): each bends the one document so it breaks exactly one aggregation
 * rule, whatever the children (the kit's opaque gateway has two, each with CPUs, memory, storage and interfaces).
 */
export const OPAQUE_FAULTS: Readonly<Record<string, { description: string; bend: (doc: DeviceCapabilities, children: readonly Properties[]) => DeviceCapabilities }>> = {
  'GW-OPAQUE-AGG-CPUS': {
    description: 'merges its children\'s CPUs into one cpus entry, cores summed',
    bend: (d) => ({ ...d, properties: { ...d.properties, cpus: [{ ...d.properties.cpus?.[0], cores: (d.properties.cpus ?? []).reduce((n, c) => n + c.cores, 0) }] } }),
  },
  'GW-OPAQUE-AGG-MEMORY': { description: 'reports its first child\'s memory, not the sum', bend: (d, children) => ({ ...d, properties: { ...d.properties, memory: children[0]!.memory! } }) },
  'GW-OPAQUE-AGG-STORAGE': { description: 'reports its first child\'s storage, not the sum', bend: (d, children) => ({ ...d, properties: { ...d.properties, storage: children[0]!.storage! } }) },
  'GW-OPAQUE-AGG-INTERFACES': { description: 'reports its first child\'s interfaces only', bend: (d, children) => ({ ...d, properties: { ...d.properties, interfaces: [...(children[0]!.interfaces ?? [])] } }) },
  'GW-OPAQUE-AGG-RUNTIMES': {
    description: 'reports a runtime set of its own, not its children\'s union (both runtimes when they share one, oci alone when they have both)',
    bend: (d) => ({ ...d, properties: { ...d.properties, supportedRuntimes: (d.properties.supportedRuntimes ?? []).length > 1 ? ['oci'] : ['oci', 'custom'] } }),
  },
  'GW-OPAQUE-AGG-DEPLOYTYPES': {
    description: 'adds a deployment type it cannot deploy (drops one when it can deploy all three)',
    bend: (d) => {
      const own = d.properties.supportedDeploymentTypes ?? [];
      const missing = SUPPORTED_DEPLOYMENT_TYPES.find((t) => !own.includes(t));
      return { ...d, properties: { ...d.properties, supportedDeploymentTypes: missing ? [...own, missing] : own.slice(1) } };
    },
  },
};

function omit<T extends object, K extends keyof T>(o: T, key: K): Omit<T, K> {
  const { [key]: _dropped, ...rest } = o;
  return rest;
}

const ONE_EDITION_FAULTS: readonly ClientFaultDefinition[] = [
  ...Object.entries(DOCUMENT_FAULTS).map(([id, f]) => ({ id, breaks: [id], description: f.description, ...(f.edition && { edition: f.edition }) })),
  ...Object.entries(OPAQUE_FAULTS).map(([id, f]) => ({ id, breaks: [id], description: f.description, kind: 'opaque-gateway' as const })),
  { id: 'CAP-FIRST-EXCHANGE', breaks: ['CAP-FIRST-EXCHANGE'], description: 'polls the desired state before its first capabilities' },
  { id: 'SIG-DEVICE-API-SIGNED', breaks: ['SIG-DEVICE-API-SIGNED', 'SIG-CONTENT-DIGEST'], description: 'sends Device API requests after onboarding without a signature (so without the Content-Digest signing adds)' },
  { id: 'SIG-CONTENT-DIGEST', breaks: ['SIG-CONTENT-DIGEST'], description: 'signs requests with a body but sends no Content-Digest (nor covers one)' },
  { id: 'SIG-COVERED-COMPONENTS', breaks: ['SIG-COVERED-COMPONENTS'], description: 'its signatures cover @method but not @target-uri' },
  { id: 'PROPS-MEMORY-FORMAT', breaks: ['PROPS-MEMORY-FORMAT'], description: 'writes memory as "16GB" (no binary unit)' },
  { id: 'GW-SEETHRU-DELETE-CHILD', breaks: ['GW-SEETHRU-DELETE-CHILD'], description: 'DELETEs a device that left the gateway by its last id segment, not its full deviceId', kind: 'see-thru-gateway' },
  { id: 'CAP-DELETE-NO-BODY', breaks: ['CAP-DELETE-NO-BODY'], description: 'sends the departed device\'s last capabilities document as the body of its DELETE', kind: 'see-thru-gateway' },
  { id: 'PROPS-ID-HIERARCHY', breaks: ['PROPS-ID-HIERARCHY', 'GW-SEETHRU-ONE-PUT-PER-DEVICE'], description: 'a device behind the gateway writes only its last id segment as properties.id (the path keeps the full id)', kind: 'see-thru-gateway' },
  { id: 'GW-NONHOSTING-IDENTITY-ONLY', breaks: ['GW-NONHOSTING-IDENTITY-ONLY'], description: 'a see-thru gateway\'s own document has its identity plus memory and storage: some hosting fields, not all', kind: 'see-thru-gateway' },
  { id: 'GW-SEETHRU-SAME-SCHEMA', breaks: ['GW-SEETHRU-SAME-SCHEMA'], description: 'a device behind the gateway sends its properties under the key device, not a DeviceCapabilities', kind: 'see-thru-gateway' },
  { id: 'GW-SEETHRU-PATH-HIERARCHY', breaks: ['GW-SEETHRU-PATH-HIERARCHY'], description: 'a device behind the gateway is registered under <gateway>/devices/<device>, a level that was never registered', kind: 'see-thru-gateway' },
  { id: 'GW-OPAQUE-ONE-DOCUMENT', breaks: ['GW-OPAQUE-ONE-DOCUMENT'], description: 'an opaque gateway also registers its document under an alias deviceId <id>-hub' },
  { id: 'GW-ORDER-GATEWAY-FIRST', breaks: ['GW-ORDER-GATEWAY-FIRST', 'GW-SEETHRU-PATH-HIERARCHY'], description: 'a see-thru gateway registers its children before itself (refused, it never gets to register the gateway, so its children sit under an unregistered level)', kind: 'see-thru-gateway' },
  { id: 'STATUS-COMPONENTS-ONE-PER', breaks: ['STATUS-COMPONENTS-ONE-PER'], description: 'status reports list one component that the deployment does not have' },
  { id: 'ONB-SIGNED', breaks: ['ONB-SIGNED'], description: 'onboards without an HTTP message signature' },
  { id: 'API-JSON-REQUESTS', breaks: ['API-JSON-REQUESTS'], description: 'sends its capabilities as YAML' },
  { id: 'CAP-DEVICEID-GRAMMAR', breaks: ['CAP-DEVICEID-GRAMMAR'], description: 'puts a space into the deviceId of its capabilities path' },
  { id: 'COMPOSE-VALIDATE-BEFORE-EXTRACT', breaks: ['COMPOSE-VALIDATE-BEFORE-EXTRACT'], description: 'extracts and runs a compose archive whatever §2.7 rule it breaks (traversal, absolute path, link out, setuid, two top-level directories)' },
  { id: 'COMPOSE-CLIENT-REJECTS-OTHER-NAMES', breaks: ['COMPOSE-CLIENT-REJECTS-OTHER-NAMES'], description: 'takes docker-compose.yml for compose.yaml' },
  { id: 'COMPOSE-TOP-DIR-NOT-FOR-DISCOVERY', breaks: ['COMPOSE-TOP-DIR-NOT-FOR-DISCOVERY'], description: 'looks for compose.yaml under a directory named after the component, so an archive whose top-level directory has another name fails' },
  { id: 'COMPOSE-DISCOVERY', breaks: ['COMPOSE-DISCOVERY'], description: 'looks for compose.yaml at the root of the archive, never in its top-level directory' },
  { id: 'COMPOSE-SUBDIRS-ALLOWED', breaks: ['COMPOSE-SUBDIRS-ALLOWED'], description: 'refuses an archive with directories below its top-level one' },
  { id: 'COMPOSE-VERIFY-DIGEST', breaks: ['COMPOSE-VERIFY-DIGEST'], description: 'extracts a compose blob without checking that its bytes hash to the layer digest' },
  { id: 'STATUS-REPORT-WHILE-APPLYING', breaks: ['STATUS-REPORT-WHILE-APPLYING'], description: 'applies deployments without ever reporting their status' },
  { id: 'AMV-NO-RESERVED-VALUE', breaks: ['AMV-NO-RESERVED-VALUE'], description: 'its first report of a deployment says adoptedManifestVersion 0 ("none before")' },
  { id: 'STATUS-ERROR-SOURCE-COMPONENT', breaks: ['STATUS-ERROR-SOURCE-COMPONENT'], description: 'a component\'s error names the device, not the component, as its source' },
  { id: 'GW-HOSTING-FULL-DOCUMENT', breaks: ['GW-HOSTING-FULL-DOCUMENT'], description: 'a hosting see-thru gateway leaves supportedRuntimes out of its own document', kind: 'see-thru-gateway' },
  { id: 'GW-OPAQUE-CHILDREN-HIDDEN', breaks: ['GW-OPAQUE-CHILDREN-HIDDEN'], description: 'an opaque gateway also registers one of its children' },
  { id: 'MIAF-CLIENT-SVID', breaks: ['MIAF-CLIENT-SVID'], description: 'connects without presenting its X.509-SVID', edition: 'miaf' },
  { id: 'MIAF-CLIENT-CHECKS-SERVER-ID', breaks: ['MIAF-CLIENT-CHECKS-SERVER-ID'], description: 'talks to any server whose certificate chains to the bundle, whatever its SPIFFE ID', edition: 'miaf' },
  { id: 'MIAF-CLIENT-CHECKS-SERVER-ID:trust-domain', breaks: ['MIAF-CLIENT-CHECKS-SERVER-ID'], description: 'compares the path of the server\'s SPIFFE ID, not its trust domain', edition: 'miaf' },
  { id: 'MIAF-CLIENT-CHECKS-SERVER-ID:first-uri', breaks: ['MIAF-CLIENT-CHECKS-SERVER-ID'], description: 'takes the first of several URI SANs for the server\'s SPIFFE ID', edition: 'miaf' },
  { id: 'MIAF-CLIENT-VERIFIES-SERVER-SVID', breaks: ['MIAF-CLIENT-VERIFIES-SERVER-SVID'], description: 'never reads basicConstraints: a CA certificate naming the WFM passes as its SVID', edition: 'miaf' },
  { id: 'MIAF-CLIENT-VERIFIES-SERVER-SVID:expired', breaks: ['MIAF-CLIENT-VERIFIES-SERVER-SVID'], description: 'goes on with a server chain its TLS stack refuses (an expired SVID)', edition: 'miaf' },
  { id: 'MIAF-CLIENT-TLS13-HTTP11', breaks: ['MIAF-CLIENT-TLS13-HTTP11'], description: 'offers TLS 1.2 at most, though its WFM offers 1.3', edition: 'miaf' },
  { id: 'CLIENT-403-NOT-REPEATED', breaks: ['CLIENT-403-NOT-REPEATED'], description: 'after a 403 it goes on polling and reporting as if it had not come' },
  { id: 'ONB-KIND', breaks: ['ONB-KIND'], description: 'onboards with kind Onboarding' },
  { id: 'ONB-APIVERSION-REQUIRED', breaks: ['ONB-APIVERSION-REQUIRED'], description: 'onboards without apiVersion' },
  { id: 'ONB-CERT-BASE64', breaks: ['ONB-CERT-BASE64'], description: 'onboards with its certificate\'s DER as hex, not base64' },
  { id: 'SIG-KEYID', breaks: ['SIG-KEYID'], description: 'signs with a keyid that is the SHA-1, not the SHA-256, of its certificate' },
  { id: 'STATUS-STATE-VALUES', breaks: ['STATUS-STATE-VALUES'], description: 'writes the installed state as "done"' },
  { id: 'STATUS-DEVICEID-CHILD', breaks: ['STATUS-DEVICEID-CHILD'], description: 'reports for a device behind the gateway name only its last segment', kind: 'see-thru-gateway' },
  { id: 'AMV-INDEPENDENT-OF-OUTCOME', breaks: ['AMV-INDEPENDENT-OF-OUTCOME'], description: 'a failed deployment reports the manifest version before the one it failed to apply' },
  { id: 'STATUS-DEPLOYMENTID-REQUIRED', breaks: ['STATUS-DEPLOYMENTID-REQUIRED'], description: 'status reports leave deploymentId out' },
  { id: 'STATUS-STATUS-REQUIRED', breaks: ['STATUS-STATUS-REQUIRED'], description: 'status reports leave status out' },
  { id: 'STATUS-ERROR-SOURCE-DEPLOYMENT', breaks: ['STATUS-ERROR-SOURCE-DEPLOYMENT'], description: 'status.error of a refused deployment names the failed component, not the deployment, as its source' },
  { id: 'STATUS-ERROR-FIELDS', breaks: ['STATUS-ERROR-FIELDS'], description: 'status.error of a refused deployment has a code and a source but an empty message' },
  { id: 'STATUS-COMPONENT-NAME', breaks: ['STATUS-COMPONENT-NAME'], description: 'reports each component by its name in upper case (WEB for web)' },
  { id: 'STATUS-COMPONENT-STATE-VALUES', breaks: ['STATUS-COMPONENT-STATE-VALUES'], description: 'writes an installed component\'s state as "done"' },
  { id: 'STATUS-PATH-DEPLOYMENTID', breaks: ['STATUS-PATH-DEPLOYMENTID'], description: 'the deploymentId of a report\'s body is the path\'s in upper case' },
  { id: 'AMV-PRESENT', breaks: ['AMV-PRESENT'], description: 'status reports leave adoptedManifestVersion out' },
  { id: 'AMV-FIRST-INSTALL', breaks: ['AMV-FIRST-INSTALL', 'AMV-EQUALS-HELD'], description: 'reports the manifest version after the one it adopted' },
  { id: 'STATUS-RESERVED-101', breaks: ['STATUS-RESERVED-101'], description: 'a deployment for a device the gateway does not know fails with an implementation code UNKNOWN_CHILD, not 101', kind: 'see-thru-gateway' },
  { id: 'STATUS-RESERVED-SOURCE', breaks: ['STATUS-RESERVED-SOURCE', 'STATUS-ERROR-SOURCE-GATEWAY'], description: 'a reserved code names the unknown child, not the gateway, as its source', kind: 'see-thru-gateway' },
  { id: 'STATUS-RESERVED-102', breaks: ['STATUS-RESERVED-102'], description: 'reports a device behind it whose link is down as unknown (code 101), not unreachable (102)', kind: 'see-thru-gateway' },
  { id: 'STATUS-RESERVED-103', breaks: ['STATUS-RESERVED-103'], description: 'never chooses a device for <gateway>/* and refuses it with its own code NO_PLACEMENT, not 103', kind: 'see-thru-gateway' },
  { id: 'STATUS-PRECEDENCE', breaks: ['STATUS-PRECEDENCE', 'STATUS-LIFE-EACH-REPORT'], description: 'the overall state is installed from the first report on, whatever the components say' },
  { id: 'AMV-ADVANCES-ON-APPLY', breaks: ['AMV-ADVANCES-ON-APPLY'], description: 'keeps reporting the version of the first revision it adopted after it applies a newer one' },
  { id: 'AMV-ADVANCES-ON-APPLY:keep-state', breaks: ['AMV-ADVANCES-ON-APPLY'], description: 'after a restart it reports the version it held when it stopped, whatever it applies since' },
  { id: 'AMV-EQUALS-HELD:unchanged', breaks: ['AMV-EQUALS-HELD'], description: 'a newer manifest that leaves a deployment unchanged makes it report a version newer than both manifests\'' },
  { id: 'AMV-OLDER-REPORTS-OLDER', breaks: ['AMV-OLDER-REPORTS-OLDER', 'AMV-FETCH-DOES-NOT-ADVANCE'], description: 'on fetching a newer manifest it reports the revision it still runs with the newer manifest\'s version, before it holds the newer revision' },
  { id: 'AMV-RESYNC', breaks: ['AMV-RESYNC'], description: 'after losing its local state it reports the versions it held before the loss, kept apart from what it lost' },
  // P4 (simulators/device/actions.ts, bundle-fallback.ts, machine.ts).
  { id: 'DS-CLIENT-IF-NONE-MATCH', breaks: ['DS-CLIENT-IF-NONE-MATCH'], description: 'revalidates its state manifest with the first ETag it ever saw, not the last' },
  { id: 'DS-CLIENT-VERIFY-DEPLOYMENT-DIGEST', breaks: ['DS-CLIENT-VERIFY-DEPLOYMENT-DIGEST'], description: 'applies a deployment YAML whatever its bytes hash to' },
  { id: 'DS-CLIENT-VERIFY-BUNDLE-DIGEST', breaks: ['DS-CLIENT-VERIFY-BUNDLE-DIGEST'], description: 'opens a bundle whatever its bytes hash to' },
  { id: 'DS-CLIENT-BUNDLE-CONTENTS', breaks: ['DS-CLIENT-BUNDLE-CONTENTS'], description: 'takes its YAML from a bundle whatever else the bundle holds' },
  { id: 'DS-CLIENT-MONOTONIC', breaks: ['DS-CLIENT-MONOTONIC'], description: 'adopts every state manifest it gets, whatever its manifestVersion' },
  { id: 'STATUS-PRECEDENCE-REMOVED', breaks: ['STATUS-PRECEDENCE-REMOVED'], description: 'says a removed deployment is removed while its components are still removing' },
  { id: 'CAP-UPDATE-ON-CHANGE', breaks: ['CAP-UPDATE-ON-CHANGE'], description: 'never sends its capabilities again when what it reports changes' },
  { id: 'MIAF-CLIENT-HONOURS-RETRY-AFTER', breaks: ['MIAF-CLIENT-HONOURS-RETRY-AFTER'], description: 'polls again at its own pace after a 429 whose Retry-After asks it to wait longer', edition: 'miaf' },
  // §4.5, §4.6, §5: the trust bundle client (simulators/device/bundle-client.ts, simulators/client-bundle.ts).
  { id: 'DISC-ACCEPT-JSON', breaks: ['DISC-ACCEPT-JSON'], description: 'asks for its discovery document with Accept: text/html' },
  { id: 'BUNDLE-ACCEPT-JSON', breaks: ['BUNDLE-ACCEPT-JSON'], description: 'asks for its trust bundle with Accept: text/html' },
  { id: 'DISC-IF-NONE-MATCH', breaks: ['DISC-IF-NONE-MATCH'], description: 'revalidates its discovery document with the first ETag it ever saw, not the last' },
  { id: 'BUNDLE-IF-NONE-MATCH', breaks: ['BUNDLE-IF-NONE-MATCH'], description: 'revalidates its trust bundle with the first ETag it ever saw, not the last' },
  { id: 'DISC-CLIENT-IGNORE-UNKNOWN', breaks: ['DISC-CLIENT-IGNORE-UNKNOWN'], description: 'refuses a discovery document with a field §2.5 does not name' },
  { id: 'DISC-OPERATOR-CONFIG', breaks: ['DISC-OPERATOR-CONFIG'], description: 'without a discovery URL it never reads the trust bundle URI its operator configured' },
  { id: 'BUNDLE-CLIENT-HTTPS-ONLY', breaks: ['BUNDLE-CLIENT-HTTPS-ONLY'], description: 'retrieves a trust bundle from an http:// trustBundleUri' },
  { id: 'BUNDLE-REFRESH-HINT', breaks: ['BUNDLE-REFRESH-HINT'], description: 'ignores spiffe_refresh_hint and refreshes at its operator interval' },
  { id: 'BUNDLE-REFRESH-CONFIGURED', breaks: ['BUNDLE-REFRESH-CONFIGURED'], description: 'without spiffe_refresh_hint it never refreshes its bundle' },
  { id: 'BUNDLE-REFRESH-NOT-DEFERRED', breaks: ['BUNDLE-REFRESH-NOT-DEFERRED'], description: 'defers its bundle refresh to the answer\'s Cache-Control max-age' },
  { id: 'BUNDLE-TRUSTDOMAIN-MATCH', breaks: ['BUNDLE-TRUSTDOMAIN-MATCH'], description: 'never compares the discovery document\'s trust domain with its own SVID\'s', edition: 'miaf' },
  { id: 'AUTH-IDENTITY-INITIAL-TRUST', breaks: ['AUTH-IDENTITY-INITIAL-TRUST', 'BUNDLE-CROSS-ORIGIN-TRUST'], description: 'verifies no identity endpoint\'s certificate' },
  // §2.6, §4.6 rules 1-3 and 5 in miaf, where the bundle's anchors validate the WFM's SVID (simulators/client-bundle.ts).
  { id: 'BUNDLE-CLIENT-TOLERATE-UNKNOWN', breaks: ['BUNDLE-CLIENT-TOLERATE-UNKNOWN'], description: 'refuses a trust bundle with a member §2.6 does not name', edition: 'miaf' },
  { id: 'BUNDLE-IGNORE-NON-X509', breaks: ['BUNDLE-IGNORE-NON-X509'], description: 'takes every bundle key with a certificate as an anchor, whatever its use', edition: 'miaf' },
  { id: 'BUNDLE-REJECT-NO-ANCHORS', breaks: ['BUNDLE-REJECT-NO-ANCHORS'], description: 'takes a bundle with no x509-svid entry: no anchors at all', edition: 'miaf' },
  { id: 'BUNDLE-KEEP-CURRENT', breaks: ['BUNDLE-KEEP-CURRENT'], description: 'throws its bundle away when the endpoint answers an error', edition: 'miaf' },
  { id: 'BUNDLE-OFFLINE-KEEP-CACHED', breaks: ['BUNDLE-OFFLINE-KEEP-CACHED'], description: 'throws its bundle away when the endpoint cannot be reached', edition: 'miaf' },
  { id: 'BUNDLE-CACHE-LOCAL', breaks: ['BUNDLE-CACHE-LOCAL'], description: 'keeps its trust bundle in memory only: restarted while the endpoint is unreachable, it has nothing to validate its WFM with', edition: 'miaf' },
  { id: 'BUNDLE-NO-COMBINE', breaks: ['BUNDLE-NO-COMBINE', 'BUNDLE-REPLACE-ANCHORS'], description: 'adds a retrieved bundle\'s anchors to the ones it held', edition: 'miaf' },
  { id: 'BUNDLE-CROSS-ORIGIN-TRUST', breaks: ['BUNDLE-CROSS-ORIGIN-TRUST'], description: 'verifies no certificate of a trust bundle on another origin than the discovery document\'s' },
];

/**
 * Status-shape faults run again in edition miaf (id `<fault>:miaf`): P10's status report has the seed's required
 * fields and values, so the same checks must catch the same faults over mutual TLS.
 */
const MIAF_RERUNS = ['STATUS-DEPLOYMENTID-REQUIRED', 'STATUS-STATUS-REQUIRED', 'AMV-PRESENT', 'STATUS-COMPONENT-NAME', 'STATUS-COMPONENT-STATE-VALUES'] as const;
const MIAF_SUFFIX = ':miaf';

export const CLIENT_FAULTS: readonly ClientFaultDefinition[] = Object.freeze([
  ...ONE_EDITION_FAULTS,
  ...MIAF_RERUNS.map((id) => {
    const f = ONE_EDITION_FAULTS.find((d) => d.id === id)!;
    return { ...f, id: `${id}${MIAF_SUFFIX}`, description: `${f.description} (edition miaf)`, edition: 'miaf' as const };
  }),
]);

export type ClientFaultId = string;
export type ActiveClientFaults = ReadonlySet<string>;
export const NO_CLIENT_FAULTS: ActiveClientFaults = new Set();

/** The set of ids, each known (an unknown id is an error that lists the known ones); a miaf rerun is its fault. */
export function activeClientFaults(ids: readonly string[]): ActiveClientFaults {
  for (const id of ids) {
    if (!CLIENT_FAULTS.some((f) => f.id === id)) throw new Error(`unknown client fault "${id}" (known: ${CLIENT_FAULTS.map((f) => f.id).join(', ')})`);
  }
  return new Set(ids.map((id) => (id.endsWith(MIAF_SUFFIX) ? id.slice(0, -MIAF_SUFFIX.length) : id)));
}

/** The client faults as the catch-rate harness and the reports list them beside the services' faults. */
export const CLIENT_FAULT_ENTRIES = Object.freeze(CLIENT_FAULTS.map((f) => ({ id: f.id, service: 'client' as const, breaks: f.breaks, description: f.description, ...(f.edition && { edition: f.edition }) })));
