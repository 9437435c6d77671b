// The one option registry (run/options/options.ts, run/options/option-sets.ts) seen from outside: every command refuses an unknown
// option the same way, `wfmck help <cmd>` is `wfmck <cmd> --help`, a CA file is `--ca-file` wherever one applies (the
// old spellings still work, undocumented), and `run --help` names every setting with its flag, env name and YAML key.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { FIELDS, resolveConfig } from '../../run/options/config.ts';
import { parseArgv, type Option } from '../../run/options/options.ts';
import { runWfmck } from '../support/wfmck-cli.ts';
import { createRootCa } from '../../protocol/pki.ts';

const COMMANDS = [
  'run',
  'serve',
  'fleet',
  'init',
  'lint',
  'publish',
  'sign',
  'cert',
  'client',
  'merge',
  'merge-reports',
  'faults',
  'verify-report',
  'summary',
];
/** The commands that take a CA file. */
const CA_COMMANDS = ['run', 'init', 'fleet', 'lint', 'publish', 'sign'];
const HELLO_APP = new URL('../../fixtures/packages/hello-app', import.meta.url).pathname;
const CAPABILITIES = new URL('../../fixtures/documents/capabilities-dev1.json', import.meta.url).pathname;

describe('every command', { concurrency: 2, timeout: 120_000 }, () => {
  for (const cmd of COMMANDS) {
    test(`${cmd}: an unknown option is one line naming it, then where the options are; exit 2, nothing on stdout`, async () => {
      const r = await runWfmck([cmd, '--no-such-option', 'x']);
      assert.deepEqual([r.code, r.stdout, r.stderr], [2, '', `wfmck ${cmd}: --no-such-option: unknown option\nsee wfmck ${cmd} --help\n`]);
    });

    test(`${cmd}: wfmck help ${cmd} prints exactly what wfmck ${cmd} --help prints, generated with a flag column`, async () => {
      const [viaHelp, viaFlag] = await Promise.all([runWfmck(['help', cmd]), runWfmck([cmd, '--help'])]);
      assert.equal(viaFlag.code, 0, viaFlag.stderr);
      assert.equal(viaHelp.code, 0, viaHelp.stderr);
      assert.equal(viaHelp.stdout, viaFlag.stdout);
      assert.match(viaFlag.stdout, new RegExp(`^usage: wfmck ${cmd}\\b`));
      assert.match(viaFlag.stdout, /^ {2}-h, --help +print this help/m);
      assert.doesNotMatch(viaFlag.stdout, /--ca\b(?!-)|--cacert|--host\b/, 'old spellings are never documented');
      assert.equal(
        /--ca-file FILE/.test(viaFlag.stdout),
        CA_COMMANDS.includes(cmd),
        'every command that takes a CA file documents --ca-file',
      );
    });
  }
});

test('the general help lists the commands, wfmck help <command> and --version; an unknown command is a usage error', async () => {
  const r = await runWfmck(['--help']);
  assert.equal(r.code, 0);
  for (const cmd of COMMANDS) assert.match(r.stdout, new RegExp(`^ {2}${cmd} `, 'm'));
  assert.match(r.stdout, /wfmck help <command>/);
  assert.match(r.stdout, /wfmck --version/);
  const unknown = await runWfmck(['frobnicate']);
  assert.deepEqual([unknown.code, unknown.stderr], [2, 'wfmck: frobnicate: no such command\nsee wfmck --help\n']);
  const helpUnknown = await runWfmck(['help', 'frobnicate']);
  assert.deepEqual([helpUnknown.code, helpUnknown.stderr], [2, 'wfmck: frobnicate: no such command\nsee wfmck --help\n']);
});

test('bad values: one line `wfmck <cmd>: <option>: <what is wrong>`, then `see wfmck <cmd> --help`, exit 2, no Node error code', async () => {
  const cases: [string[], RegExp][] = [
    [['run', '--seed'], /^wfmck run: --seed: needs a value \(--seed N\)$/],
    [['run', '--sign=yes'], /^wfmck run: --sign: takes no value$/],
    [['run', 'stray'], /^wfmck run: stray: unexpected argument/],
    [['serve', '--wfm-port', 'x'], /^wfmck serve: --wfm-port: expected an integer, not "x"$/],
    // serve listens on any address (a pod's, issue 33); one that is no IP address is still a usage error.
    [['serve', '--listen', 'wfm.internal'], /^wfmck serve: --listen: "wfm\.internal" is not an IP address$/],
    [['serve', '--hostname', 'not a name'], /^wfmck serve: --hostname: "not a name" is not a DNS name$/],
    [['run', '--resolve', 'wfm.example.test:8443'], /^wfmck run: --resolve: "wfm\.example\.test:8443" is not HOST:PORT:ADDR/],
    [['fleet', '--edition', 'gold'], /^wfmck fleet: --edition: must be one of seed, miaf, not "gold"$/],
    [['lint', CAPABILITIES, '--vendor', 'ACME'], /^wfmck lint: --vendor: must be lowercase letters and digits, not "ACME"$/],
    [
      ['publish', 'app', HELLO_APP, '--dry-run', '--chunk-size', '0'],
      /^wfmck publish: --chunk-size: must be a positive number of bytes, not "0"$/,
    ],
    [
      ['publish', 'app', HELLO_APP, '--registry', 'ftp://registry.example.com', '--repository', 'a/b'],
      /^wfmck publish: --registry: "ftp:\/\/registry\.example\.com" is not an http\(s\) URL$/,
    ],
    [
      ['sign', '--cert', '/no/such.pem', '--key', '/no/such.key', 'GET', 'http://127.0.0.1/'],
      /^wfmck sign: --cert: no such file \/no\/such\.pem$/,
    ],
    [['cert', '--ca-dir', '/no/such/dir', '--id', 'x'], /^wfmck cert: --ca-dir: no such folder \/no\/such\/dir$/],
    [['faults', '--concurrency', '0'], /^wfmck faults: --concurrency: must be at least 1, not 0$/],
    [['verify-report', '/tmp', '--key', '/no/such.pem'], /^wfmck verify-report: --key: no such file \/no\/such\.pem$/],
    [['init', '--persona', 'robot'], /^wfmck init: --persona: must be one of wfm, device, identity, registry, not "robot"$/],
  ];
  const runs = await Promise.all(cases.map(([args]) => runWfmck(args)));
  runs.forEach((r, i) => {
    const [args, line] = cases[i]!;
    const [first, second, ...rest] = r.stderr.split('\n');
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(first!, line, args.join(' '));
    assert.deepEqual([second, rest], [`see wfmck ${args[0]} --help`, ['']], args.join(' '));
    assert.doesNotMatch(r.stderr, /ERR_[A-Z_]{4,}|ENOENT: ENOENT/, args.join(' '));
  });
});

test('a missing input is exit 2 in every command, one line with the input named and no pointer to --help', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'wfmck-missing-'));
  const missing = join(dir, 'nothing-here');
  const runs = await Promise.all(
    [
      ['merge', missing],
      ['merge-reports', missing],
      ['verify-report', missing],
      ['client', missing],
      ['lint', `${missing}.json`],
      ['publish', 'app', missing, '--dry-run'],
    ].map((a) => runWfmck(a)),
  );
  for (const r of runs) {
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /^wfmck [a-z-]+: WFMCK_E_[A-Z_]+: .*nothing-here/);
    assert.equal(r.stderr.split('\n').length, 2, `one line: ${r.stderr}`);
  }
});

describe('--ca-file wherever a CA file applies; --ca and --cacert still accepted', { concurrency: 2, timeout: 120_000 }, () => {
  test('each command checks --ca-file as a file, and reads the old spellings as the same option', async () => {
    const runs = await Promise.all(
      CA_COMMANDS.flatMap((cmd) =>
        ['--ca-file', '--ca', '--cacert'].map((flag) =>
          runWfmck([cmd, flag, '/no/such/ca.pem', ...(cmd === 'init' ? ['--out', join(tmpdir(), 'never-written.yaml')] : [])]),
        ),
      ),
    );
    runs.forEach((r, i) => {
      const [cmd, flag] = [CA_COMMANDS[Math.floor(i / 3)]!, ['--ca-file', '--ca', '--cacert'][i % 3]!];
      assert.equal(r.code, 2, `${cmd} ${flag}`);
      assert.match(r.stderr, new RegExp(`^wfmck ${cmd}: ${flag}: no such file /no/such/ca\\.pem\\n`), `${cmd} ${flag}`);
    });
  });

  test('run: --ca-file (repeatable) is tls.caFiles, as WFMCK_CA_FILES and the YAML are', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wfmck-ca-'));
    await writeFile(join(dir, 'a.pem'), 'x');
    await writeFile(join(dir, 'b.pem'), 'x');
    const c = resolveConfig(['--ca-file', 'a.pem', '--ca-file', 'b.pem'], {}, dir, { randomSeed: () => 1 });
    assert.deepEqual(c.tls.caFiles, [join(dir, 'a.pem'), join(dir, 'b.pem')]);
    assert.deepEqual(resolveConfig(['--ca', 'a.pem'], {}, dir, { randomSeed: () => 1 }).tls.caFiles, [join(dir, 'a.pem')]);
  });

  test('init writes --ca-file as tls.caFiles; sign --curl passes it to curl; lint and publish take it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wfmck-ca-'));
    const ca = join(dir, 'ca.pem');
    await writeFile(ca, (await createRootCa('options test CA')).certPem);
    const out = join(dir, 'wfmck.config.yaml');
    // Read from the current folder (here: absolute), written relative to the file's folder.
    const init = await runWfmck(['init', '--wfm', 'https://127.0.0.1:8443', '--ca-file', ca, '--out', out]);
    assert.equal(init.code, 0, init.stderr);
    assert.deepEqual(parse(await readFile(out, 'utf8')).tls, { caFiles: ['ca.pem'] });
    const lint = await runWfmck(['lint', CAPABILITIES, '--ca-file', ca]);
    assert.equal(lint.code, 0, lint.stderr);
    const publish = await runWfmck(['publish', 'app', HELLO_APP, '--dry-run', '--ca-file', ca]);
    assert.equal(publish.code, 0, publish.stderr);
  });

  test('fleet reads --ca-file and goes on to the target (here one that refuses connections)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wfmck-ca-'));
    const ca = await createRootCa('test device CA');
    await writeFile(join(dir, 'ca.pem'), ca.certPem);
    await writeFile(join(dir, 'ca.key'), ca.keyPem);
    const server = createServer().listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    server.close();
    const r = await runWfmck([
      'fleet',
      '--wfm',
      `https://127.0.0.1:${port}`,
      '--ca-file',
      join(dir, 'ca.pem'),
      '--device-ca-cert',
      join(dir, 'ca.pem'),
      '--device-ca-key',
      join(dir, 'ca.key'),
    ]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^wfmck fleet: WFMCK_E_UNREACHABLE: unreachable target: WFM https:\/\/127\.0\.0\.1:\d+: ECONNREFUSED/);
  });
});

test('run --help: every setting of FIELDS on a row with its flag (or -), env name and YAML key; --shard, --fault, --kit-registry among them', async () => {
  const r = await runWfmck(['run', '--help']);
  assert.equal(r.code, 0, r.stderr);
  const rows = r.stdout.split('\n');
  for (const f of FIELDS) {
    const flag = f.flag ? `--${f.flag}${f.value ? ` ${f.value}` : ''}${f.multiple ? ' ...' : ''}` : '-';
    const row = new RegExp(`^ {2}${escape(flag)} +${f.env} +${escape(f.key)}$`);
    assert.ok(
      rows.some((line) => row.test(line)),
      `run --help has no row "${flag}  ${f.env}  ${f.key}"`,
    );
  }
  for (const flag of ['--shard i/n', '--fault ID ...', '--kit-registry', '--ca-file FILE ...', '--config FILE'])
    assert.match(r.stdout, new RegExp(`^ {2}${escape(flag)} `, 'm'), flag);
});

test('parseArgv: --flag value, --flag=value, repeats, hidden aliases, switches, positionals after --', () => {
  const options: Option[] = [
    { flag: 'ca-file', value: 'FILE', aliases: ['ca'], doc: '' },
    { flag: 'fault', value: 'ID', multiple: true, doc: '' },
    { flag: 'sign', doc: '' },
  ];
  const p = parseArgv(['--ca=x.pem', '--fault', 'A', '--fault=B', '--sign', 'pos', '--', '--not-a-flag'], options, true);
  assert.deepEqual(
    [p.flags.get('ca-file'), p.spelling.get('ca-file'), p.flags.get('fault'), p.flags.get('sign'), p.positionals],
    ['x.pem', '--ca', ['A', 'B'], true, ['pos', '--not-a-flag']],
  );
  assert.equal(parseArgv(['--nope', '-h'], options, false).help, true, '--help wins over everything else');
  assert.throws(() => parseArgv(['--ca-file', '--sign'], options, false), /^Error: --ca-file: needs a value \(--ca-file FILE\)$/);
  assert.throws(
    () => parseArgv(['-x'], options, false),
    (e: Error & { code?: string }) => e.code === 'WFMCK_E_USAGE' && e.message === '-x: unknown option',
  );
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

test('did you mean: an unknown flag of any command, an unknown command, a mistyped top-level flag; nothing when nothing is close', async () => {
  const flag = await runWfmck(['run', '--wfn', 'http://127.0.0.1:1']);
  assert.deepEqual(
    [flag.code, flag.stdout, flag.stderr],
    [2, '', 'wfmck run: --wfn: unknown option; did you mean --wfm?\nsee wfmck run --help\n'],
  );
  const fleet = await runWfmck(['fleet', '--device', '3']);
  assert.match(fleet.stderr, /^wfmck fleet: --device: unknown option; did you mean --devices\?\n/);
  const command = await runWfmck(['rnu']);
  assert.deepEqual([command.code, command.stderr], [2, 'wfmck: rnu: no such command; did you mean run?\nsee wfmck --help\n']);
  const help = await runWfmck(['help', 'verify-reprot']);
  assert.deepEqual([help.code, help.stderr], [2, 'wfmck: verify-reprot: no such command; did you mean verify-report?\nsee wfmck --help\n']);
  const version = await runWfmck(['--verison']);
  assert.deepEqual([version.code, version.stderr], [2, 'wfmck: --verison: unknown option; did you mean --version?\nsee wfmck --help\n']);
  assert.throws(
    () => parseArgv(['--sede', '1'], [{ flag: 'seed', value: 'N', doc: '' }], false),
    (e: Error) => e.message === '--sede: unknown option; did you mean --seed?',
  );
});
