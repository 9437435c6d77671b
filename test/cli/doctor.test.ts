// `wfmck doctor`: one line per need with the command that fixes it; npm test starts with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { runWfmck } from '../support/wfmck-cli.ts';

test(
  'a machine without Chromium: --tests names the install line and exits 1; without --tests a run needs no browser',
  { timeout: 60_000 },
  async () => {
    const env = { WFMCK_CHROMIUM_BIN: '/nonexistent/chromium' };
    const tests = await runWfmck(['doctor', '--tests'], env);
    assert.equal(tests.code, 1, tests.stdout);
    assert.match(tests.stdout, /^FAIL {2}Chromium .*\/nonexistent\/chromium is missing\n {8}fix: (sudo )?apt-get install -y chromium$/m);
    // The path is the user's, not Debian's: even as root with apt-get, doctor installs nothing.
    assert.doesNotMatch(tests.stdout, /installing/);
    assert.match(tests.stdout, /^wfmck doctor: 1 problem$/m);
    const run = await runWfmck(['doctor'], env);
    assert.equal(run.code, 0, run.stdout);
    assert.doesNotMatch(run.stdout, /Chromium/);
  },
);

test(
  'a target that accepts connections passes; one that refuses them fails, naming it; a missing hook file names the setting',
  { timeout: 60_000 },
  async (t) => {
    const server = createServer((s) => s.end());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    t.after(() => server.close());
    const port = (server.address() as { port: number }).port;
    const up = await runWfmck(['doctor', '--registry', `http://127.0.0.1:${port}`]);
    assert.equal(up.code, 0, up.stdout);
    assert.match(up.stdout, new RegExp(`^ok {4}registry http://127\\.0\\.0\\.1:${port} accepts connections$`, 'm'));
    const down = await runWfmck(['doctor', '--wfm', 'https://127.0.0.1:9'], { WFMCK_HOOK_RETIRE_CLIENT: './no-such-hook.sh' });
    assert.equal(down.code, 1);
    assert.match(down.stdout, /^FAIL {2}WFM https:\/\/127\.0\.0\.1:9: connection refused$/m);
    assert.match(down.stdout, /^FAIL {2}hooks\.retireClient: "\.\/no-such-hook\.sh" /m);
  },
);

test('npm test starts with wfmck doctor --tests, so a missing package stops it before anything long', () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: { test: string } };
  assert.match(pkg.scripts.test, /^node bin\/wfmck\.mjs doctor --tests && /);
});
