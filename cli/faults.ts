// `wfmck faults`: the catch rate. Each fault of faults/catalog.yaml switched on in the embedded default, the suites
// that check its requirements run against it, and the run must fail every one of them (the harness: faults/harness/).
import { randomInt } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { faultCatalog, resolveFaultIds, type FaultEntry } from '../faults/catalog.ts';
import { quickSubset } from '../faults/harness/plan.ts';
import type { HarnessOptions } from '../faults/harness/runner.ts';
import { faultList } from '../faults/harness/table.ts';
import { EXIT_OK, UsageError } from '../run/options/usage.ts';
import { path, positiveInt, text } from '../run/options/args.ts';
import { helpText, parseCommand, type CommandSpec } from '../run/options/options.ts';
import { OUT, SEED } from '../run/options/option-sets.ts';

const DEFAULT_CONCURRENCY = 2;
/** Faults per Playwright start-up: start-up was most of a fault's run (measured in docs/history.md, issue 34). */
const DEFAULT_BATCH = 24;

export const SPEC: CommandSpec = {
  name: 'faults',
  usage: ['[options]'],
  about: `For every fault of faults/catalog.yaml, runs the suites that check the requirements it breaks against the embedded
reference services with that fault switched on (\`wfmck run --fault ID --grep ...\`), and checks the run fails every
one of them; runs the clean services once and checks nothing fails. Writes faults.json and prints a table.
Exit 0 iff every fault is caught, every time, failing no requirement beyond those it breaks (a wrong verdict; with
--full that is shown, not judged), and the clean services fail nothing; 1 otherwise; 2 for a usage error.`,
  groups: [
    {
      options: [
        { flag: 'list', doc: 'print every fault (id, service, breaks, description) and exit' },
        {
          flag: 'only',
          value: 'ID[,ID]',
          doc: 'only these faults (the clean control then runs only their tests)',
          parse: (raw) =>
            resolveFaultIds(
              text(raw)
                .split(',')
                .map((s) => s.trim())
                .filter(Boolean),
            ),
        },
        { flag: 'quick', doc: 'the first fault of each service (the subset `npm test` runs)' },
        {
          flag: 'repeat',
          value: 'N',
          doc: 'run each fault (and the clean control) N times: any disagreement is flaky, and flaky fails',
          parse: positiveInt,
        },
        { flag: 'concurrency', value: 'N', doc: `runs at once (default ${DEFAULT_CONCURRENCY})`, parse: positiveInt },
        {
          flag: 'batch',
          value: 'N',
          doc: `faults per \`wfmck run\` (default ${DEFAULT_BATCH}): each on its own embedded default and judged alone, one Playwright start-up for all; 1 runs each fault alone`,
          parse: positiveInt,
        },
        { flag: 'full', doc: 'run the whole suite for each fault (slow; shows collateral failures)' },
        { ...SEED, doc: 'seed of the first repeat (default random, printed); repeat k uses N+k-1' },
        { ...OUT, doc: 'output folder (default reports/out/faults; the whole set is also copied to reports/out/faults.json)', parse: path },
      ],
    },
  ],
};

const DEFAULT_OUT = join(fileURLToPath(new URL('..', import.meta.url)), 'reports', 'out', 'faults');

export async function run(argv: string[]): Promise<number> {
  const { help, values: checked } = parseCommand(SPEC, argv);
  if (help) return (void process.stdout.write(helpText(SPEC)), EXIT_OK);
  const values = checked as {
    list?: true;
    only?: FaultEntry[];
    quick?: true;
    repeat?: number;
    concurrency?: number;
    batch?: number;
    full?: true;
    seed?: number;
    out?: string;
  };
  const all = faultCatalog();
  if (values.list) return (void process.stdout.write(faultList(all)), EXIT_OK);
  if (values.only !== undefined && values.quick) throw new UsageError('--only: --only and --quick each choose the faults; give one');
  const faults = [...new Set(values.only ?? (values.quick ? quickSubset(all) : all))];
  if (faults.length === 0) throw new UsageError('--only: no fault selected');
  const opts: HarnessOptions = {
    faults,
    subset: faults.length < all.length,
    repeat: values.repeat ?? 1,
    concurrency: values.concurrency ?? DEFAULT_CONCURRENCY,
    batch: values.batch ?? DEFAULT_BATCH,
    full: values.full === true,
    seed: values.seed ?? randomInt(2 ** 31 - 1),
    out: values.out ?? DEFAULT_OUT,
  };
  // The harness's modules load only now: --help and a usage error cost a fraction of the start-up.
  const { proveFaults } = await import('../faults/harness/runner.ts');
  return proveFaults(opts, values.out === undefined);
}
