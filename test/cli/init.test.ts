// `wfmck init`: answers from flags (CI) or from a terminal, each checked as it is given the way `wfmck run` reads it
// (asked again with the reason), paths read from the current folder and written for the file's folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { run } from '../../cli/init.ts';
import { resolveConfig } from '../../run/options/config.ts';
import { createRootCa } from '../../protocol/pki.ts';

/** A folder to run init in: a CA, a device CA with its key, another key, and an executable hook script. */
async function workdir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wfmck-init-'));
  const [ca, device, other] = await Promise.all([createRootCa('init test CA'), createRootCa('init device CA'), createRootCa('another CA')]);
  await writeFile(join(dir, 'ca.pem'), ca.certPem);
  await writeFile(join(dir, 'device-ca.pem'), device.certPem);
  await writeFile(join(dir, 'device-ca.key'), device.keyPem);
  await writeFile(join(dir, 'other.key'), other.keyPem);
  await writeFile(join(dir, 'not-a-cert.pem'), 'x');
  await mkdir(join(dir, 'hooks'));
  for (const h of ['hooks/hook.sh', 'hooks/not-executable.sh']) await writeFile(join(dir, h), '#!/bin/sh\necho {}\n');
  await chmod(join(dir, 'hooks/hook.sh'), 0o755);
  return dir;
}

test("flags only (no terminal): paths are read from the current folder and written for the file's folder; wfmck run reads them back", async () => {
  const dir = await workdir();
  await mkdir(join(dir, 'conf', 'certs'), { recursive: true });
  await writeFile(join(dir, 'conf', 'certs', 'ca.pem'), await readFile(join(dir, 'ca.pem')));
  const code = await run(
    [
      '--out',
      'conf/wfmck.config.yaml',
      '--persona',
      'wfm',
      '--edition',
      'miaf',
      '--wfm',
      'https://127.0.0.1:8443',
      '--trust-domain',
      'acme.test',
      '--wfm-id',
      'w1',
      '--ca-file',
      'conf/certs/ca.pem',
      '--ca-file',
      'ca.pem',
      '--component-vendor',
      'Acme',
      '--component-version',
      '2.0.0',
      '--hook',
      'admitClient=./hooks/hook.sh',
    ],
    { interactive: false, cwd: dir },
  );
  assert.equal(code, 0);
  const out = join(dir, 'conf', 'wfmck.config.yaml');
  const yaml = parse(await readFile(out, 'utf8'));
  assert.deepEqual(yaml, {
    persona: 'wfm',
    edition: 'miaf',
    targets: { wfm: 'https://127.0.0.1:8443', trustDomain: 'acme.test', wfmId: 'w1' },
    // Inside the file's folder: relative to it; outside: absolute. A hook named here runs here.
    tls: { caFiles: ['certs/ca.pem', join(dir, 'ca.pem')] },
    component: { vendor: 'Acme', version: '2.0.0' },
    hooks: { admitClient: { command: './hooks/hook.sh', cwd: dir } },
  });
  const config = resolveConfig(['--config', out], {}, tmpdir());
  assert.deepEqual(
    [
      config.persona,
      config.profile.edition,
      config.targets.wfmId,
      config.tls.caFiles,
      config.hooks.admitClient?.command,
      config.hooks.admitClient?.cwd,
    ],
    ['wfm', 'miaf', 'w1', [join(dir, 'conf', 'certs', 'ca.pem'), join(dir, 'ca.pem')], './hooks/hook.sh', dir],
  );
});

test('on a terminal it asks for what no flag gave, in order, with defaults, and the hooks the persona uses', async () => {
  const { code, asked, yaml } = await answered({ Persona: 'identity', 'Identity role': 'https://127.0.0.1:9443', 'Your company': 'Acme' });
  assert.equal(code, 0);
  assert.ok(asked[0]!.startsWith('Persona') && asked[1]!.startsWith('Edition'), asked.join(' | '));
  assert.ok(!asked.some((q) => q.startsWith('WFM base URL')), 'the identity persona is not asked for a WFM');
  assert.deepEqual(hooksAsked(asked), ['rotateTrustAnchor', 'withdrawIdentityDocument'], "the identity role's hooks, each skippable");
  assert.deepEqual(yaml, {
    persona: 'identity',
    edition: 'seed',
    targets: { identity: 'https://127.0.0.1:9443' },
    component: { vendor: 'Acme' },
  });
});

test('each answer is checked as it is given and asked again with the reason: persona, target, CA file, device CA key, hook', async () => {
  const { code, problems, yaml } = await answered({
    Persona: ['wfn', 'wfm'],
    'WFM base URL': ['ftp://wfm.example.com', 'https://127.0.0.1:8443'],
    'PEM file of the CA': ['missing.pem', 'not-a-cert.pem', 'ca.pem'],
    'Device CA certificate': 'device-ca.pem',
    'Its private key': ['other.key', 'device-ca.key'],
    'Command of the hook assignDeployment': ['./hooks/nope.sh', './hooks/not-executable.sh', 'no-such-command-wfmck', './hooks/hook.sh'],
  });
  assert.equal(code, 0);
  assert.deepEqual(
    problems.map(([q]) => q.split(' ').slice(0, 5).join(' ')),
    [
      'Persona your component plays (wfm,',
      'WFM base URL (empty: the',
      'PEM file of the CA',
      'PEM file of the CA',
      'Its private key',
      'Command of the hook assignDeployment:',
      'Command of the hook assignDeployment:',
      'Command of the hook assignDeployment:',
    ],
  );
  const reasons = problems.map(([, p]) => p);
  assert.match(reasons[0]!, /must be one of wfm, device, identity, registry, not "wfn"/);
  assert.match(reasons[1]!, /"ftp:\/\/wfm\.example\.com" is not an http\(s\) URL/);
  assert.match(reasons[2]!, /no such file .*missing\.pem/);
  assert.match(reasons[3]!, /holds no PEM certificate/);
  assert.match(reasons[4]!, /is not the key of/);
  assert.match(reasons[5]!, /nope\.sh, which does not exist/);
  assert.match(reasons[6]!, /not executable \(chmod \+x\)/);
  assert.match(reasons[7]!, /"no-such-command-wfmck", which is not on PATH/);
  assert.deepEqual(yaml, {
    persona: 'wfm',
    edition: 'seed',
    targets: { wfm: 'https://127.0.0.1:8443' },
    tls: { caFiles: ['ca.pem'] },
    deviceCa: { certFile: 'device-ca.pem', keyFile: 'device-ca.key' },
    hooks: { assignDeployment: './hooks/hook.sh' },
  });
});

test('persona wfm: with no device CA the hook that replaces it is asked right after (seed trustClientCertificate, miaf issueClientSvid and admitClient)', async () => {
  const seed = await answered({
    'WFM base URL': 'https://127.0.0.1:8443',
    'Command of the hook trustClientCertificate': './hooks/hook.sh',
  });
  assert.deepEqual(hooksAsked(seed.asked), [
    'trustClientCertificate',
    'assignDeployment',
    'removeDeployment',
    'retireClient',
    'rotateTrustAnchor',
  ]);
  assert.ok(
    seed.asked[seed.asked.findIndex((q) => q.startsWith('Device CA')) + 1]!.includes('trustClientCertificate'),
    seed.asked.join(' | '),
  );
  assert.match(
    seed.asked.find((q) => q.includes('hook retireClient'))!,
    /retires a client relationship/,
  );
  assert.deepEqual(seed.yaml.hooks, { trustClientCertificate: './hooks/hook.sh' });
  const miaf = await answered({
    Edition: 'miaf',
    'WFM base URL': 'https://127.0.0.1:8443',
    'SPIFFE trust domain': 'acme.test',
    '<wfm-id>': 'w1',
  });
  assert.deepEqual(hooksAsked(miaf.asked), [
    'issueClientSvid',
    'admitClient',
    'assignDeployment',
    'removeDeployment',
    'retireClient',
    'rotateTrustAnchor',
  ]);
  const embedded = await answered({});
  assert.deepEqual(hooksAsked(embedded.asked), [], 'the embedded default answers its own hooks');
});

test('refusals write nothing: a target flag that is no http(s) URL, a missing CA file (from the current folder), an existing file without --force, a bad hook', async () => {
  const dir = await workdir();
  const out = join(dir, 'wfmck.config.yaml');
  await assert.rejects(
    run(['--out', out, '--wfm', 'ftp://wfm.example.com'], { interactive: false, cwd: dir }),
    /: --wfm: "ftp:\/\/wfm\.example\.com" is not an http\(s\) URL$/,
  );
  await assert.rejects(
    run(['--out', out, '--wfm', 'https://127.0.0.1:8443', '--ca-file', 'missing.pem'], { interactive: false, cwd: dir }),
    (e: Error) => e.message === `--ca-file: no such file ${join(dir, 'missing.pem')}`,
  );
  await assert.rejects(run(['--out', out, '--hook', 'nope=./x'], { interactive: false, cwd: dir }), /NAME one of/);
  await assert.rejects(
    run(['--out', out, '--hook', 'retireClient=./hooks/missing.sh'], { interactive: false, cwd: dir }),
    /^Error: --hook: retireClient: "\.\/hooks\/missing\.sh" runs .*missing\.sh, which does not exist$/,
  );
  await assert.rejects(
    run(['--out', out, '--wfm', 'https://127.0.0.1:8443', '--device-ca-cert', 'device-ca.pem', '--device-ca-key', 'other.key'], {
      interactive: false,
      cwd: dir,
    }),
    /--device-ca-key: .*other\.key is not the key of/,
  );
  assert.equal(existsSync(out), false);
  await writeFile(out, 'persona: wfm\n');
  await assert.rejects(run(['--out', out], { interactive: false, cwd: dir }), /exists; --force overwrites it/);
  assert.equal(await readFile(out, 'utf8'), 'persona: wfm\n');
});

test('persona device: no targets are asked (the kit is the WFM); the start and stop commands of the client and its other hooks', async () => {
  const { code, asked, yaml } = await answered({
    Persona: 'device',
    'Command that starts': ['./start-client.sh', './hooks/hook.sh'],
    'Command of the hook stopClient': './hooks/hook.sh',
  });
  assert.equal(code, 0);
  assert.ok(!asked.some((q) => /base URL|origin/.test(q)), asked.join(' | '));
  assert.deepEqual(hooksAsked(asked), ['stopClient', 'removeChild', 'disconnectChild', 'changeCapabilities']);
  assert.deepEqual(yaml, { persona: 'device', edition: 'seed', hooks: { startClient: './hooks/hook.sh', stopClient: './hooks/hook.sh' } });
});

test('persona device, attended: answering "attend" (or --attend) writes attend: true and no client hooks; wfmck run reads it', async () => {
  const { code, asked, yaml, out } = await answered({ Persona: 'device', 'Command that starts': 'attend' });
  assert.equal(code, 0);
  assert.deepEqual(hooksAsked(asked), []);
  assert.deepEqual(yaml, { persona: 'device', edition: 'seed', attend: true });
  assert.deepEqual(resolveConfig(['--config', out], {}, tmpdir()).attend, { timeoutMs: 300_000 });
  const flagged = join(await mkdtemp(join(tmpdir(), 'wfmck-init-')), 'wfmck.config.yaml');
  assert.equal(await run(['--out', flagged, '--persona', 'device', '--attend'], { interactive: false }), 0);
  assert.deepEqual(parse(await readFile(flagged, 'utf8')), { persona: 'device', edition: 'seed', attend: true });
});

const hooksAsked = (asked: string[]) => asked.flatMap((q) => /^Command of the hook (\w+)/.exec(q)?.[1] ?? []);

/**
 * `wfmck init` in a fresh `workdir()` on a "terminal" whose user answers each question starting with a key of
 * `replies` (a list: one answer per time it is asked), else takes the default.
 */
async function answered(
  replies: Record<string, string | string[]>,
): Promise<{ code: number; asked: string[]; problems: [string, string][]; yaml: Record<string, unknown>; out: string }> {
  const dir = await workdir();
  const out = join(dir, 'wfmck.config.yaml');
  const asked: string[] = [];
  const problems: [string, string][] = [];
  const times = new Map<string, number>();
  const code = await run(['--out', out], {
    interactive: true,
    cwd: dir,
    ask: async (q, fallback, problem) => {
      asked.push(q);
      if (problem) problems.push([q, problem]);
      const key = Object.keys(replies).find((k) => q.startsWith(k));
      if (!key) return fallback;
      const n = times.get(key) ?? 0;
      times.set(key, n + 1);
      const reply = replies[key]!;
      if (n >= (Array.isArray(reply) ? reply.length : 1)) throw new Error(`asked "${q}" again after the last answer (${problem})`);
      return Array.isArray(reply) ? reply[n] : reply;
    },
  });
  return {
    code,
    asked: asked.filter((q, i) => asked.indexOf(q) === i),
    problems,
    yaml: parse(await readFile(out, 'utf8')) as Record<string, unknown>,
    out,
  };
}
