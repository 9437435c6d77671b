// `wfmck lint` of an application package folder: what `wfmck publish app` would push, judged by §2.7 and §9.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LintInputError } from '../../spec/lint/input.ts';
import { lintPackageFolder, type PackageFolder } from '../../spec/lint/package-folder.ts';
import { exitCodeOf, lintReport } from '../../spec/lint/report.ts';
import { DESCRIPTION, RESOURCES } from './fixtures.ts';

function folder(description = DESCRIPTION, paths = Object.keys(RESOURCES), extraYaml: Record<string, string> = {}): PackageFolder {
  const yaml = { 'app.yaml': description, ...extraYaml };
  return { paths: [...Object.keys(yaml), ...paths], yamlTexts: new Map(Object.entries(yaml)) };
}
const lint = (f: PackageFolder) => lintReport('pkg', lintPackageFolder(f, 'platform'), 'default');
const ids = (f: PackageFolder) => lint(f).findings.map((x) => x.requirement);

test('§2.7: a complete folder passes and the note lists the layers the package would have', () => {
  const report = lint(folder());
  assert.deepEqual(report.findings, []);
  assert.equal(exitCodeOf(report), 0);
  assert.match(report.notes[0]!, /tagged 1\.2\.0/);
  assert.match(report.notes[0]!, /icon resources\/icon\.png \(application\/vnd\.platform\.app\.icon\.v1\+png\)/);
});

const DEFECTS: [string, PackageFolder, string][] = [
  ['no description at all', { paths: Object.keys(RESOURCES), yamlTexts: new Map() }, 'PKG-ONE-DESCRIPTION-LAYER'],
  ['a description that is not YAML', folder('metadata: [unclosed'), 'PKG-ONE-DESCRIPTION-LAYER'],
  ['no metadata.version', folder(DESCRIPTION.replace('  version: 1.2.0\n', '')), 'PKG-TAG-EQUALS-VERSION'],
  ['a version that cannot be an OCI tag', folder(DESCRIPTION.replace('version: 1.2.0', 'version: "1.2 beta"')), 'PKG-TAG-EQUALS-VERSION'],
  ['a listed resource that is missing', folder(DESCRIPTION, Object.keys(RESOURCES).slice(1)), 'PKG-RESOURCE-LAYER'],
  ['a resource outside the folder', folder(DESCRIPTION.replace('resources/license.txt', '../license.txt')), 'PKG-RESOURCE-LAYER'],
  [
    'an icon in a format the kit does not know',
    folder(DESCRIPTION.replace('icon.png', 'icon.bmp'), ['resources/icon.bmp', ...Object.keys(RESOURCES).slice(1)]),
    'PKG-RESOURCE-LAYER',
  ],
  ['a resource path that is not a string', folder(DESCRIPTION.replace('icon: resources/icon.png', 'icon: 7')), 'PKG-RESOURCES-LISTED'],
  [
    'a component repository that is not oci://',
    folder(DESCRIPTION.replace('oci://registry.example.com/hello-compose', 'https://registry.example.com/hello')),
    'PKG-COMPONENT-REPOSITORY-OCI',
  ],
  [
    'a component revision with a leading v',
    folder(DESCRIPTION.replace('revision: 1.0.0', 'revision: v1.0.0')),
    'PKG-COMPONENT-REVISION-SEMVER',
  ],
];

for (const [what, f, id] of DEFECTS) {
  test(`${id}: ${what} is a failing finding`, () => {
    const report = lint(f);
    assert.ok(
      report.findings.some((x) => x.requirement === id),
      JSON.stringify(report.findings),
    );
    assert.equal(exitCodeOf(report), 1);
  });
}

test('findings name the description file and the field', () => {
  const [f] = lint(folder(DESCRIPTION, Object.keys(RESOURCES).slice(1))).findings;
  assert.equal(f?.file, 'app.yaml');
  assert.equal(f?.path, '/metadata/catalog/application/icon');
});

test('several top-level YAML files: the user names the description (--app-description), never a guess', () => {
  const two = folder(DESCRIPTION, Object.keys(RESOURCES), { 'other.yaml': 'a: 1\n' });
  assert.throws(() => lintPackageFolder(two, 'platform'), LintInputError);
  assert.deepEqual(ids({ ...two, description: 'app.yaml' }), []);
  assert.throws(() => lintPackageFolder({ ...two, description: 'nope.yaml' }, 'platform'), /no such YAML file/);
});

test('the vendor token (P1) builds the media types the note shows', () => {
  const result = lintPackageFolder(folder(), 'margo');
  assert.match(result.notes[0]!, /application\/vnd\.margo\.app\.description\.v1\+yaml/);
});
