// `wfmck init`: answers from flags (CI) or from a terminal, checked like `wfmck run` reads them, then written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { run } from '../../cli/init.ts';
import { resolveConfig } from '../../run/config.ts';

test('flags only (no terminal): the file holds exactly what was given, and wfmck run reads it back', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'wfmck-init-'));
  await writeFile(join(dir, 'ca.pem'), 'x');
  const out = join(dir, 'wfmck.config.yaml');
  const code = await run(['--out', out, '--persona', 'wfm', '--edition', 'miaf', '--wfm', 'https://127.0.0.1:8443', '--trust-domain', 'acme.test', '--wfm-id', 'w1',
    '--ca-file', 'ca.pem', '--component-vendor', 'Acme', '--component-version', '2.0.0', '--hook', 'admitClient=./admit.sh'], { interactive: false });
  assert.equal(code, 0);
  const yaml = parse(await readFile(out, 'utf8'));
  assert.deepEqual(yaml, {
    persona: 'wfm', edition: 'miaf', targets: { wfm: 'https://127.0.0.1:8443', trustDomain: 'acme.test', wfmId: 'w1' }, tls: { caFiles: ['ca.pem'] },
    component: { vendor: 'Acme', version: '2.0.0' }, hooks: { admitClient: './admit.sh' },
  });
  const config = resolveConfig(['--config', out], {}, dir);
  assert.deepEqual([config.persona, config.profile.edition, config.targets.wfmId, config.hooks.admitClient?.command], ['wfm', 'miaf', 'w1', './admit.sh']);
});

test('on a terminal it asks for what no flag gave, in order, with defaults', async () => {
  const { code, asked, out } = await answered({ Persona: 'identity', 'Identity role': 'https://127.0.0.1:9443', 'Your company': 'Acme' });
  assert.equal(code, 0);
  assert.ok(asked[0]!.startsWith('Persona') && asked[1]!.startsWith('Edition'), asked.join(' | '));
  assert.ok(!asked.some((q) => q.startsWith('WFM base URL')), 'the identity persona is not asked for a WFM');
  const yaml = parse(await readFile(out, 'utf8'));
  assert.deepEqual(yaml, { persona: 'identity', edition: 'seed', targets: { identity: 'https://127.0.0.1:9443' }, component: { vendor: 'Acme' } });
});

test('refusals write nothing: a non-loopback target (a flag by its name, an answer in the real file), a missing CA file, an existing file without --force, a bad hook', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'wfmck-init-'));
  const out = join(dir, 'wfmck.config.yaml');
  await assert.rejects(run(['--out', out, '--wfm', 'https://wfm.example.com'], { interactive: false }), /: --wfm: wfm\.example\.com is not on a loopback address; the kit only ever sends traffic to 127\.0\.0\.0\/8, ::1 or localhost$/);
  await assert.rejects(run(['--out', out, '--wfm', 'https://127.0.0.1:8443', '--ca-file', 'missing.pem'], { interactive: false }), (e: Error) => e.message === `--ca-file: no such file ${join(dir, 'missing.pem')}`);
  await assert.rejects(answered({ 'WFM base URL': 'https://wfm.example.com' }), /\/wfmck\.config\.yaml targets\.wfm: wfm\.example\.com is not on a loopback address; .*\(nothing written\)$/);
  assert.equal(existsSync(out), false);
  await assert.rejects(run(['--out', out, '--hook', 'nope=./x'], { interactive: false }), /NAME one of/);
  await writeFile(out, 'persona: wfm\n');
  await assert.rejects(run(['--out', out], { interactive: false }), /exists; --force overwrites it/);
  assert.equal(await readFile(out, 'utf8'), 'persona: wfm\n');
});

test('persona device: no targets are asked (the kit is the WFM); the start and stop commands of the client become its hooks', async () => {
  const { code, asked, out } = await answered({ Persona: 'device', 'Command that starts': './start-client.sh', 'Command that stops': './stop-client.sh' });
  assert.equal(code, 0);
  assert.ok(!asked.some((q) => /base URL|origin/.test(q)), asked.join(' | '));
  const yaml = parse(await readFile(out, 'utf8'));
  assert.deepEqual(yaml, { persona: 'device', edition: 'seed', hooks: { startClient: './start-client.sh', stopClient: './stop-client.sh' } });
});

test('persona device, attended: answering "attend" (or --attend) writes attend: true and no client hooks; wfmck run reads it', async () => {
  const { code, asked, out } = await answered({ Persona: 'device', 'Command that starts': 'attend' });
  assert.equal(code, 0);
  assert.ok(!asked.some((q) => q.startsWith('Command that stops')), asked.join(' | '));
  assert.deepEqual(parse(await readFile(out, 'utf8')), { persona: 'device', edition: 'seed', attend: true });
  assert.deepEqual(resolveConfig(['--config', out], {}, tmpdir()).attend, { timeoutMs: 300_000 });
  const flagged = join(await mkdtemp(join(tmpdir(), 'wfmck-init-')), 'wfmck.config.yaml');
  assert.equal(await run(['--out', flagged, '--persona', 'device', '--attend'], { interactive: false }), 0);
  assert.deepEqual(parse(await readFile(flagged, 'utf8')), { persona: 'device', edition: 'seed', attend: true });
});

/** `wfmck init` on a "terminal" whose user answers each question starting with a key of `replies` (else the default). */
async function answered(replies: Record<string, string>): Promise<{ code: number; asked: string[]; out: string }> {
  const out = join(await mkdtemp(join(tmpdir(), 'wfmck-init-')), 'wfmck.config.yaml');
  const asked: string[] = [];
  const code = await run(['--out', out], {
    interactive: true,
    ask: async (q, fallback) => {
      asked.push(q);
      const key = Object.keys(replies).find((k) => q.startsWith(k));
      return key ? replies[key] : fallback;
    },
  });
  return { code, asked, out };
}
