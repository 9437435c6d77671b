// A valid application package (description and resource files) and compose folder for the lint tests.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const DESCRIPTION = `apiVersion: platform.org/v1-alpha1
kind: ApplicationDescription
metadata:
  id: com-example-hello
  name: Hello
  version: 1.2.0
  catalog:
    application:
      icon: resources/icon.png
      releaseNotes: resources/release-notes.md
      licenseFile: resources/license.txt
deploymentProfiles:
  - type: compose
    components:
      - name: hello
        properties:
          repository: oci://registry.example.com/hello-compose
          revision: 1.0.0
`;

export const RESOURCES: Record<string, string> = {
  'resources/icon.png': '\u0089PNG fake icon',
  'resources/release-notes.md': '# 1.2.0\n',
  'resources/license.txt': 'Apache-2.0\n',
};

/** A fresh temporary directory, removed when the test `t` ends. */
export async function tempDir(t: { after(fn: () => Promise<void>): void }, prefix = 'wfmck-lint-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** The package as a folder in a fresh temporary directory (description at `app.yaml`), removed after the test. */
export async function writePackageFolder(
  t: Parameters<typeof tempDir>[0],
  description = DESCRIPTION,
  resources = RESOURCES,
): Promise<string> {
  const dir = await tempDir(t, 'wfmck-lint-pkg-');
  for (const [path, text] of Object.entries({ 'app.yaml': description, ...resources })) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}
