// deploy/Containerfile builds without a daemon or a registry: Debian's buildah (vfs storage, chroot isolation) from a
// base made of this machine's own Node (deploy/host-node-base.sh), since CI reaches no container registry. The image
// then runs what the Kubernetes manifests run (test/scale/manifest-script.ts), on loopback: the reference WFM Service,
// every shard of the fleet Job against that ONE WFM by its name, and the merge Job; as uid 1000.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chown, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { unusedLoopbackPort } from '../support/ports.ts';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { manifestScript } from './manifest-script.ts';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

const onPath = (name: string) => (process.env.PATH ?? '').split(delimiter).some((dir) => existsSync(join(dir, name)));
const skip = !onPath('buildah')
  ? 'buildah is not installed (apt-get install -y buildah)'
  : process.getuid?.() !== 0
    ? 'buildah with vfs storage and chroot isolation needs root here'
    : false;
if (skip) console.log(`container-image.test.ts skipped: ${skip}`);

/** A host folder bound into the container, writable by the image's uid 1000 as a pod's volume is (fsGroup). */
async function volume(dir: string): Promise<string> {
  await mkdir(dir);
  await chown(dir, 1000, 1000);
  return dir;
}

test(
  'deploy/Containerfile builds FROM a local base, and its image runs the manifests: one WFM, every shard against it, the merge',
  { skip, timeout: 300_000 },
  async () => {
    const store = await mkdtemp(join(tmpdir(), 'wfmck-buildah-'));
    const global = ['--storage-driver', 'vfs', '--root', join(store, 'root'), '--runroot', join(store, 'run')];
    const buildah = (...args: string[]) => run('buildah', [...global, ...args], { cwd: repo, maxBuffer: 64 << 20 });
    const started = Date.now();
    try {
      await run('bash', [join(repo, 'deploy/host-node-base.sh'), 'localhost/wfmck-base:test', ...global]);
      const bud = ['bud', '--isolation', 'chroot', '--layers=false', '--build-arg', 'BASE=localhost/wfmck-base:test'];
      await buildah(...bud, '-f', 'deploy/Containerfile', '-t', 'wfmck:test', '.');
      const buildMs = Date.now() - started;
      const { config } = JSON.parse((await buildah('inspect', '--type', 'image', 'wfmck:test')).stdout).OCIv1;
      assert.deepEqual(config.Entrypoint, ['wfmck']);
      assert.equal(config.User, '1000:1000');

      const m = await manifestScript(await unusedLoopbackPort());
      const [trust, out] = [await volume(join(store, 'trust')), await volume(join(store, 'out'))];
      const ctr = (await buildah('from', 'wfmck:test')).stdout.trim();
      const runArgs = ['run', '--isolation', 'chroot', '-v', `${trust}:/trust`, '-v', `${out}:/out`, ctr, '--', 'sh', '-c', m.script];
      const { stdout } = await buildah(...runArgs).catch((e: { stdout?: string; message: string }) => {
        assert.fail(`the manifests' commands failed in the image: ${e.message}\n${e.stdout ?? ''}`);
      });
      for (let i = 0; i < m.shards; i++) assert.match(stdout, new RegExp(`^pod ${i} exit 0$`, 'm'), stdout);
      const merged = JSON.parse(stdout.slice(stdout.indexOf(`${m.marker}\n`) + m.marker.length + 1));
      assert.equal(merged.complete, true, 'every shard merged');
      assert.equal(merged.passed, true);
      assert.equal(merged.target.wfm, m.wfmUrl, 'the shards loaded the WFM by its name');
      assert.equal(merged.totals.clients.reporting, m.devices, 'every device of the fleet reported to that one WFM');
      assert.equal((await stat(join(out, 'merged', 'fleet-summary.json'))).uid, 1000, 'written as uid 1000');
      const ranS = (Date.now() - started - buildMs) / 1000;
      console.log(`base + image built in ${(buildMs / 1000).toFixed(1)} s; the manifests ran in ${ranS.toFixed(1)} s`);
    } finally {
      await buildah('rm', '--all').catch(() => undefined);
      await rm(store, { recursive: true, force: true });
    }
  },
);
