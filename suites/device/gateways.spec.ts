// Persona device, interfaces.md §2.2: a see-thru gateway client registers itself, then each device behind it under
// a hierarchical id, one PUT per device. Judged only when the client presents a see-thru gateway.
import { test, expect } from '../../fixtures/wfmck.ts';
import { req } from '../../fixtures/req.ts';
import { expectEach, type TaggedFinding } from '../../fixtures/expect-each.ts';
import {
  capabilitiesDeviceId,
  isCapabilitiesDelete,
  isCapabilitiesPut,
  isManifestPoll,
  jsonBody,
  type ClientUnderTest,
} from '../../fixtures/client-under-test.ts';
import type { RecordedExchange } from '../../protocol/judging-record.ts';
import { HOSTING_FIELDS, classifyDocument, semanticFindings } from '../../spec/rules/capabilities.ts';
import { checkOpaqueAggregation } from '../../spec/rules/opaque-aggregation.ts';
import { validate } from '../../spec/schemas/index.ts';
import { kitError, skipIf } from '../../fixtures/outcome.ts';
import { REPORTS_WHILE_APPLYING } from '../../fixtures/device-deployments.ts';
import type { DeviceCapabilities, Properties } from '../../spec/types.ts';

const capabilitiesPuts = (xs: RecordedExchange[]) => xs.filter(isCapabilitiesPut);
/**
 * A client that registered and polls its desired state is done registering; one that never polls follows no desired
 * state (STATUS-REPORT-WHILE-APPLYING fails in its own check) and blocks these.
 */
const POLLS = REPORTS_WHILE_APPLYING;
const deviceIdOf = capabilitiesDeviceId;

interface GatewayRun {
  client: ClientUnderTest;
  puts: RecordedExchange[];
  /** The gateway's own deviceId: what startClient answered, else the root of the first hierarchical id. */
  gateway: string | undefined;
}

/** The registrations of a client asked to be a see-thru gateway; a skip (with the reason) when it is not one. */
async function gatewayRun(clientUnderTest: (o: { kind: 'see-thru-gateway' }) => Promise<ClientUnderTest>): Promise<GatewayRun> {
  const client = await clientUnderTest({ kind: 'see-thru-gateway' });
  // Settled: two polls of the desired state after its registrations, or a refused registration (what it sent so far
  // is then all there is to judge).
  const puts = await client.waitFor(
    'its see-thru registrations and two polls of the desired state',
    (xs) => {
      const polls = xs.filter(isManifestPoll).length;
      const refused = capabilitiesPuts(xs).some((x) => x.status >= 400);
      return polls >= 2 || refused ? capabilitiesPuts(xs) : undefined;
    },
    undefined,
    POLLS,
  );
  const hierarchical = puts.map(deviceIdOf).find((id) => id.includes('/'));
  const says = client.kind === undefined ? undefined : client.kind === 'see-thru-gateway';
  skipIf(
    says === false || (says === undefined && hierarchical === undefined),
    'unsupported',
    'the client under test presents no see-thru gateway (startClient said another kind, or it registered no hierarchical deviceId)',
  );
  return { client, puts, gateway: client.deviceId ?? hierarchical?.split('/')[0] };
}

/**
 * The documents of a see-thru gateway, each problem tagged with the one requirement it breaks: a document that is no
 * DeviceCapabilities breaks the schema rule; a gateway's own document with some hosting fields but not all breaks the
 * hosting rule when it says it hosts (runtimes or deployment types), else the identity-only one.
 */
function gatewayDocumentFindings({ puts, gateway }: GatewayRun): TaggedFinding[] {
  const ids = puts.map(deviceIdOf);
  return puts.flatMap((x) => {
    const doc = jsonBody(x);
    const checked = validate('DeviceCapabilities', doc);
    if (!checked.ok)
      return [
        {
          id: 'GW-SEETHRU-SAME-SCHEMA',
          message: `${deviceIdOf(x)}: not a DeviceCapabilities: ${checked.errors.map((e) => `${e.path} ${e.message}`).join(', ')}`,
        },
      ];
    const isGateway = deviceIdOf(x) === gateway || ids.some((id) => id.startsWith(`${deviceIdOf(x)}/`));
    const props = (doc as DeviceCapabilities).properties;
    const kind = classifyDocument(props);
    if (!isGateway || kind === 'identity-only') return [];
    const saysHosting = props.supportedRuntimes !== undefined || props.supportedDeploymentTypes !== undefined;
    if (kind === 'partial' && !saysHosting)
      return [
        {
          id: 'GW-NONHOSTING-IDENTITY-ONLY',
          message: `${deviceIdOf(x)}: a gateway that says no runtime or deployment type sends hosting fields (${HOSTING_FIELDS.filter((f) => props[f] !== undefined).join(', ')}); identity only`,
        },
      ];
    if (kind === 'partial')
      return [
        {
          id: 'GW-HOSTING-FULL-DOCUMENT',
          message: `${deviceIdOf(x)}: a hosting gateway without ${HOSTING_FIELDS.filter((f) => props[f] === undefined).join(', ')}; every hosting field`,
        },
      ];
    return semanticFindings(doc as DeviceCapabilities)
      .filter((f) => f.rule === 'runtimes-required' || f.rule === 'deployment-types-required')
      .map((f) => ({ id: 'GW-HOSTING-FULL-DOCUMENT', message: `${deviceIdOf(x)}: ${f.message}` }));
  });
}

/** The client as an opaque gateway and the documents it PUT once it has polled twice; a skip when it is no opaque gateway. */
async function opaqueRun(
  clientUnderTest: (o: { kind: 'opaque-gateway' }) => Promise<ClientUnderTest>,
): Promise<{ client: ClientUnderTest; puts: RecordedExchange[] }> {
  const client = await clientUnderTest({ kind: 'opaque-gateway' });
  skipIf(
    client.kind !== 'opaque-gateway',
    'unsupported',
    'the client under test did not say it is an opaque gateway (startClient answered no kind opaque-gateway)',
  );
  const puts = await client.waitFor(
    'its capabilities and two polls of the desired state',
    (xs) => (xs.filter(isManifestPoll).length >= 2 ? capabilitiesPuts(xs) : undefined),
    undefined,
    POLLS,
  );
  return { client, puts };
}

/** Each document the gateway PUT for itself, judged against what it says it aggregates (spec/rules/opaque-aggregation.ts). */
function aggregationFindings(
  puts: RecordedExchange[],
  children: Properties[],
  deploymentTypes: readonly string[],
): { rule: string; message: string }[] {
  return puts
    .filter((x) => !deviceIdOf(x).includes('/'))
    .flatMap((x) => {
      const doc = jsonBody(x) as DeviceCapabilities | undefined;
      if (!doc?.properties) return [];
      return checkOpaqueAggregation(doc, children, deploymentTypes).map((f) => ({
        rule: f.rule,
        message: `PUT ${deviceIdOf(x)}: ${f.message}`,
      }));
    });
}

const AGGREGATION_RULES: Record<string, string> = {
  'opaque-cpus-one-per-child-cpu': 'GW-OPAQUE-AGG-CPUS',
  'opaque-memory-summed': 'GW-OPAQUE-AGG-MEMORY',
  'opaque-storage-summed': 'GW-OPAQUE-AGG-STORAGE',
  'opaque-interfaces-added': 'GW-OPAQUE-AGG-INTERFACES',
  'opaque-runtimes-union': 'GW-OPAQUE-AGG-RUNTIMES',
};

test.describe('§2.2 see-thru gateways', () => {
  test(
    "GW-SEETHRU-SAME-SCHEMA GW-HOSTING-FULL-DOCUMENT GW-NONHOSTING-IDENTITY-ONLY every document is a DeviceCapabilities; a gateway's own is identity-only or a full hosting document",
    req('GW-SEETHRU-SAME-SCHEMA', 'GW-HOSTING-FULL-DOCUMENT', 'GW-NONHOSTING-IDENTITY-ONLY'),
    async ({ clientUnderTest }) => {
      expectEach(
        gatewayDocumentFindings(await gatewayRun(clientUnderTest)),
        '§2.2: one schema for gateway and children; a gateway is identity-only or fully hosting',
      );
    },
  );

  test(
    'GW-ORDER-GATEWAY-FIRST GW-SEETHRU-PATH-HIERARCHY the gateway registers itself before any device behind it, and each of those under <gateway>/<child>',
    req('GW-ORDER-GATEWAY-FIRST', 'GW-SEETHRU-PATH-HIERARCHY'),
    async ({ clientUnderTest }) => {
      const run = await gatewayRun(clientUnderTest);
      const ids = run.puts.map(deviceIdOf);
      const gateway = run.gateway ?? '';
      const children = ids.filter((id) => id.includes('/'));
      expect(children.length, `§2.2: a see-thru gateway registers the devices behind it (registered: ${ids.join(', ')})`).toBeGreaterThan(
        0,
      );
      const firstOwn = ids.indexOf(gateway);
      const firstChild = ids.findIndex((id) => id.startsWith(`${gateway}/`));
      const findings: TaggedFinding[] = [
        ...(firstOwn < 0
          ? [{ id: 'GW-ORDER-GATEWAY-FIRST', message: `the gateway ${gateway} never registers itself (order: ${ids.join(', ')})` }]
          : firstChild >= 0 && firstChild < firstOwn
            ? [{ id: 'GW-ORDER-GATEWAY-FIRST', message: `${ids[firstChild]} is registered before its gateway (order: ${ids.join(', ')})` }]
            : []),
        ...children
          .filter(
            (id) =>
              !id
                .split('/')
                .slice(0, -1)
                .every((_, i, a) => ids.includes(a.slice(0, i + 1).join('/'))),
          )
          .map((id) => ({ id: 'GW-SEETHRU-PATH-HIERARCHY', message: `${id} sits under a level that was never registered` })),
      ];
      expectEach(findings, '§2.2: the gateway first, each device under registered gateways');
    },
  );

  test(
    'GW-SEETHRU-ONE-PUT-PER-DEVICE PROPS-ID-HIERARCHY one capabilities document per device, for the device its path names: properties.id is its full <gateway>/.../<device> id',
    req('GW-SEETHRU-ONE-PUT-PER-DEVICE', 'PROPS-ID-HIERARCHY'),
    async ({ clientUnderTest }) => {
      const { puts } = await gatewayRun(clientUnderTest);
      const mismatched = puts
        .filter((x) => (jsonBody(x) as { properties?: { id?: unknown } } | undefined)?.properties?.id !== deviceIdOf(x))
        .map(
          (x) =>
            `PUT ${deviceIdOf(x)} carries properties.id ${JSON.stringify((jsonBody(x) as { properties?: { id?: unknown } } | undefined)?.properties?.id)}`,
        );
      expect(
        mismatched,
        '§2.2, §2.1.1: each PUT carries the document of the device its path names (one device per request), id with the full hierarchy',
      ).toEqual([]);
    },
  );

  test(
    'GW-SEETHRU-DELETE-CHILD CAP-DELETE-NO-BODY a device that leaves the gateway is DELETEd by its full deviceId, with no body',
    req('GW-SEETHRU-DELETE-CHILD', 'CAP-DELETE-NO-BODY'),
    async ({ clientUnderTest, hooks }) => {
      hooks.require('removeChild');
      const { client, puts } = await gatewayRun(clientUnderTest);
      const ids = puts.filter((x) => x.status < 300).map(deviceIdOf);
      // A leaf: its departure is one DELETE (a device with devices behind it takes them along, descendants first).
      const leaf = ids.filter((id) => id.includes('/') && !ids.some((o) => o.startsWith(`${id}/`))).at(-1);
      skipIf(leaf === undefined, 'unsupported', 'the gateway registered no device behind it that could leave');
      await client.removeChild(leaf!);
      const deletes = await client.waitFor(`a DELETE after ${leaf} left the gateway`, (xs) => {
        const d = xs.filter(isCapabilitiesDelete);
        return d.length ? d : undefined;
      });
      expectEach(
        [
          ...deletes
            .filter((x) => deviceIdOf(x) !== leaf)
            .map((x) => ({
              id: 'GW-SEETHRU-DELETE-CHILD',
              message: `DELETE ${deviceIdOf(x)}: the departed device is ${leaf}, its full deviceId`,
            })),
          ...deletes
            .filter((x) => (x.body ?? '') !== '')
            .map((x) => ({ id: 'CAP-DELETE-NO-BODY', message: `DELETE ${deviceIdOf(x)} with a ${x.body!.length}-byte body` })),
        ],
        '§2.2, §4.2: the departed device DELETEd by its full deviceId, with no body',
      );
    },
  );
});

test.describe('§2.2 opaque gateways', () => {
  test(
    'GW-OPAQUE-ONE-DOCUMENT GW-OPAQUE-CHILDREN-HIDDEN an opaque gateway reports itself as one device in one document, and no child deviceId',
    req('GW-OPAQUE-ONE-DOCUMENT', 'GW-OPAQUE-CHILDREN-HIDDEN'),
    async ({ clientUnderTest }) => {
      const { puts } = await opaqueRun(clientUnderTest);
      const ids = [...new Set(puts.map(deviceIdOf))];
      const own = ids.filter((id) => !id.includes('/'));
      expectEach(
        [
          ...(own.length === 1
            ? []
            : [{ id: 'GW-OPAQUE-ONE-DOCUMENT', message: `one device, one document; it registered ${own.join(', ')}` }]),
          ...ids
            .filter((id) => id.includes('/'))
            .map((id) => ({ id: 'GW-OPAQUE-CHILDREN-HIDDEN', message: `the child ${id} is visible to the WFM` })),
        ],
        '§2.2: one device in one document, no child visible',
      );
    },
  );

  test(
    'GW-OPAQUE-AGG-CPUS GW-OPAQUE-AGG-MEMORY GW-OPAQUE-AGG-STORAGE GW-OPAQUE-AGG-INTERFACES GW-OPAQUE-AGG-RUNTIMES the document aggregates the devices the gateway says are behind it: a cpus entry per child CPU, memory and storage summed, interfaces added, runtimes united',
    req('GW-OPAQUE-AGG-CPUS', 'GW-OPAQUE-AGG-MEMORY', 'GW-OPAQUE-AGG-STORAGE', 'GW-OPAQUE-AGG-INTERFACES', 'GW-OPAQUE-AGG-RUNTIMES'),
    async ({ clientUnderTest }) => {
      const { client, puts } = await opaqueRun(clientUnderTest);
      if (client.opaque?.problem !== undefined) kitError('WFMCK_E_HOOK', `hook startClient: ${client.opaque.problem}`);
      skipIf(
        !client.opaque?.children?.length,
        'disabled',
        'startClient answered no children: what the opaque gateway aggregates never travels on the wire (§2.2)',
      );
      const findings = aggregationFindings(puts, client.opaque!.children!, client.opaque!.deploymentTypes ?? []).filter(
        (f) => f.rule in AGGREGATION_RULES,
      );
      expectEach(
        findings.map((f) => ({ id: AGGREGATION_RULES[f.rule]!, message: f.message })),
        `§2.2: the aggregate of ${client.opaque!.children!.length} devices`,
      );
    },
  );

  test(
    'GW-OPAQUE-AGG-DEPLOYTYPES the document reports as supportedDeploymentTypes the deployment types the gateway says it can deploy',
    req('GW-OPAQUE-AGG-DEPLOYTYPES'),
    async ({ clientUnderTest }) => {
      const { client, puts } = await opaqueRun(clientUnderTest);
      if (client.opaque?.problem !== undefined) kitError('WFMCK_E_HOOK', `hook startClient: ${client.opaque.problem}`);
      skipIf(
        client.opaque?.deploymentTypes === undefined,
        'disabled',
        'startClient answered no deploymentTypes: what the opaque gateway can deploy never travels on the wire (§2.2)',
      );
      const findings = aggregationFindings(puts, client.opaque!.children ?? [], client.opaque!.deploymentTypes!).filter(
        (f) => f.rule === 'opaque-deployment-types-gateway',
      );
      expect(
        findings.map((f) => f.message),
        `§2.2: the deployment types it can deploy, [${client.opaque!.deploymentTypes!.join(', ')}]`,
      ).toEqual([]);
    },
  );
});
