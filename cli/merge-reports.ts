// `wfmck merge-reports <dirs...> --out DIR`: the outputs of a sharded conformance run (`wfmck run --shard i/n`, one
// per machine) as one run: Playwright's merge-reports over the shards' blob reports, with the kit's requirement
// reporter, JUnit and HTML. One shard's conformance.json is never a verdict; the merged one is.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BLOB_DIR } from '../run/contract/context.ts';
import { conformanceReporters } from '../reports/reporters.ts';
import { playwrightNodeArgs } from '../run/processes/playwright-launch.ts';
import type { RunContext } from '../run/contract/context.ts';
import { EXIT_OK, InputError, UsageError } from '../run/options/usage.ts';
import { helpText, parseCommand, type CommandSpec } from '../run/options/options.ts';
import { OUT } from '../run/options/option-sets.ts';

export const SPEC: CommandSpec = {
  name: 'merge-reports',
  usage: ['<shard out dir>... [--out DIR]'],
  about: `Joins the outputs of \`wfmck run --shard i/n\` (every shard, same seed) into one run's reports: conformance.json and
conformance.html (the verdict), junit.xml and Playwright's report. Exit codes as \`wfmck run\`: 0 no MUST failed,
1 a requirement failed, 2 for missing or mismatched shards (as \`wfmck merge\`).`,
  positionals: true,
  groups: [{ options: [{ ...OUT, doc: 'where the merged reports go (default reports/out/merged-<timestamp>)' }] }],
};

const root = fileURLToPath(new URL('..', import.meta.url));

export async function run(argv: string[]): Promise<number> {
  const { help, values, positionals } = parseCommand(SPEC, argv);
  if (help) return (void process.stdout.write(helpText(SPEC)), EXIT_OK);
  if (positionals.length === 0) throw new UsageError('<shard out dir>: missing: name the output folder of every shard');
  // The reporters' modules load only now: --help and a usage error cost a fraction of the start-up.
  const [{ timestamp }, { verdict }] = await Promise.all([import('../reports/requirement-reporter.ts'), import('./run-verdict.ts')]);
  const out = resolve((values.out as string | undefined) ?? join('reports', 'out', `merged-${timestamp(new Date())}`));
  const shards = await Promise.all(positionals.map((dir) => readShard(resolve(dir))));
  checkComplete(shards);

  const blobs = await mkdtemp(join(tmpdir(), 'wfmck-blobs-'));
  try {
    for (const s of shards) for (const zip of s.zips) await cp(join(s.dir, BLOB_DIR, zip), join(blobs, zip));
    const config = join(blobs, 'merge.config.mjs');
    await writeFile(config, mergeConfig(out, join(shards[0]!.dir, 'run-context.json')));
    const code = await playwright(['merge-reports', '--config', config, blobs]);
    if (code !== 0) say(`Playwright merge-reports exited ${code}`);
  } finally {
    await rm(blobs, { recursive: true, force: true });
  }
  const result = await verdict(join(out, 'conformance.json'));
  say(`${shards.length} shards merged: ${result.line}`);
  // Named only when written: a merge that failed leaves no matrix to open.
  if (existsSync(join(out, 'conformance.html'))) say(`requirement matrix  ${join(out, 'conformance.html')}`);
  return result.code;
}

interface Shard {
  dir: string;
  seed: number;
  shard: { index: number; total: number };
  zips: string[];
}

async function readShard(dir: string): Promise<Shard> {
  let context: RunContext;
  try {
    context = JSON.parse(await readFile(join(dir, 'run-context.json'), 'utf8')) as RunContext;
  } catch {
    throw new InputError(`${dir} has no readable run-context.json: is it the --out of a wfmck run?`);
  }
  const zips = (await readdir(join(dir, BLOB_DIR)).catch(() => [] as string[])).filter((f) => f.endsWith('.zip'));
  if (!context.shard || zips.length === 0) throw new InputError(`${dir} has no ${BLOB_DIR}/*.zip: was it run with --shard?`);
  return { dir, seed: context.seed, shard: context.shard, zips };
}

/** Every shard once, all of one run (same seed): a missing shard would leave requirements uncovered unnoticed. */
function checkComplete(shards: Shard[]): void {
  const seeds = new Set(shards.map((s) => s.seed));
  if (seeds.size > 1) throw new InputError(`the shards ran with different seeds (${[...seeds].join(', ')}): not one run`);
  const total = shards[0]!.shard.total;
  if (shards.some((s) => s.shard.total !== total))
    throw new InputError('the shards split the suites differently (--shard i/n with different n)');
  const seen = shards.map((s) => s.shard.index);
  const twice = seen.find((i, k) => seen.indexOf(i) !== k);
  if (twice !== undefined) throw new InputError(`shard ${twice}/${total} is given twice`);
  const missing = Array.from({ length: total }, (_, k) => k + 1).filter((i) => !seen.includes(i));
  if (missing.length)
    throw new InputError(
      `shard(s) ${missing.map((i) => `${i}/${total}`).join(', ')} missing: their requirements would read as not covered`,
    );
}

function mergeConfig(out: string, contextFile: string): string {
  const reporter = conformanceReporters(out, { contextFile, rootDir: root });
  return `export default ${JSON.stringify({ testDir: join(root, 'suites'), reporter }, null, 2)};\n`;
}

function playwright(args: string[]): Promise<number | null> {
  const child = spawn(process.execPath, [...playwrightNodeArgs(), ...args], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  return new Promise((res, rej) => {
    child.once('error', rej);
    child.once('exit', (code) => res(code));
  });
}

function say(line: string): void {
  process.stdout.write(`wfmck merge-reports: ${line}\n`);
}
