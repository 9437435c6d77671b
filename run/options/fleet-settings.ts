// The settings of `wfmck fleet`, one entry each: its flag, its key in --fleet-file (simulators/fleet/spec.ts checks both
// the same way), its help, and its default as simulators/fleet/spec.ts applies it, so --help never repeats one by hand.
import { parseComponentRef } from '../../simulators/fleet/assigned-deployments.ts';
import { DEFAULT_HEAP_GROWTH_PERCENT, heapGrowthPercent } from '../../simulators/fleet/heap-growth.ts';
import { FILE_KEY_NAMES, fleetDefault, type FleetSpec } from '../../simulators/fleet/spec.ts';
import { parseTargetUrl } from '../../spec/network-policy.ts';
import { SVID_KEY_ALGORITHMS } from '../../spec/rules/svid-leaf.ts';
import { file, oneOf, path as pathOption, text, type Parse } from './args.ts';
import { CA_FILE, DEVICE_CA, EDITION, OUT, RESOLVE, SEED, SPIFFE, VENDOR, WFM } from './option-sets.ts';
import type { Option, OptionGroup } from './options.ts';

/** A fleet setting: its flag, its key in --fleet-file (by its newer name, if it has one), and the default the fleet applies when neither gives it. */
const setting = (flag: string, value: string, key: keyof FleetSpec, doc: string): Option => {
  const fallback = fleetDefault(key);
  const shown = FILE_KEY_NAMES[key];
  return {
    flag,
    value,
    key,
    doc,
    ...(shown && { keyShown: shown }),
    ...(fallback !== undefined && key !== 'seed' && { default: fallback }),
  };
};

/** `oci://HOST[:PORT]/NAME:REVISION` of a published compose component; its registry is a target the user names. */
const componentRef: Parse = (raw, _base, label) => {
  const component = parseComponentRef(text(raw));
  if (!component) throw new Error(`"${String(raw)}" is not oci://HOST[:PORT]/NAME:REVISION`);
  parseTargetUrl(component.repository.replace(/^oci:/, 'https:'), label);
  return component;
};

function sourceCount(raw: unknown): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 254) throw new Error(`must be a whole number from 1 to 254, not ${JSON.stringify(raw)}`);
  return n;
}

/** One source address per worker at most (miaf), of 127.0.0.1 .. 127.0.0.254. */
function workerCount(raw: unknown): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 254) throw new Error(`must be a whole number from 1 to 254, not ${JSON.stringify(raw)}`);
  return n;
}

export const FLEET_GROUPS: readonly OptionGroup[] = [
  {
    title: 'fleet (a --fleet-file YAML mapping takes the same settings by their key; flags win over the file)',
    keyTitle: 'fleet-file key',
    options: [
      setting('devices', 'N', 'devices', 'plain devices'),
      setting('see-thru-gateways', 'N', 'seeThruGateways', 'see-thru gateways'),
      setting('opaque-gateways', 'N', 'opaqueGateways', 'opaque gateways'),
      setting('children', 'N', 'children', 'children per gateway'),
      setting('depth', 'N', 'depth', 'see-thru levels below a gateway, 2 = gw/mid/leaf'),
      setting('hosts-workloads', 'R', 'hostsWorkloads', 'share of see-thru gateways that host workloads, 0..1'),
      {
        ...setting(
          'misbehaviour',
          'LIST',
          'faults',
          'per-device misbehaviour mix, e.g. crashingContainer=0.05,flappingCapabilities=0.1; --faults and the file key faults, its old spelling, still work',
        ),
        aliases: ['faults'],
      },
      { ...SEED, key: 'seed', parse: undefined, doc: 'data and misbehaviour seed', defaultDoc: 'random, echoed in the summary' },
      { ...setting('shard', 'i/n', 'shard', 'run only top-level devices k with k mod n = i-1'), defaultDoc: '1/1' },
      setting('id-prefix', 'TEXT', 'idPrefix', 'first part of every deviceId'),
      setting('quantity-format', 'F', 'quantityFormat', 'spaced ("16 Gi") or compact ("16Gi"), profile P8'),
      {
        ...setting(
          'deployments',
          'N',
          'deployments',
          'deployments per workload-hosting device, plus N "<gateway>/*" per see-thru gateway with hosting devices behind it',
        ),
        defaultDoc: '1 on the embedded default or with --hook-assign-deployment, else 0',
      },
      setting(
        'time-scale',
        'X',
        'timeScale',
        'multiplies simulated waits: a 5-minute compose timeout (unhealthyContainer) takes 300 ms at the default',
      ),
    ],
    note: `Misbehaviour: crashingContainer and unhealthyContainer fail a device's deployments (an expected outcome, counted in
failedByFault); stateLoss makes a device resynchronise; clockSkewSeconds shifts its signatures' created by up to
±55 s, inside the reference's tolerance (60 s ahead, 300 s old), so a correct WFM accepts every device.`,
  },
  {
    title: 'load',
    keyTitle: 'fleet-file key',
    options: [
      setting('rate', 'N', 'rate', 'requests per second across the fleet, 0 = no limit'),
      setting('burst', 'N', 'burst', 'token bucket size'),
      setting('duration', 'S', 'duration', 'seconds devices keep ticking after the run starts'),
      setting('tick-interval', 'S', 'tickInterval', 'seconds between two ticks of one device'),
      setting('concurrency', 'N', 'concurrency', 'devices starting or ticking at once'),
      setting('timeout', 'MS', 'timeout', 'one request, body included, before WFMCK_E_TIMEOUT'),
      {
        ...setting(
          'stages',
          'LIST',
          'stages',
          'ramp the starts: DURATION:DEVICES,... (e.g. 30s:100,2m:1000): started devices rise linearly to each target over its stage; past the last stage the rest start',
        ),
        defaultDoc: 'as fast as --concurrency allows',
      },
      {
        flag: 'metrics-out',
        value: 'FILE',
        doc: 'write a JSON line of interval figures every 5 s and at the end (requests, req/s, unexpected, transport errors, p50/p95/p99, clients, RSS with the heap and external memory in it)',
        parse: pathOption,
      },
      {
        ...setting(
          'threshold',
          'EXPR',
          'thresholds',
          'pass/fail threshold, repeatable: [ENDPOINT:]p50|p95|p99|max|mean<N ms|s (without an endpoint, every endpoint), or errors<N% / errors<N (unexpected answers and transport errors); exit 1 when one fails',
        ),
        multiple: true,
      },
      {
        flag: 'workers',
        value: 'N',
        doc: 'worker processes the fleet is spread over, each a shard of it with its share of --rate, --burst and --concurrency (never more than the top-level devices); with --shard i/n they split that shard; 1 = all in this process',
        defaultDoc: "the machine's cores, less one for the embedded default when there is no --wfm, at least 1",
        parse: workerCount,
      },
      { flag: 'fleet-file', value: 'FILE', doc: 'YAML file with any of the settings above, by their key', parse: file },
      {
        flag: 'heap-growth',
        value: 'PCT',
        doc: "how far the fleet's heap may grow past what is live before a full GC, in percent; 0 = V8's own (up to several times; 100,000 devices then passed 1.4 GB)",
        default: DEFAULT_HEAP_GROWTH_PERCENT,
        parse: heapGrowthPercent,
      },
    ],
  },
  {
    title: 'target',
    options: [
      { ...WFM, doc: 'WFM base URL; needs --device-ca-cert and --device-ca-key' },
      { ...CA_FILE, doc: "PEM of the CA of the WFM's TLS certificate" },
      RESOLVE,
      {
        ...EDITION,
        doc: 'seed (default: onboarding and signatures) or miaf (P10: each device its own X.509-SVID from the device CA, one mutual-TLS connection per device, no onboarding)',
      },
      ...SPIFFE.map((o) => ({ ...o, doc: `miaf with --wfm: ${o.doc.replace(/^miaf: /, '')}` })),
      {
        flag: 'svid-key',
        value: 'K',
        doc: "miaf: key of each device's SVID: P-256 (default, mandatory to implement), P-384, Ed25519, RSA-3072",
        parse: oneOf(...SVID_KEY_ALGORITHMS),
      },
      {
        flag: 'source-addresses',
        value: 'N',
        doc: "miaf: connect from 127.0.0.1 .. 127.0.0.N, round robin, so one connection per device is not capped by one address's ephemeral ports",
        defaultDoc: 'one per 16,000 devices, at least 2',
        parse: sourceCount,
      },
      ...DEVICE_CA.map((o, i) => ({
        ...o,
        doc: i === 0 ? 'a CA the WFM trusts for device certificates (as written by wfmck serve --state-dir)' : 'its private key',
      })),
      VENDOR,
      {
        flag: 'hook-assign-deployment',
        value: 'CMD',
        doc: 'P5 assignDeployment hook of the --wfm (JSON on stdin, {deploymentId} on stdout)',
      },
      {
        flag: 'component',
        value: 'REF',
        doc: 'what that hook assigns: oci://HOST[:PORT]/NAME:REVISION, a published compose component',
        parse: componentRef,
      },
      {
        flag: 'cert-cache',
        value: 'DIR',
        doc: "keep each device's key and certificate (or SVID) in DIR, per device CA, and reuse them on the next start instead of minting (files 0600); a device keeps its identity, so a --wfm that kept the last run's devices answers their first PUT 200, which counts as held",
        parse: pathOption,
      },
      { ...OUT, doc: 'where fleet-summary.json goes', defaultDoc: 'reports/out/fleet-<timestamp>' },
    ],
  },
];
