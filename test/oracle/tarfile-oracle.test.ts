// An independent oracle for §2.7 rule 7: Python's tarfile with the PEP 706 data filter judges the same archives as
// the kit. Every disagreement must fall in a class of fixtures/oracle/DIFFERENCES.md (where interfaces.md makes the
// kit stricter); a new kind fails with the archive printed. Long run: WFMCK_ORACLE_RUNS=5000; replay: WFMCK_SEED.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { archiveSpec, toRecords } from './archive-arbitrary.ts';
import { DIFFERENCE_CLASSES, compare, type Comparison } from './classify.ts';
import { kitRejects, kitVerdict, type KitVerdict } from './kit-verdict.ts';
import { pythonVerdicts, scratchDir, type PythonVerdict } from './python-oracle.ts';
import { rawTar, type RawRecord } from './raw-tar.ts';
import { KIT_BUG_REGRESSIONS, WITNESSES } from './witnesses.ts';

const RUNS = Number(process.env.WFMCK_ORACLE_RUNS ?? 300);
const BATCH = 100;
const SEED = process.env.WFMCK_SEED === undefined ? undefined : Number(process.env.WFMCK_SEED);
const python = spawnSync('python3', ['-c', 'import tarfile; tarfile.data_filter'], { encoding: 'utf8' });
const skip = python.status === 0 ? false : `python3 with tarfile.data_filter (PEP 706) is not available: ${python.stderr || python.error}`;

interface Judged {
  records: RawRecord[];
  kit: KitVerdict;
  py: PythonVerdict;
  comparison: Comparison;
}

/** Both verdicts for a batch of archives: one Python process for the whole batch. */
async function judge(batch: RawRecord[][]): Promise<Judged[]> {
  const dir = await mkdtemp(join(scratchDir(), 'wfmck-oracle-'));
  try {
    const archives = batch.map((records) => new Uint8Array(gzipSync(rawTar(records))));
    const paths = archives.map((_, i) => join(dir, `${i}.tar.gz`));
    await Promise.all(archives.map((bytes, i) => writeFile(paths[i]!, bytes)));
    const py = pythonVerdicts(paths);
    const kit = await Promise.all(archives.map((bytes) => kitVerdict(bytes)));
    return batch.map((records, i) => ({ records, kit: kit[i]!, py: py[i]!, comparison: compare(kit[i]!, py[i]!) }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function evidence(j: Judged): string {
  const kitEntries = j.kit.readable
    ? j.kit.entries.map(
        (e) => `${e.type} ${JSON.stringify(e.name)}${e.linkname ? ` -> ${JSON.stringify(e.linkname)}` : ''} ${e.mode.toString(8)}`,
      )
    : [`unreadable: ${j.kit.readError?.message}`];
  return [
    `kit refusals: ${JSON.stringify(j.kit.refusals)}`,
    `kit entries:\n  ${kitEntries.join('\n  ')}`,
    `tarfile: ${JSON.stringify({ readable: j.py.readable, readError: j.py.readError, refusals: j.py.refusals, members: j.py.members })}`,
    `records: ${JSON.stringify(j.records)}`,
  ].join('\n');
}

test(
  `§2.7 rule 7: on ${RUNS} generated archives the kit refuses all tarfile refuses, and differs only as DIFFERENCES.md says`,
  { skip },
  async (t) => {
    const counts = { tried: 0, bothRefused: 0, bothAccepted: 0, documented: 0, tarfileErrors: 0 };
    const byClass = new Map<string, number>();
    const batch = fc.array(archiveSpec.map(toRecords), { minLength: BATCH, maxLength: BATCH });
    let undocumented: string | undefined;
    try {
      await fc.assert(
        fc.asyncProperty(batch, async (archives) => {
          for (const j of await judge(archives)) {
            counts.tried++;
            if (j.py.errors.length > 0) counts.tarfileErrors++;
            const c = j.comparison;
            if (c.outcome === 'undocumented') {
              undocumented = `undocumented disagreement: ${c.reason}\n${evidence(j)}`;
              return false;
            }
            if (c.outcome === 'agree') counts[c.rejected ? 'bothRefused' : 'bothAccepted']++;
            else {
              counts.documented++;
              for (const k of c.classes) byClass.set(k, (byClass.get(k) ?? 0) + 1);
            }
          }
          return true;
        }),
        { seed: SEED, numRuns: Math.max(1, Math.ceil(RUNS / BATCH)), endOnFailure: true },
      );
    } catch (e) {
      // fast-check's first lines carry the seed and path that replay the batch; the batch itself is too long to read.
      const replay = (e as Error).message.split('\n').slice(0, 2).join('\n');
      throw new Error(`${undocumented ?? (e as Error).message}\n\nreplay with WFMCK_SEED (and fast-check's path): ${replay}`);
    } finally {
      t.diagnostic(
        `archives tried: ${counts.tried}; agreements: ${counts.bothRefused + counts.bothAccepted} (both refused ${counts.bothRefused}, both accepted ${counts.bothAccepted}); documented differences: ${counts.documented}`,
      );
      for (const [k, n] of [...byClass].sort((a, b) => b[1] - a[1])) t.diagnostic(`  ${k}: ${n}`);
      t.diagnostic(`archives where tarfile hit an extraction error that is not a refusal: ${counts.tarfileErrors}`);
    }
  },
);

test('each documented class has a witness archive that tarfile extracts and the kit refuses for that reason', { skip }, async () => {
  const classes = Object.keys(WITNESSES);
  const judged = await judge(Object.values(WITNESSES));
  judged.forEach((j, i) => {
    const c = j.comparison;
    assert.ok(c.outcome === 'documented' && c.classes.includes(classes[i] as never), `${classes[i]}: ${JSON.stringify(c)}\n${evidence(j)}`);
  });
});

test('fixtures/oracle/DIFFERENCES.md has a row for every class the classifier knows', () => {
  const doc = readFileSync(new URL('../../fixtures/oracle/DIFFERENCES.md', import.meta.url), 'utf8');
  for (const c of DIFFERENCE_CLASSES) assert.match(doc, new RegExp(`^\\| \`${c}\` \\|`, 'm'), c);
  assert.deepEqual(Object.keys(WITNESSES).sort(), [...DIFFERENCE_CLASSES].sort());
});

test('kit bugs the oracle found stay fixed: readers that name entries differently, an entry named ./', { skip }, async () => {
  const names = Object.keys(KIT_BUG_REGRESSIONS);
  const judged = await judge(Object.values(KIT_BUG_REGRESSIONS));
  judged.forEach((j, i) => {
    assert.ok(kitRejects(j.kit), `${names[i]}: the kit accepts it\n${evidence(j)}`);
    assert.notEqual(j.comparison.outcome, 'undocumented', `${names[i]}\n${evidence(j)}`);
  });
});
