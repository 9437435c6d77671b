// Issue 7: what `wfmck publish` pushes to Debian's docker-registry passes `wfmck lint` pulled back from it, as a user
// would run the two commands (child processes, the sample folders of fixtures/packages).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { runWfmck as wfmck } from '../support/wfmck-cli.ts';
import { useRealRegistry } from './probe.ts';

const folder = (name: string) => fileURLToPath(new URL(`../../fixtures/packages/${name}`, import.meta.url));
const real = useRealRegistry();

test(
  '§2.7, §4.7: `wfmck publish compose` then `wfmck publish app` to the real registry, and `wfmck lint` passes both pulled back',
  { timeout: 120_000 },
  async () => {
    const { url } = await real.ready();
    const host = new URL(url).host;
    const compose = await wfmck([
      'publish',
      'compose',
      folder('hello-compose'),
      '--registry',
      url,
      '--repository',
      'lint/hello-compose',
      '--version',
      '1.0.0',
      '--chunk-size',
      '512',
    ]);
    assert.equal(compose.code, 0, compose.stderr);
    assert.equal(
      (JSON.parse(compose.stdout) as { reference: string }).reference,
      `oci://${host}/lint/hello-compose:1.0.0`,
      'the reference lint reads',
    );
    const app = await wfmck(['publish', 'app', folder('hello-app'), '--registry', url, '--repository', 'lint/hello-app']);
    assert.equal(app.code, 0, app.stderr);
    const appRef = (JSON.parse(app.stdout) as { reference: string }).reference;

    for (const ref of [`oci://${host}/lint/hello-compose:1.0.0`, appRef]) {
      const lint = await wfmck(['lint', ref, '--json']);
      assert.equal(lint.code, 0, `${ref}: ${lint.stdout}${lint.stderr}`);
      const report = JSON.parse(lint.stdout) as { input: string };
      assert.equal(report.input, ref, 'the JSON report names the reference it judged');
    }
  },
);
