// Faults in batches: which faults share a `wfmck run --fault-batch` (one edition, persona and seed each, at most N), and
// the batch file that run reads (run/contract/fault-batch.ts), refused with every problem named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { batched } from '../../faults/harness/batches.ts';
import type { Job } from '../../faults/harness/child-runs.ts';
import { batchKey, batchGrep, batchKeyOf, parseFaultBatch } from '../../run/contract/fault-batch.ts';
import { requirementsGrep } from '../../faults/harness/plan.ts';
import { filesSelected, type PlaywrightListing } from '../../faults/harness/checked.ts';
import { fault } from './helpers.ts';

const job = (id: string, spec: Partial<Job['spec']> = {}): Job => ({
  label: id,
  fault: fault(id),
  spec: { fault: id, out: `/o/${id}`, seed: 7, requirements: [id], ...spec },
});

test('batches hold at most N faults of one edition, persona and seed, in the order given; a lone fault runs alone', () => {
  const jobs = [
    job('A-1'),
    job('A-2'),
    job('M-1', { edition: 'miaf' }),
    job('A-3'),
    job('D-1', { persona: 'device' }),
    job('A-4', { seed: 8 }),
    job('A-5'),
  ];
  const units = batched(jobs, 3, '/o');
  assert.deepEqual(
    units.map((u) => u.jobs.map((j) => j.label)),
    [['A-1', 'A-2', 'A-3'], ['A-5'], ['M-1'], ['D-1'], ['A-4']],
  );
  assert.deepEqual(
    units.map((u) => u.label.startsWith('batch ')),
    [true, false, false, false, false],
    'only a unit of two or more is a batch',
  );
  assert.deepEqual(
    batched(jobs, 1, '/o').map((u) => u.jobs.length),
    jobs.map(() => 1),
    '--batch 1: each fault alone',
  );
});

test('the batch file: a list of {fault, out, grep}; duplicates and wrong types are each named', () => {
  const grep = requirementsGrep(['CAP-PUT-201']);
  assert.deepEqual(
    parseFaultBatch(
      JSON.stringify([
        { fault: 'CAP-PUT-201', out: '/o/a', grep },
        { fault: 'DISC-200', out: '/o/b' },
      ]),
      'b.json',
    ),
    [
      { fault: 'CAP-PUT-201', out: '/o/a', grep },
      { fault: 'DISC-200', out: '/o/b' },
    ],
  );
  assert.throws(() => parseFaultBatch('[', 'b.json'), /b\.json: not JSON/);
  assert.throws(() => parseFaultBatch('[]', 'b.json'), /non-empty list/);
  assert.throws(
    () => parseFaultBatch(JSON.stringify([{ fault: 'A-1', out: '/o' }, { fault: 'A-1', out: '/o', grep: 3 }, {}]), 'b.json'),
    (e: Error) =>
      /entry 2: fault A-1 is named twice/.test(e.message) &&
      /entry 2: out \/o is named twice/.test(e.message) &&
      /entry 2: grep must be a string/.test(e.message) &&
      /entry 3: fault must be a non-empty string/.test(e.message),
  );
});

test("the batch's grep keeps each fault's checks in its own files (Playwright greps the title path, its file first)", () => {
  const faults = [
    { key: batchKey(0), grep: requirementsGrep(['CAP-PUT-201']) },
    { key: batchKey(1), grep: requirementsGrep(['CAP-DELETE-204']) },
    { key: batchKey(2) },
  ];
  assert.deepEqual(
    faults.map((f) => f.key),
    ['f01', 'f02', 'f03'],
  );
  const grep = new RegExp(batchGrep(faults));
  assert.ok(grep.test('f01/capabilities.spec.ts CAP-PUT-201 CAP-LIFE-CREATED a PUT creates'));
  assert.ok(grep.test('f01/capabilities.spec.ts §4.1 CAP-PUT-201 a PUT creates'));
  assert.ok(!grep.test('f01/capabilities.spec.ts CAP-DELETE-204 a DELETE'), "another fault's check in f01's files");
  assert.ok(!grep.test('f01/capabilities.spec.ts CAP-PUT-2010 no such id'));
  assert.ok(grep.test('f02/device/capabilities.spec.ts CAP-DELETE-204 a DELETE'));
  assert.ok(!grep.test('f02/capabilities.spec.ts CAP-PUT-201 a PUT creates'));
  assert.ok(grep.test('f03/registry.spec.ts REG-ANY every check of a fault without a grep'));
  assert.ok(!grep.test('f04/capabilities.spec.ts CAP-PUT-201 a fault the batch has not'));
  assert.equal(batchKeyOf('f02/device/capabilities.spec.ts'), 'f02');
  assert.equal(batchKeyOf('capabilities.spec.ts'), undefined);
});

test('--fault-batch refuses what would mix faults or leave the embedded default: --fault, --shard, a target, signing, attend', async () => {
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { resolveConfig } = await import('../../run/options/config.ts');
  const dir = mkdtempSync(join(tmpdir(), 'wfmck-batch-'));
  const file = join(dir, 'batch.json');
  writeFileSync(file, JSON.stringify([{ fault: 'CAP-PUT-201', out: join(dir, 'a') }]));
  assert.equal(resolveConfig(['--fault-batch', file], {}, dir).faultBatch, file);
  for (const [args, named] of [
    [['--fault', 'CAP-PUT-200'], 'faults'],
    [['--shard', '1/2'], 'shard'],
    [['--wfm', 'https://127.0.0.1:8443'], 'targets.wfm'],
    [['--sign'], 'signing.sign'],
    [['--persona', 'device', '--attend'], 'attend'],
  ] as const)
    assert.throws(
      () => resolveConfig(['--fault-batch', file, ...args], {}, dir),
      new RegExp(`faultBatch: .*give no ${named.replace('.', '\\.')} with it`),
      named,
    );
  assert.throws(() => resolveConfig(['--fault-batch', join(dir, 'none.json')], {}, dir), /no such file/);
});

test("a fault of a batch loads only the files with its checks: the listing's title paths, as Playwright greps them", () => {
  const listing: PlaywrightListing = {
    suites: [
      {
        title: 'capabilities.spec.ts',
        specs: [{ title: 'CAP-PUT-201 CAP-LIFE-CREATED a PUT creates', file: 'capabilities.spec.ts' }],
        suites: [{ title: '§4.1 GW-ORDER-CHILD-FIRST-404', specs: [{ title: 'a child first', file: 'capabilities.spec.ts' }] }],
      },
      { title: 'device/status.spec.ts', specs: [{ title: 'STATUS-POST-201 a report', file: 'device/status.spec.ts', tags: ['slow'] }] },
      { title: 'registry.spec.ts', specs: [{ title: 'REG-TAGS-N tags', file: 'registry.spec.ts' }] },
    ],
  };
  const files = (ids: string[]) => filesSelected(listing, new RegExp(requirementsGrep(ids)));
  assert.deepEqual(files(['CAP-LIFE-CREATED']), ['capabilities.spec.ts']);
  assert.deepEqual(files(['GW-ORDER-CHILD-FIRST-404']), ['capabilities.spec.ts'], 'an id in a describe title selects its tests');
  assert.deepEqual(files(['STATUS-POST-201', 'REG-TAGS-N']), ['device/status.spec.ts', 'registry.spec.ts']);
  assert.deepEqual(files(['CAP-PUT-20']), [], 'a prefix of an id selects nothing');
  assert.deepEqual(filesSelected(listing, /@slow/), ['device/status.spec.ts'], 'tags are greped as Playwright greps them');
});
