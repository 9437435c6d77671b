// The settings of issue 10's signed reports: the component under test and the signing key, by flag, env and YAML.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig } from '../../run/options/config.ts';
import { runWfmck } from '../support/wfmck-cli.ts';

const opts = { randomSeed: () => 1 };

function folder(yaml: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'wfmck-config-signing-'));
  writeFileSync(join(dir, 'wfmck.config.yaml'), yaml);
  writeFileSync(join(dir, 'signer.pem'), 'not read by the config\n');
  return dir;
}

test('component: YAML under env under flags, field by field; nothing configured is an empty component', () => {
  const cwd = folder('component:\n  vendor: YamlCo\n  name: yaml-wfm\n  version: "1.0"\n');
  const c = resolveConfig(['--component-version', '3.0'], { WFMCK_COMPONENT_NAME: 'env-wfm' }, cwd, opts);
  assert.deepEqual(c.component, { vendor: 'YamlCo', name: 'env-wfm', version: '3.0' });
  assert.deepEqual(resolveConfig([], {}, folder(''), opts).component, {});
});

test('signing: --sign alone makes a key for the run, a keyFile (YAML, relative to it) signs on its own, no setting no signing', () => {
  const cwd = folder('signing:\n  keyFile: signer.pem\n');
  assert.deepEqual(resolveConfig([], {}, cwd, opts).signing, { keyFile: join(cwd, 'signer.pem') });
  assert.deepEqual(resolveConfig(['--sign'], {}, folder(''), opts).signing, {});
  assert.deepEqual(resolveConfig([], { WFMCK_SIGN: 'true' }, folder(''), opts).signing, {});
  assert.equal(resolveConfig([], {}, folder(''), opts).signing, undefined);
});

test('signing: a certificate without its key, or a sign value that is not a boolean, is a usage error', () => {
  const cwd = folder('signing:\n  certFile: signer.pem\n');
  assert.throws(
    () => resolveConfig([], {}, cwd, opts),
    (e: Error & { code?: string }) => e.code === 'WFMCK_E_USAGE' && /give the signing.keyFile/.test(e.message),
  );
  assert.throws(() => resolveConfig([], { WFMCK_SIGN: 'maybe' }, folder(''), opts), /WFMCK_SIGN: expected true or false/);
});

test('wfmck run with a signing key that is not a P-256 PEM key exits 2 before anything runs', { timeout: 30_000 }, async () => {
  const cwd = folder('');
  const r = await runWfmck(['run', '--signing-key', join(cwd, 'signer.pem'), '--out', join(cwd, 'out')]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /signing\.keyFile: \S*signer\.pem is not a PEM private key/);
  assert.doesNotMatch(r.stdout, /embedded reference services/);
});
