// One process of test/run/shared-lock.test.ts: takes the locks asked for, logs when it holds them, holds, and releases
// them (or with `die`, dies holding them, as a crashed worker does).
// argv: dir, requests ("write:a,read:b"), holdMs, log file, name, times, [die]
import { appendFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { acquireAll, type LockRequest } from '../../run/processes/shared-lock.ts';

const [dir, spec, holdMs, log, name, times, die] = process.argv.slice(2) as [string, string, string, string, string, string, string?];
const requests = spec.split(',').map((s) => {
  const [mode, resource] = s.split(':') as [LockRequest['mode'], string];
  return { mode, resource };
});
for (let i = 0; i < Number(times); i++) {
  const release = await acquireAll(requests, { dir, owner: name, timeoutMs: 20_000, pollMs: 5 });
  appendFileSync(log, `${name} start ${Date.now()}\n`);
  process.stdout.write('holding\n');
  if (die) await sleep(60_000);
  await sleep(Number(holdMs));
  appendFileSync(log, `${name} end ${Date.now()}\n`);
  release();
}
