// The device persona through command hooks, as a vendor runs it: examples/hooks/ start the client under test in a
// process of its own (here the kit's own, `wfmck client`) and stop it, keeping its disk across a restart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runWfmck } from '../support/wfmck-cli.ts';

const hooks = join(fileURLToPath(new URL('../../', import.meta.url)), 'examples', 'hooks');

interface Report {
  clientUnderTest?: string;
  requirements: { id: string; status: string; reason?: string }[];
}

/** The `wfmck client` processes still running with a folder under `dir`. */
const clientsAlive = (dir: string) =>
  execSync('ps -eo args', { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.includes('wfmck.mjs client ') && l.includes(dir));

const control = join(hooks, 'client-control.sh');
const cases = [
  {
    edition: 'seed',
    grep: 'CAP-FIRST-EXCHANGE after|AMV-RESYNC|GW-SEETHRU-DELETE-CHILD',
    pass: ['CAP-FIRST-EXCHANGE', 'AMV-RESYNC', 'GW-SEETHRU-DELETE-CHILD', 'CAP-DELETE-NO-BODY'],
    env: { WFMCK_HOOK_REMOVE_CHILD: control, WFMCK_HOOK_DISCONNECT_CHILD: control, WFMCK_HOOK_CHANGE_CAPABILITIES: control },
    skip: [],
  },
  // A keep-state restart: the cached trust bundle survives the process in the --state folder. No changeCapabilities
  // hook: the embedded one acts on the kit's in-process client only, so the check skips naming the hook it needs.
  {
    edition: 'miaf',
    grep: 'BUNDLE-CACHE-LOCAL|CAP-UPDATE-ON-CHANGE',
    pass: ['BUNDLE-CACHE-LOCAL'],
    env: {},
    skip: ['CAP-UPDATE-ON-CHANGE'],
  },
] as const;

for (const c of cases) {
  test(
    `hooks of examples/hooks, edition ${c.edition}: a client in its own process is judged; restarts keep or lose its disk; none outlives the run`,
    { timeout: 180_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'wfmck-hooks-'));
      const out = join(dir, 'out');
      const r = await runWfmck(['run', '--persona', 'device', '--edition', c.edition, '--grep', c.grep, '--seed', '3', '--out', out], {
        TMPDIR: dir,
        WFMCK_CLIENT_STATE: join(dir, 'state'),
        WFMCK_HOOK_START_CLIENT: join(hooks, 'start-client.sh'),
        WFMCK_HOOK_STOP_CLIENT: join(hooks, 'stop-client.sh'),
        ...c.env,
      });
      assert.equal(r.code, 0, r.stdout + r.stderr);
      const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as Report;
      const of = (id: string) => report.requirements.find((q) => q.id === id);
      assert.equal(report.clientUnderTest, 'hook');
      assert.deepEqual(
        c.pass.map((id) => `${id} ${of(id)?.status}`),
        c.pass.map((id) => `${id} pass`),
      );
      for (const id of c.skip) assert.match(`${of(id)?.status} ${of(id)?.reason}`, /^skip .*needs hook changeCapabilities/);
      assert.ok(readdirSync(join(dir, 'state')).length > 0, 'the clients kept their disks in WFMCK_CLIENT_STATE');
      assert.deepEqual(clientsAlive(dir), [], 'stopClient ended every client it started');
    },
  );
}
