// The one typed config of `wfmck run`: flags > env > YAML > default, every bad value a one-line usage error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { isLoopbackHost, namesTargets, redactedConfig, resolveConfig, type Config } from '../../run/options/config.ts';
import { SEED_PROFILE } from '../../spec/profile.ts';

const now = new Date('2025-01-02T03:04:05.678Z');
const opts = { now, randomSeed: () => 4242 };

function folder(yaml?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'wfmck-config-'));
  if (yaml !== undefined) writeFileSync(join(dir, 'wfmck.config.yaml'), yaml);
  return dir;
}

function usage(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (e: Error & { code?: string }) => {
    assert.equal(e.code, 'WFMCK_E_USAGE');
    assert.doesNotMatch(e.message, /\n/, 'a one-line reason');
    assert.match(e.message, pattern);
    return true;
  });
}

test('defaults: embedded targets, seed profile, default strictness with 100 runs, a random seed, a timestamped out', () => {
  const cwd = folder();
  const c = resolveConfig([], {}, cwd, opts);
  assert.equal(c.targets.wfm, undefined);
  assert.equal(c.targets.registryRepository, 'wfmck/conformance');
  assert.deepEqual(c.profile, SEED_PROFILE);
  assert.equal(c.strictness, 'default');
  assert.equal(c.runs, 100);
  assert.equal(c.seed, 4242);
  assert.equal(c.workers, 2);
  assert.deepEqual(c.hooks, {});
  assert.equal(c.out, join(cwd, 'reports', 'out', '2025-01-02T03-04-05-678Z'));
  assert.equal(c.configFile, undefined);
});

test('precedence: a flag beats env, env beats YAML, YAML beats the default', () => {
  const cwd = folder('strictness: lenient\nseed: 1\n');
  const env = { WFMCK_STRICTNESS: 'strict', WFMCK_SEED: '2' };
  const all = resolveConfig(['--strictness', 'default', '--seed', '3'], env, cwd, opts);
  assert.deepEqual([all.strictness, all.seed], ['default', 3]);
  const noFlag = resolveConfig([], env, cwd, opts);
  assert.deepEqual([noFlag.strictness, noFlag.seed], ['strict', 2]);
  const yamlOnly = resolveConfig([], {}, cwd, opts);
  assert.deepEqual([yamlOnly.strictness, yamlOnly.seed], ['lenient', 1]);
  assert.equal(resolveConfig([], { WFMCK_STRICTNESS: '' }, cwd, opts).strictness, 'lenient', 'an empty env variable is unset');
});

test('runs follow strictness (25 / 100 / 500) unless --runs is given; the profile carries the strictness', () => {
  const cwd = folder();
  assert.equal(resolveConfig(['--strictness', 'lenient'], {}, cwd, opts).runs, 25);
  const strict = resolveConfig(['--strictness', 'strict'], {}, cwd, opts);
  assert.deepEqual([strict.runs, strict.profile.strictness], [500, 'strict']);
  assert.equal(resolveConfig(['--strictness=strict', '--runs', '7'], {}, cwd, opts).runs, 7);
});

test('a full YAML file: targets, TLS and device CA paths relative to the file, profile values, hooks in both forms', () => {
  const dir = folder();
  const sub = join(dir, 'conf');
  mkdirSync(sub);
  for (const f of ['ca.pem', 'dca.pem', 'dca.key']) writeFileSync(join(sub, f), 'x');
  const file = join(sub, 'run.yaml');
  writeFileSync(
    file,
    [
      'targets:',
      '  wfm: https://127.0.0.1:8443/',
      '  identity: https://localhost:9443',
      '  registry: http://[::1]:5000',
      '  registryRepository: acme/apps',
      'tls:',
      '  caFiles: [ca.pem]',
      'deviceCa:',
      '  certFile: dca.pem',
      '  keyFile: dca.key',
      'profile:',
      '  vendor: margo',
      '  paths: client-scoped',
      '  hookTimeoutMs: 5000',
      'hooks:',
      '  retireClient: ./retire.sh',
      '  rotateTrustAnchor: { command: ./rotate.sh, timeoutMs: 90000 }',
      'grep: CAP-',
      'workers: 1',
    ].join('\n'),
  );
  const c = resolveConfig(['--config', file], {}, dir, opts);
  assert.deepEqual(c.targets, {
    wfm: 'https://127.0.0.1:8443',
    identity: 'https://localhost:9443',
    discovery: undefined,
    trustBundleUri: undefined,
    registry: 'http://[::1]:5000',
    registryRepository: 'acme/apps',
  });
  assert.deepEqual(c.tls.caFiles, [join(sub, 'ca.pem')]);
  assert.deepEqual(c.deviceCa, { certFile: join(sub, 'dca.pem'), keyFile: join(sub, 'dca.key') });
  assert.equal(c.profile.vendor, 'margo');
  assert.equal(c.profile.paths, 'client-scoped');
  assert.deepEqual(c.hooks, {
    // Hooks run in the folder of the YAML that names them.
    retireClient: { kind: 'command', command: './retire.sh', timeoutMs: 5000, cwd: sub },
    rotateTrustAnchor: { kind: 'command', command: './rotate.sh', timeoutMs: 90000, cwd: sub },
  });
  assert.deepEqual([c.grep, c.workers, c.configFile], ['CAP-', 1, file]);
});

test('hooks and profile values from env names', () => {
  const c = resolveConfig(
    [],
    { WFMCK_HOOK_TRUST_CLIENT_CERTIFICATE: './trust.sh', WFMCK_PROFILE_QUANTITY_FORMAT: 'compact' },
    folder(),
    opts,
  );
  assert.equal(c.hooks.trustClientCertificate?.command, './trust.sh');
  assert.equal(c.profile.quantityFormat, 'compact');
});

test('an unknown YAML key is a usage error naming the key', () => {
  usage(() => resolveConfig([], {}, folder('targets:\n  wfmm: https://127.0.0.1:1\n'), opts), /unknown key "targets\.wfmm"/);
  usage(() => resolveConfig([], {}, folder('hooks:\n  deployEverything: ./x.sh\n'), opts), /unknown key "hooks\.deployEverything"/);
  usage(() => resolveConfig([], {}, folder('hooks:\n  retireClient: { command: x, retries: 2 }\n'), opts), /unknown key "retries"/);
  usage(() => resolveConfig([], {}, folder('colour: blue\n'), opts), /unknown key "colour"/);
});

test('bad values are usage errors with the source and a one-line reason', () => {
  const cwd = folder();
  usage(() => resolveConfig(['--strictness', 'pedantic'], {}, cwd, opts), /^--strictness: must be one of strict, default, lenient/);
  usage(() => resolveConfig([], { WFMCK_STRICTNESS: 'pedantic' }, cwd, opts), /^WFMCK_STRICTNESS: must be one of/);
  usage(() => resolveConfig(['--runs', '0'], {}, cwd, opts), /--runs: must be at least 1/);
  usage(() => resolveConfig(['--seed', 'abc'], {}, cwd, opts), /--seed: expected an integer/);
  usage(() => resolveConfig(['--seed', String(2 ** 31)], {}, cwd, opts), /32-bit/);
  usage(() => resolveConfig(['--grep', '(['], {}, cwd, opts), /--grep: not a regular expression/);
  usage(() => resolveConfig(['--shard', '3/2'], {}, cwd, opts), /--shard: expected i\/n with 1 <= i <= n/);
  assert.deepEqual(resolveConfig(['--shard', '2/3'], {}, cwd, opts).shard, { index: 2, total: 3 });
  assert.equal(resolveConfig(['--kit-registry'], {}, cwd, opts).targets.kitRegistry, true);
  assert.equal(resolveConfig([], { WFMCK_KIT_REGISTRY: '1' }, cwd, opts).targets.kitRegistry, true);
  assert.equal(resolveConfig([], {}, cwd, opts).targets.kitRegistry, undefined);
  usage(() => resolveConfig(['--bogus'], {}, cwd, opts), /bogus/);
  usage(() => resolveConfig(['--config', 'missing.yaml'], {}, cwd, opts), /no such file/);
  usage(() => resolveConfig([], {}, folder('tls:\n  caFiles: [nope.pem]\n'), opts), /tls\.caFiles: no such file/);
  usage(
    () => resolveConfig([], {}, folder('profile:\n  deviceAuth: oauth\n'), opts),
    /profile\.deviceAuth: must be one of signature, mtls, none/,
  );
  usage(() => resolveConfig([], {}, folder('targets: [1]\n'), opts), /targets must be a mapping/);
  // A YAML syntax error is the one reason given on three lines: where, the line itself, a caret (test below).
  assert.throws(
    () => resolveConfig([], {}, folder('targets: {wfm: [\n'), opts),
    /wfmck\.config\.yaml:\d+:\d+: not valid YAML: .*\n\| .*\n\| *\^$/,
  );
});

test('a target the user names may be on any host (flag, env, YAML); only a URL that is not http(s) is refused', () => {
  const cwd = folder();
  for (const host of ['https://wfm.example.test', 'https://10.0.0.1', 'https://[2001:db8::1]', 'https://127.evil.test']) {
    assert.equal(resolveConfig(['--wfm', host], {}, cwd, opts).targets.wfm, host);
  }
  const env = resolveConfig(['--wfm', 'https://127.0.0.1:1'], { WFMCK_REGISTRY: 'https://registry.example.test' }, cwd, opts);
  assert.equal(env.targets.registry, 'https://registry.example.test');
  const yaml = resolveConfig([], {}, folder('targets:\n  identity: https://id.example.test:8443\n'), opts);
  assert.equal(yaml.targets.identity, 'https://id.example.test:8443');
  usage(() => resolveConfig(['--wfm', 'ftp://127.0.0.1'], {}, cwd, opts), /not an http\(s\) URL/);
  usage(() => resolveConfig(['--wfm', 'not a url'], {}, cwd, opts), /not an absolute URL/);
  for (const ok of ['https://127.0.0.1:1', 'https://127.200.3.4', 'https://[::1]:9', 'http://localhost:8080']) {
    assert.ok(resolveConfig(['--wfm', ok], {}, cwd, opts).targets.wfm);
  }
});

test('property: an IPv4 host is on loopback exactly when it is in 127.0.0.0/8', () => {
  const seed = process.env.WFMCK_SEED ? Number(process.env.WFMCK_SEED) : undefined;
  fc.assert(
    fc.property(fc.ipV4(), (ip) => isLoopbackHost(ip) === ip.startsWith('127.')),
    { seed, numRuns: 500 },
  );
  fc.assert(
    fc.property(fc.domain(), (d) => isLoopbackHost(d) === (d === 'localhost')),
    { seed, numRuns: 200 },
  );
});

test('a registry named alone is a run of that registry only: no WFM, never the embedded default; faults refused', () => {
  const c = resolveConfig(['--registry', 'https://127.0.0.1:5000'], {}, folder(), opts);
  assert.equal(c.targets.wfm, undefined);
  assert.equal(namesTargets(c), true);
  assert.equal(namesTargets(resolveConfig([], {}, folder(), opts)), false);
  usage(
    () => resolveConfig(['--registry', 'https://127.0.0.1:5000', '--fault', 'CAP-PUT-201'], {}, folder(), opts),
    /cannot apply to a named target \(targets\.registry\)/,
  );
});

test('half a device CA is a usage error', () => {
  const dir = folder();
  writeFileSync(join(dir, 'ca.pem'), 'x');
  usage(() => resolveConfig([], { WFMCK_DEVICE_CA_CERT: 'ca.pem' }, dir, opts), /both certFile and keyFile/);
});

test('redactedConfig keeps hook commands with inline credentials masked', () => {
  const c: Config = resolveConfig(
    [],
    {
      WFMCK_HOOK_RETIRE_CLIENT: `curl -H "Authorization: Bearer s3cr3t" https://127.0.0.1/retire`,
      WFMCK_HOOK_ASSIGN_DEPLOYMENT: './assign.sh --token=abc123',
    },
    folder(),
    opts,
  );
  const r = redactedConfig(c) as { hooks: Record<string, { command: string }>; seed: number };
  assert.equal(r.hooks.retireClient?.command, 'curl -H "Authorization: Bearer ***" https://127.0.0.1/retire');
  assert.equal(r.hooks.assignDeployment?.command, './assign.sh --token=***');
  assert.equal(r.seed, 4242);
  assert.doesNotMatch(JSON.stringify(r), /s3cr3t|abc123/);
  assert.equal(c.hooks.retireClient?.command.includes('s3cr3t'), true, 'the config itself is untouched');
});

test('attended mode: persona device only, never with a startClient hook or a client fault; the wait is in seconds', () => {
  const cwd = folder();
  assert.deepEqual(resolveConfig(['--persona', 'device', '--attend'], {}, cwd, opts).attend, { timeoutMs: 300_000 });
  assert.deepEqual(resolveConfig(['--persona', 'device', '--attend', '--attend-timeout', '20'], {}, cwd, opts).attend, {
    timeoutMs: 20_000,
  });
  assert.equal(resolveConfig(['--persona', 'device'], {}, cwd, opts).attend, undefined);
  usage(() => resolveConfig(['--attend'], {}, cwd, opts), /attend: attended mode is for --persona device/);
  usage(
    () => resolveConfig(['--persona', 'device', '--attend'], { WFMCK_HOOK_START_CLIENT: './start.sh' }, cwd, opts),
    /give no hooks\.startClient as well/,
  );
  usage(
    () => resolveConfig(['--persona', 'device', '--attend', '--fault', 'CAP-FIRST-EXCHANGE'], {}, cwd, opts),
    /client faults break the kit's own client/,
  );
  // --attend-exec: the operator's command per folder (run/processes/attend-exec.ts); it implies attended mode.
  assert.deepEqual(resolveConfig(['--persona', 'device', '--attend-exec', 'my-client {folder}'], {}, cwd, opts).attend, {
    timeoutMs: 300_000,
    exec: 'my-client {folder}',
  });
  assert.deepEqual(resolveConfig(['--persona', 'device'], { WFMCK_ATTEND_EXEC: 'c {folder}' }, cwd, opts).attend?.exec, 'c {folder}');
  usage(() => resolveConfig(['--attend-exec', 'c {folder}'], {}, cwd, opts), /attend: attended mode is for --persona device/);
});

test('listen: the embedded services on a loopback address only, the WFM on a fixed port when asked', () => {
  const cwd = folder();
  assert.deepEqual(resolveConfig([], {}, cwd, opts).listen, { host: '127.0.0.1' });
  assert.deepEqual(resolveConfig(['--listen', '::1', '--wfm-port', '8443'], {}, cwd, opts).listen, { host: '::1', wfmPort: 8443 });
  assert.deepEqual(resolveConfig(['--listen', 'localhost'], {}, cwd, opts).listen, { host: '127.0.0.1' });
  usage(
    () => resolveConfig(['--listen', '0.0.0.0'], {}, cwd, opts),
    /^--listen: 0\.0\.0\.0 is not on a loopback address; the kit only ever listens on/,
  );
  usage(() => resolveConfig(['--wfm-port', '70000'], {}, cwd, opts), /^--wfm-port: must be a port 0-65535/);
});

test('an unknown YAML key names the closest known key: target -> targets, a hook field too', () => {
  usage(
    () => resolveConfig([], {}, folder('target:\n  wfm: https://127.0.0.1:1\n'), opts),
    /unknown key "target"; did you mean "targets"\?$/,
  );
  usage(() => resolveConfig([], {}, folder('targets:\n  wfmm: https://127.0.0.1:1\n'), opts), /did you mean "targets\.wfm"\?$/);
  usage(
    () => resolveConfig([], {}, folder('hooks:\n  retireClient: { command: x, timeout: 2 }\n'), opts),
    /unknown key "timeout"; did you mean "timeoutMs"\? \(a hook has command, timeoutMs and cwd\)/,
  );
  usage(() => resolveConfig([], {}, folder('colour: blue\n'), opts), /unknown key "colour"$/);
});

test('a YAML syntax error: file:line:column, the reason, the offending line and a caret under the column', () => {
  const cwd = folder('seed: 7\ntargets:\n  wfm: https://127.0.0.1:1\n   identity: https://127.0.0.1:2\n');
  const file = join(cwd, 'wfmck.config.yaml');
  assert.throws(
    () => resolveConfig([], {}, cwd, opts),
    (e: Error & { code?: string }) => {
      assert.equal(e.code, 'WFMCK_E_USAGE');
      const [head, line, caret, ...rest] = e.message.split('\n');
      assert.equal(head, `${file}:3:8: not valid YAML: Nested mappings are not allowed in compact mappings`);
      assert.equal(line, '|   wfm: https://127.0.0.1:1');
      assert.equal(caret, '|        ^');
      assert.deepEqual(rest, []);
      return true;
    },
  );
  // Tabs before the column stay tabs, so the caret lines up in any tab width.
  const tabbed = folder('component: { vendor: "Acme",\tname: [x }\n');
  assert.throws(
    () => resolveConfig([], {}, tabbed, opts),
    (e: Error) => /\n\| component: \{ vendor: "Acme",\tname: \[x \}\n\| {29}\t {9}\^$/.test(e.message) || assert.fail(e.message),
  );
});
