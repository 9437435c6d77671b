// P4 bundles on the client's side: exactly the manifest's deployment YAMLs, matched by digest (spec/rules/desired-state.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bundleContentFindings, bundleEntryBytes, digestOf } from '../../spec/rules/desired-state.ts';
import type { TarEntry } from '../../spec/rules/compose-archive.ts';

const yaml = (id: string) => new TextEncoder().encode(`kind: ApplicationDeployment\nmetadata:\n  annotations:\n    id: ${id}\n`);
const file = (name: string, content: Uint8Array): TarEntry => ({ name, type: 'file', mode: 0o644, size: content.length, content });
const d1 = yaml('d1');
const d2 = yaml('d2');
const listed = [
  { deploymentId: 'd1', digest: digestOf(d1) },
  { deploymentId: 'd2', digest: digestOf(d2) },
];

test('a bundle of exactly the listed YAMLs (any names, directories aside) has no finding, and yields each by digest', () => {
  const entries = [{ name: 'x/', type: 'directory', mode: 0o755, size: 0 }, file('x/one.yaml', d1), file('two', d2)];
  assert.deepEqual(bundleContentFindings(entries, listed), []);
  assert.deepEqual(bundleEntryBytes(entries, listed[1]!.digest), d2);
  assert.equal(bundleEntryBytes(entries, digestOf(yaml('d3'))), undefined);
});

test('an extra file, a link or a missing deployment is each a finding', () => {
  const extra = bundleContentFindings([file('a', d1), file('b', d2), file('NOTES.txt', new TextEncoder().encode('hi'))], listed);
  assert.deepEqual(
    extra.map((f) => f.rule),
    ['bundle-extra-entry'],
  );
  const link = bundleContentFindings(
    [file('a', d1), file('b', d2), { name: 'c', type: 'symlink', mode: 0o777, size: 0, linkname: 'a' }],
    listed,
  );
  assert.deepEqual(
    link.map((f) => f.rule),
    ['bundle-extra-entry'],
  );
  assert.deepEqual(
    bundleContentFindings([file('a', d1)], listed).map((f) => f.message),
    [`P4: the YAML of deployment d2 (${digestOf(d2)}) is not in the bundle`],
  );
});
