// `wfmck lint` of DeviceCapabilities documents (§2.1, §2.1.1, §2.2): each defect gives its catalog ID.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lintCapabilities } from '../../spec/lint/capabilities.ts';
import { LintInputError } from '../../spec/lint/input.ts';
import { exitCodeOf, lintReport } from '../../spec/lint/report.ts';
import type { Strictness } from '../../spec/profile.ts';

const GOOD = JSON.parse(readFileSync(new URL('../../fixtures/documents/capabilities-dev1.json', import.meta.url), 'utf8'));
const props = GOOD.properties;
const lint = (doc: unknown, strictness: Strictness = 'default') =>
  lintReport('caps.json', lintCapabilities(JSON.stringify(doc), 'caps.json'), strictness);
const ids = (doc: unknown) => lint(doc).findings.map((f) => f.requirement);
const withProps = (over: Record<string, unknown>, drop: string[] = []) => ({
  ...GOOD,
  properties: Object.fromEntries(Object.entries({ ...props, ...over }).filter(([k]) => !drop.includes(k))),
});

test('§2.1: the fixture device passes with no finding and is read as a hosting device', () => {
  const report = lint(GOOD);
  assert.deepEqual(report.findings, []);
  assert.equal(exitCodeOf(report), 0);
  assert.match(report.notes.join('\n'), /workload-hosting device/);
});

test('§2.2: an identity-only document is read as a non-hosting see-thru gateway, not as a defect', () => {
  const report = lint({ properties: { id: 'gw-1', vendor: 'Acme', modelNumber: 'G', serialNumber: 'S' } });
  assert.deepEqual(report.findings, []);
  assert.match(report.notes.join('\n'), /see-thru gateway that hosts no workloads/);
  const child = lint({ ...GOOD, properties: { ...props, id: 'gw-1/dev-2' } });
  assert.match(child.notes.join('\n'), /behind gateway gw-1/);
});

const DEFECTS: [string, unknown, string][] = [
  ['no properties', { labels: {} }, 'CAP-PROPERTIES-REQUIRED'],
  ['no serialNumber', withProps({}, ['serialNumber']), 'PROPS-IDENTITY-REQUIRED'],
  ['an id with a space', withProps({ id: 'dev 1' }), 'PROPS-ID-CHARSET'],
  ['a cpu without cores', withProps({ cpus: [{ architecture: 'arm64' }] }), 'CPU-CORES-REQUIRED'],
  ['an unknown architecture', withProps({ cpus: [{ cores: 1, architecture: 'x86' }] }), 'ENUM-CPU-ARCH'],
  ['a peripheral without type', withProps({ peripherals: [{ model: 'x' }] }), 'PROPS-PERIPHERAL-TYPE-REQUIRED'],
  ['an unknown peripheral type', withProps({ peripherals: [{ type: 'lidar' }] }), 'ENUM-PERIPHERAL-TYPE'],
  ['an unknown interface type', withProps({ interfaces: [{ type: 'zigbee' }] }), 'ENUM-INTERFACE-TYPE'],
  ['memory in decimal units', withProps({ memory: '16 GB' }), 'PROPS-MEMORY-FORMAT'],
  ['storage as a number', withProps({ storage: 256 }), 'PROPS-STORAGE-FORMAT'],
  ['otelCollector false on a hosting device', withProps({ otelCollector: false }), 'PROPS-OTEL-HOSTING-TRUE'],
  ['no runtime on a hosting device', withProps({ supportedRuntimes: [] }), 'PROPS-RUNTIMES-NONEMPTY'],
  ['some Y* fields but not all', withProps({}, ['memory', 'storage']), 'PROPS-HOSTING-FIELDS'],
  ['custom without labels', { properties: { ...props, supportedRuntimes: ['custom'] } }, 'ENUM-CUSTOM-NEEDS-LABELS'],
  ['a label value that is an object', { ...GOOD, labels: { 'example.com/a': { b: 1 } } }, 'CAP-LABELS-VALUE-TYPES'],
  ['an extension that is not an object', { ...GOOD, 'x-acme-extensions': 'on' }, 'CAP-EXT-AT-ROOT'],
];

for (const [what, doc, id] of DEFECTS) {
  test(`${id}: ${what} is a failing finding`, () => {
    const report = lint(doc);
    assert.ok(
      report.findings.some((f) => f.requirement === id),
      JSON.stringify(report.findings),
    );
    assert.equal(exitCodeOf(report), 1);
  });
}

test('ENUM-RUNTIME-VALUES: an unknown runtime is ambiguous in the catalog: warns in default, fails in strict', () => {
  const doc = { ...GOOD, properties: { ...props, supportedRuntimes: ['oci', 'wasm'] } };
  assert.deepEqual(ids(doc), ['ENUM-RUNTIME-VALUES']);
  assert.equal(exitCodeOf(lint(doc)), 0);
  assert.equal(exitCodeOf(lint(doc, 'strict')), 1);
});

test('ENUM-CUSTOM-NEEDS-LABELS: an unknown value read as custom without labels is never a failure (catalog errata)', () => {
  const doc = { properties: { ...props, supportedDeploymentTypes: ['helm.v3'] } };
  const report = lint(doc, 'strict');
  assert.ok(report.findings.some((f) => f.requirement === 'ENUM-CUSTOM-NEEDS-LABELS' && f.reading === 'not-judged'));
  assert.ok(report.findings.some((f) => f.requirement === 'ENUM-DEPLOYTYPE-VALUES'));
  assert.equal(report.findings.filter((f) => f.requirement === 'ENUM-CUSTOM-NEEDS-LABELS').length, 1);
});

test('CAP-LABELS-DOMAIN-PREFIX: a label key without a domain is a SHOULD: passes in default, fails in strict', () => {
  const doc = { ...GOOD, labels: { site: 'plant-7' } };
  const report = lint(doc);
  assert.deepEqual(
    report.findings.map((f) => [f.requirement, f.level]),
    [['CAP-LABELS-DOMAIN-PREFIX', 'SHOULD']],
  );
  assert.equal(exitCodeOf(report), 0);
  assert.equal(exitCodeOf(lint(doc, 'strict')), 1);
});

test('a closed nested object catches typos as a kit reading: fails in default, warns in lenient', () => {
  const doc = withProps({ cpus: [{ cores: 1, arch: 'arm64' }] });
  assert.deepEqual(ids(doc), ['GW-SEETHRU-SAME-SCHEMA']);
  assert.equal(exitCodeOf(lint(doc)), 1);
  assert.equal(exitCodeOf(lint(doc, 'lenient')), 0);
});

test('text that is not JSON cannot be judged (exit 2 in the CLI), never a pass', () => {
  assert.throws(() => lintCapabilities('{"properties": ', 'caps.json'), LintInputError);
});

test('MIAF-CLIENT-CAP-ROOT-CLOSED: in miaf apiVersion, kind and an upper-case extension name break the closed root; seed takes them', () => {
  const doc = { apiVersion: 'wfm.margo.org/v1', kind: 'DeviceCapabilities', ...GOOD, 'x-Acme-extensions': {}, 'x-acme-extensions': {} };
  const miaf = lintReport('caps.json', lintCapabilities(JSON.stringify(doc), 'caps.json', 'miaf'), 'default').findings.filter(
    (f) => f.requirement === 'MIAF-CLIENT-CAP-ROOT-CLOSED',
  );
  assert.deepEqual(
    miaf.map((f) => f.path),
    ['/apiVersion', '/kind', '/x-Acme-extensions'],
  );
  assert.deepEqual(
    ids(doc).filter((id) => id === 'MIAF-CLIENT-CAP-ROOT-CLOSED'),
    [],
  );
  assert.deepEqual(lintReport('caps.json', lintCapabilities(JSON.stringify(GOOD), 'caps.json', 'miaf'), 'default').findings, []);
});
