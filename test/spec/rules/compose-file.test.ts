import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { composeComponentFindings, composeFileFindings } from '../../../spec/rules/compose-file.ts';
import { readTar } from '../../../spec/rules/tar-read.ts';
import { BENIGN_ARCHIVES, HOSTILE_ARCHIVES, buildTar } from '../../../fixtures/archives/build.ts';
import { fcOptions } from '../../support/fc.ts';

const fcOpts = fcOptions(100);
const rules = (fs: { rule: string }[]) => fs.map((f) => f.rule);
const COMPOSE_RULES = new Set([
  'secret-file-absent',
  'env-file-present',
  'config-file-present',
  'bind-mount-absent',
  'ref-inside-top',
  'compose-spec-conformance',
]);

const svc = (extra: object) => stringify({ services: { web: { image: 'nginx:1.27', ...extra } } });
const judge = (yaml: string, files: string[] = []) => rules(composeFileFindings(yaml, files));

for (const [name, entries] of Object.entries(BENIGN_ARCHIVES)) {
  test(`§2.7: benign archive ${name} has no findings at all`, async () => {
    assert.deepEqual(composeComponentFindings(await readTar(await buildTar(entries))), []);
  });
}

for (const [name, { entries, rule }] of Object.entries(HOSTILE_ARCHIVES)) {
  if (!COMPOSE_RULES.has(rule)) continue;
  test(`§2.7: hostile archive ${name} gives exactly ${rule}`, async () => {
    assert.deepEqual(rules(composeComponentFindings(await readTar(await buildTar(entries)))), [rule]);
  });
}

test('§2.7 rule 2: compose.yaml is YAML that conforms to the Compose Specification', () => {
  assert.deepEqual(judge(svc({})), []);
  assert.deepEqual(judge('services: [unclosed'), ['compose-yaml-parse']);
  assert.deepEqual(
    judge('a: &a [x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n'),
    ['compose-yaml-parse'],
    'alias expansion is capped',
  );
  assert.deepEqual(judge(svc({ ports: 'not-a-list' })), ['compose-spec-conformance']);
  assert.deepEqual(judge('x-common: &c {image: "nginx"}\nservices:\n  web:\n    <<: *c\n'), [], 'merge keys are Compose YAML');
});

test('§2.7 rule 4: env_file in every Compose form must be in the archive', () => {
  assert.deepEqual(judge(svc({ env_file: 'web.env' }), ['web.env']), []);
  assert.deepEqual(judge(svc({ env_file: './web.env' }), ['./web.env']), []);
  assert.deepEqual(judge(svc({ env_file: 'web.env' })), ['env-file-present']);
  assert.deepEqual(judge(svc({ env_file: ['a.env', { path: 'b.env' }] }), ['a.env']), ['env-file-present']);
  assert.deepEqual(judge(svc({ env_file: [{ path: 'opt.env', required: false }] })), [], 'reading: required: false may be absent');
  assert.deepEqual(
    judge(svc({ env_file: [{ path: '../opt.env', required: false }] })),
    ['ref-inside-top'],
    'but must still resolve inside',
  );
  assert.deepEqual(judge(svc({ env_file: '/etc/app.env' })), ['ref-inside-top']);
  assert.deepEqual(judge(svc({ env_file: 'env/../../x.env' })), ['ref-inside-top']);
  assert.deepEqual(judge(svc({ env_file: '${ENV_DIR}/web.env' })), [], 'reading: interpolated paths are not judged');
});

test('§2.7 rule 4: file-source configs must be in the archive; other sources are not files', () => {
  const configs = { a: { file: './conf/a.conf' }, b: { content: 'x' }, c: { external: true }, d: { environment: 'D' } };
  assert.deepEqual(judge(stringify({ services: { web: { image: 'x' } }, configs }), ['conf/a.conf']), []);
  assert.deepEqual(judge(stringify({ services: { web: { image: 'x' } }, configs })), ['config-file-present']);
  assert.deepEqual(judge(stringify({ services: { web: { image: 'x' } }, configs: { a: { file: '/etc/a.conf' } } })), ['ref-inside-top']);
});

test('§2.7 rule 6: files of file-source secrets must not be in the archive', () => {
  const doc = (file: string) => stringify({ services: { web: { image: 'x', secrets: ['s'] } }, secrets: { s: { file } } });
  assert.deepEqual(judge(doc('./secrets/s.txt')), []);
  assert.deepEqual(judge(doc('/run/secrets/s.txt'), ['run/secrets/s.txt']), []);
  assert.deepEqual(judge(doc('./secrets/s.txt'), ['secrets/s.txt']), ['secret-file-absent']);
  assert.deepEqual(judge(doc('./secrets'), ['secrets/s.txt']), ['secret-file-absent'], 'a directory holding files counts');
});

test('§2.7 rule 5: relative bind-mount sources must not be in the archive; named volumes and host paths are not judged', () => {
  const files = ['data/seed.db', 'compose.yaml'];
  assert.deepEqual(judge(svc({ volumes: ['./data:/var/lib/data'] }), files), ['bind-mount-absent']);
  assert.deepEqual(judge(svc({ volumes: ['./data:/var/lib/data:ro'] }), ['data']), ['bind-mount-absent']);
  assert.deepEqual(judge(svc({ volumes: ['.:/app'] }), files), ['bind-mount-absent'], 'the top directory is in the archive');
  assert.deepEqual(judge(svc({ volumes: [{ type: 'bind', source: './data', target: '/d' }] }), files), ['bind-mount-absent']);
  assert.deepEqual(judge(svc({ volumes: ['./runtime:/r', 'data:/d', '/srv/data:/s', '/anon'] }), files), []);
  assert.deepEqual(judge(svc({ volumes: [{ type: 'volume', source: 'data', target: '/d' }] }), files), []);
});

test('§2.7 rule 3: extends and include files resolve inside the top-level directory', () => {
  assert.deepEqual(judge(svc({ extends: { service: 'base', file: '../base.yaml' } })), ['ref-inside-top']);
  assert.deepEqual(judge(stringify({ include: ['/etc/compose.yaml'], services: { web: { image: 'x' } } })), ['ref-inside-top']);
  assert.deepEqual(judge(stringify({ include: [{ path: ['sub/compose.yaml'] }], services: { web: { image: 'x' } } })), []);
});

const fileName = fc.string({ unit: fc.constantFrom(...'abcdef019_-'), minLength: 1, maxLength: 8 });
const relPath = fc.array(fileName, { minLength: 1, maxLength: 3 }).map((p) => p.join('/'));

test('§2.7 rules 4 and 6: env files present and secrets absent are clean; each missing env file and each shipped secret is one finding', () => {
  fc.assert(
    fc.property(fc.uniqueArray(relPath, { minLength: 2, maxLength: 8 }), fc.nat(), fc.nat(), (paths, cut, split) => {
      const k = 1 + (split % (paths.length - 1));
      const [envs, secrets] = [paths.slice(0, k), paths.slice(k)];
      const yaml = stringify({
        services: { web: { image: 'x', env_file: envs.map((p) => `./${p}`) } },
        secrets: Object.fromEntries(secrets.map((p, i) => [`s${i}`, { file: `./${p}` }])),
      });
      const clash = (p: string) => paths.some((q) => q !== p && (q.startsWith(`${p}/`) || p.startsWith(`${q}/`)));
      if (paths.some(clash)) return;
      assert.deepEqual(composeFileFindings(yaml, envs), []);
      const missing = envs[cut % envs.length]!;
      const shipped = [...envs.filter((p) => p !== missing), ...secrets];
      assert.deepEqual(judge(yaml, shipped).sort(), ['env-file-present', ...secrets.map(() => 'secret-file-absent')].sort());
    }),
    fcOpts,
  );
});
