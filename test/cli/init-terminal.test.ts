// `wfmck init` on a real terminal (tmux): a newcomer mistypes the persona and a hook, is asked again with the reason,
// answers the rest against `wfmck serve` with paths from their own folder, and `wfmck run --config` takes the file
// from another folder and certifies CAP-PUT-201.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, copyFile, mkdir, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { tmux } from '../support/tmux.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'bin', 'wfmck.mjs');

test(
  'wfmck init on a terminal: a mistyped persona and hook are asked again; the file it writes runs CAP-PUT-201 against wfmck serve',
  { timeout: 240_000 },
  async () => {
    const home = await mkdtemp(join(tmpdir(), 'wfmck-init-tty-'));
    await mkdir(join(home, 'hooks'));
    await copyFile(join(root, 'examples/hooks/serve-admin.sh'), join(home, 'hooks/admin.sh'));
    await chmod(join(home, 'hooks/admin.sh'), 0o755);
    const serve = spawn(process.execPath, [bin, 'serve', '--state-dir', join(home, 'state')], { stdio: ['ignore', 'pipe', 'pipe'] });
    const t = tmux(`wfmck-init-${process.pid}`, 'init');
    try {
      const [line] = (await once(createInterface({ input: serve.stdout }), 'line')) as [string];
      const served = JSON.parse(line) as Record<string, string>;
      t.start(home, `${process.execPath} ${bin} init --out conf/wfmck.config.yaml; echo init-exit=$?; sleep 600`);

      await t.question('Persona your component plays');
      t.type('wfn');
      const again = await t.question('Persona your component plays', 2);
      assert.match(again, /not taken: .*must be one of wfm, device, identity, registry, not "wfn"/);
      t.type('wfm');
      await t.question('Edition of the standard');
      t.type('');
      for (const [q, answer] of [
        ['WFM base URL', served.wfm],
        ['Identity role origin', served.identity],
        ['OCI registry base URL', served.registry],
        ['PEM file of the CA', 'state/ca.pem'],
        ['Device CA certificate', 'state/device-ca.pem'],
        ['Its private key', 'state/device-ca.key'],
      ] as const) {
        await t.question(q);
        t.type(answer!);
      }
      await t.question('Command of the hook assignDeployment');
      t.type('hooks/asign.sh');
      assert.match(
        await t.question('Command of the hook assignDeployment', 2),
        /not taken: "hooks\/asign\.sh" runs .*asign\.sh, which does not exist/,
      );
      t.type('hooks/admin.sh');
      for (const hook of ['removeDeployment', 'retireClient', 'rotateTrustAnchor', 'withdrawIdentityDocument']) {
        await t.question(`Command of the hook ${hook}`);
        t.type(hook === 'withdrawIdentityDocument' ? '' : 'hooks/admin.sh');
      }
      for (const [q, answer] of [
        ['Vendor token', ''],
        ['Your company', 'Acme'],
        ["Your component's name", 'acme-wfm'],
        ['Its version', '2.4.1'],
      ] as const) {
        await t.question(q);
        t.type(answer);
      }
      await t.text(/init-exit=0/);

      const file = join(home, 'conf', 'wfmck.config.yaml');
      const yaml = parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      const hook = { command: 'hooks/admin.sh', cwd: home };
      assert.deepEqual(yaml, {
        persona: 'wfm',
        edition: 'seed',
        targets: { wfm: served.wfm, identity: served.identity, registry: served.registry },
        tls: { caFiles: [join(home, 'state/ca.pem')] },
        deviceCa: { certFile: join(home, 'state/device-ca.pem'), keyFile: join(home, 'state/device-ca.key') },
        component: { vendor: 'Acme', name: 'acme-wfm', version: '2.4.1' },
        hooks: { assignDeployment: hook, removeDeployment: hook, retireClient: hook, rotateTrustAnchor: hook },
      });

      // From another folder, as CI would: the paths and hooks resolve from the file.
      const env = { ...process.env, WFMCK_ADMIN: served.admin, WFMCK_ADMIN_TOKEN: served.adminToken };
      const run = spawn(process.execPath, [bin, 'run', '--config', file, '--grep', 'CAP-PUT-201', '--out', join(home, 'out')], {
        cwd: tmpdir(),
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      run.stdout.on('data', (d) => (output += d));
      run.stderr.on('data', (d) => (output += d));
      const [code] = await once(run, 'exit');
      assert.equal(code, 0, output);
      const report = JSON.parse(await readFile(join(home, 'out', 'conformance.json'), 'utf8')) as {
        requirements: { id: string; status: string }[];
      };
      assert.equal(report.requirements.find((r) => r.id === 'CAP-PUT-201')?.status, 'pass');
    } finally {
      t.stop();
      serve.kill('SIGTERM');
    }
  },
);
