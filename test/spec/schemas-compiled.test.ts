// spec/schemas/compiled.ts: a validator read back from ajv's standalone code judges as the one ajv compiled, errors
// included, for a draft-07 schema with patterns and for a 2020-12 one with formats.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv, type Options, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { compiledValidator } from '../../spec/schemas/compiled.ts';
import { schemaOf } from '../../spec/schemas/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'wfmck-ajv-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Compiled here (a folder of its own, so the cache has no file), then read from the file it kept. */
function bothWays(schema: object, options: Options, ajv: (o: Options) => Ajv): { compiled: ValidateFunction; read: ValidateFunction } {
  const c = { flavour: 'test', options, schema, ajv, dir };
  const compiled = compiledValidator(c);
  const read = compiledValidator(c);
  assert.ok('schemaEnv' in compiled, 'the first call compiles with ajv');
  assert.ok(!('schemaEnv' in read), 'the second call reads the standalone code the first one kept');
  return { compiled, read };
}

function sameVerdicts(v: { compiled: ValidateFunction; read: ValidateFunction }, docs: unknown[]): void {
  for (const doc of docs) {
    const a = v.compiled(doc);
    const errorsA = v.compiled.errors;
    const b = v.read(doc);
    assert.equal(b, a, JSON.stringify(doc));
    assert.deepEqual(v.read.errors, errorsA, JSON.stringify(doc));
  }
}

test("the Compose Specification (draft-07): the read validator gives the compiled one's verdicts and errors", () => {
  const schema = JSON.parse(readFileSync(new URL('../../spec/data/compose-spec.schema.json', import.meta.url), 'utf8'));
  const v = bothWays(
    { ...schema, $schema: 'http://json-schema.org/draft-07/schema#' },
    { allErrors: true, strict: false },
    (o) => new Ajv(o),
  );
  sameVerdicts(v, [
    { services: { web: { image: 'nginx', ports: ['8080:80'], healthcheck: { test: ['CMD', 'true'], interval: '5s' } } } },
    { services: { web: { image: 'nginx', imagex: 1 } } },
    { services: { web: { ports: [{ target: 'eighty' }] } }, volumes: { data: { driver: 3 } } },
    { 'x-extension': {}, networks: { n: { ipam: { config: [{ subnet: 1 }] } } } },
    { unknown: true },
  ]);
  assert.equal(v.read({ services: { web: { image: 'nginx' } } }), true);
  assert.equal(v.read({ services: { web: { imagex: 1 } } }), false, 'the read validator can fail');
});

test("a resource schema (2020-12, formats): the read validator gives the compiled one's verdicts and errors", () => {
  const v = bothWays(schemaOf('DeploymentStatusReport'), { allErrors: true, strict: true, allowUnionTypes: true }, (o) => {
    const ajv = new Ajv2020(o);
    addFormats.default(ajv);
    return ajv as unknown as Ajv;
  });
  sameVerdicts(v, [
    {},
    { status: 'Installed', appName: 3 },
    { deploymentId: 'not-a-uuid', status: 'Running', lastUpdated: 'yesterday' },
    { deploymentId: randomUUID(), status: 'Running', lastUpdated: new Date().toISOString() },
  ]);
});

test('a cache folder others may write is neither read nor written: the schema is compiled every time', (t) => {
  const shared = mkdtempSync(join(tmpdir(), 'wfmck-ajv-shared-'));
  t.after(() => rmSync(shared, { recursive: true, force: true }));
  chmodSync(shared, 0o777);
  const c = { flavour: 'shared', options: {}, schema: { type: 'integer' }, ajv: (o: Options) => new Ajv(o), dir: shared };
  assert.ok('schemaEnv' in compiledValidator(c));
  assert.ok('schemaEnv' in compiledValidator(c), 'compiled again, not read');
  assert.deepEqual(readdirSync(shared), []);
});
