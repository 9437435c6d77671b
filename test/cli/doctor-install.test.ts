// doctor --tests on a machine without the Debian packages: root with apt-get installs them, anyone else is told
// the one command. The machine is injected, so no test runs apt-get.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { installMissing, planInstall, type InstallSeams, type NeededPackage } from '../../cli/doctor-install.ts';

const pkgs = (missing: string[], installable = true): NeededPackage[] =>
  ['chromium', 'docker-registry', 'tmux'].map((pkg) => ({ pkg, present: !missing.includes(pkg), installable }));

function machine(uid: number | undefined, hasApt: boolean, aptCode = 0) {
  const calls: string[][] = [];
  const notices: string[] = [];
  const seams: InstallSeams = {
    uid,
    which: (cmd) => cmd === 'apt-get' && hasApt,
    apt: async (p) => (calls.push([...p]), aptCode),
    notice: (l) => void notices.push(l),
  };
  return { seams, calls, notices };
}

test('root with apt-get installs exactly the missing packages, saying so in one line', async () => {
  const m = machine(0, true);
  assert.equal(await installMissing(pkgs(['chromium', 'tmux']), m.seams), undefined);
  assert.deepEqual(m.calls, [['chromium', 'tmux']]);
  assert.deepEqual(m.notices, ["wfmck doctor: installing chromium tmux (apt-get, as root) for the kit's own tests ..."]);
});

test('not root: nothing runs; the one command names only the missing packages, with sudo', async () => {
  const m = machine(1000, true);
  assert.equal(await installMissing(pkgs(['docker-registry', 'tmux']), m.seams), 'sudo apt-get install -y docker-registry tmux');
  assert.deepEqual(m.calls, []);
  assert.deepEqual(m.notices, []);
});

test('root without apt-get (not Debian) or a platform without uids: nothing runs, the command is named', async () => {
  const noApt = machine(0, false);
  assert.equal(await installMissing(pkgs(['chromium']), noApt.seams), 'apt-get install -y chromium');
  assert.deepEqual(noApt.calls, []);
  assert.deepEqual(planInstall(pkgs(['chromium']), machine(undefined, true).seams), {
    kind: 'advise',
    command: 'sudo apt-get install -y chromium',
  });
});

test('nothing missing: nothing runs; a binary path overridden by env is never "fixed" by apt-get', async () => {
  const m = machine(0, true);
  assert.equal(await installMissing(pkgs([]), m.seams), undefined);
  assert.deepEqual(planInstall(pkgs(['chromium'], false), m.seams), { kind: 'advise', command: 'apt-get install -y chromium' });
  assert.deepEqual(m.calls, []);
});

test('apt-get fails: its exit code is said and the command is still named', async () => {
  const m = machine(0, true, 100);
  assert.equal(await installMissing(pkgs(['tmux']), m.seams), 'apt-get install -y tmux');
  assert.deepEqual(m.notices.at(-1), 'wfmck doctor: apt-get exited 100');
});
