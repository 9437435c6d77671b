// `wfmck serve` as a person runs it: on a terminal it says one line for people (URLs, the CA file, where its files
// are, how to stop), stdout stays the one JSON line scripts read, and Ctrl-C removes the temp folder that held the
// device CA's private key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmux } from '../support/tmux.ts';

const bin = fileURLToPath(new URL('../../bin/wfmck.mjs', import.meta.url));

test(
  'wfmck serve on a terminal: a ready line names the URLs and the CA file; Ctrl-C removes its temp folder',
  { timeout: 120_000 },
  async () => {
    const home = await mkdtemp(join(tmpdir(), 'wfmck-serve-tty-'));
    const t = tmux(`wfmck-serve-${process.pid}`, 'serve');
    try {
      t.start(home, `${process.execPath} ${bin} serve; echo serve-exit=$?; sleep 600`);
      const screen = await t.text(/Ctrl-C stops/);
      const ready = screen.split('\n').find((l) => l.startsWith('wfmck serve: ready:'));
      assert.ok(ready, `no ready line on the terminal:\n${screen}`);
      assert.match(ready, /WFM https:\/\/127\.0\.0\.1:\d+/);
      const folder = /files in (\S+), removed on exit/.exec(ready)?.[1];
      assert.ok(folder, `the ready line names no temp folder: ${ready}`);
      assert.ok(existsSync(join(folder, 'device-ca.key')), 'the device CA key is written to the temp folder while serve runs');
      // The JSON line for scripts is still there, on its own line.
      assert.ok(
        screen.split('\n').some((l) => l.startsWith('{') && l.includes('"wfm"')),
        `no JSON line:\n${screen}`,
      );
      t.keys('C-c');
      await t.text(/serve-exit=0/);
      assert.equal(existsSync(folder), false, `${folder} is still there after Ctrl-C`);
    } finally {
      t.stop();
    }
  },
);
