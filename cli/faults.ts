// `wfmck faults`: the catch rate. Each fault of faults/catalog.yaml switched on in the embedded default, the suites
// that check its requirements run against it, and the run must fail every one of them (the harness: faults/harness/).
import { randomInt } from 'node:crypto';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { faultCatalog, resolveFaultIds } from '../faults/catalog.ts';
import { quickSubset } from '../faults/harness/plan.ts';
import { proveFaults, type HarnessOptions } from '../faults/harness/runner.ts';
import { faultList } from '../faults/harness/table.ts';
import { EXIT_OK, UsageError } from '../run/usage.ts';

const DEFAULT_CONCURRENCY = 2;

const HELP = `usage: wfmck faults [options]

For every fault of faults/catalog.yaml, runs the suites that check the requirements it breaks against the embedded
reference services with that fault switched on (\`wfmck run --fault ID --grep ...\`), and checks the run fails every
one of them; runs the clean services once and checks nothing fails. Writes faults.json and prints a table.
Exit 0 iff every fault is caught, every time, and the clean services fail nothing; 1 otherwise; 2 for a usage error.

  --list               print every fault (id, service, breaks, description) and exit
  --only ID[,ID]       only these faults (the clean control then runs only their tests)
  --quick              the first fault of each service (the subset \`npm test\` runs)
  --repeat N           run each fault (and the clean control) N times: any disagreement is flaky, and flaky fails
  --concurrency N      runs at once (default ${DEFAULT_CONCURRENCY})
  --full               run the whole suite for each fault (slow; shows collateral failures)
  --seed N             seed of the first repeat (default random, printed); repeat k uses N+k-1
  --out DIR            output folder (default reports/out/faults; the whole set is also copied to reports/out/faults.json)
`;

const DEFAULT_OUT = join(fileURLToPath(new URL('..', import.meta.url)), 'reports', 'out', 'faults');

const FLAGS = {
  list: { type: 'boolean' }, only: { type: 'string' }, quick: { type: 'boolean' }, repeat: { type: 'string' },
  concurrency: { type: 'string' }, full: { type: 'boolean' }, seed: { type: 'string' }, out: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function run(argv: string[]): Promise<number> {
  let values: { [K in keyof typeof FLAGS]?: (typeof FLAGS)[K]['type'] extends 'boolean' ? boolean : string };
  try {
    values = parseArgs({ args: argv, options: FLAGS, strict: true, allowPositionals: false }).values;
  } catch (e) {
    throw new UsageError((e as Error).message.split('\n')[0]!);
  }
  if (values.help) return void process.stdout.write(HELP), EXIT_OK;
  if (values.list) return void process.stdout.write(faultList(faultCatalog())), EXIT_OK;
  if (values.only !== undefined && values.quick) throw new UsageError('--only and --quick each choose the faults; give one');
  const only = values.only?.split(',').map((s) => s.trim()).filter(Boolean);
  const faults = [...new Set(only ? resolveFaultIds(only) : values.quick ? quickSubset(faultCatalog()) : faultCatalog())];
  if (faults.length === 0) throw new UsageError('no fault selected');
  const opts: HarnessOptions = {
    faults,
    subset: faults.length < faultCatalog().length,
    repeat: positive(values.repeat, '--repeat', 1),
    concurrency: positive(values.concurrency, '--concurrency', DEFAULT_CONCURRENCY),
    full: values.full === true,
    seed: values.seed === undefined ? randomInt(2 ** 31 - 1) : int32(values.seed),
    out: values.out === undefined ? DEFAULT_OUT : resolve(values.out),
  };
  return proveFaults(opts, values.out === undefined);
}

function positive(raw: string | undefined, flag: string, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new UsageError(`${flag} takes a whole number of at least 1, not "${raw}"`);
  return Number(raw);
}

function int32(raw: string): number {
  if (!/^-?\d+$/.test(raw) || Number(raw) < -(2 ** 31) || Number(raw) > 2 ** 31 - 1) throw new UsageError(`--seed takes a 32-bit integer, not "${raw}"`);
  return Number(raw);
}
