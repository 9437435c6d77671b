// `wfmck faults --list | head`: a reader that stops early closes the pipe, and the command still ends as it would have
// (exit 0, nothing on stderr), not with an unhandled EPIPE and Node's stack trace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { WFMCK_BIN } from '../support/wfmck-cli.ts';

test('a stdout closed before the listing is written: exit 0, nothing on stderr', async () => {
  const child = spawn(process.execPath, [WFMCK_BIN, 'faults', '--list'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  // Closed at once: the listing's first write meets a pipe nobody reads.
  child.stdout.destroy();
  const [code] = (await once(child, 'exit')) as [number | null];
  assert.deepEqual([code, stderr], [0, '']);
});
