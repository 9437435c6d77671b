// `wfmck merge <dirs...> --out DIR`: reads the fleet-summary.json files of a fleet's shards (`wfmck fleet --shard i/n`,
// one per machine), merges them (simulators/fleet/merge-summaries.ts) and writes one. Exit 0 when every shard is there
// and passed, 1 when a shard did not pass, 2 for a missing shard (as merge-reports) and unreadable or mismatched summaries.
import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { latencyLines } from '../simulators/fleet/progress.ts';
import { thresholdLines } from '../simulators/fleet/thresholds.ts';
import type { FleetSummary } from '../simulators/fleet/summary.ts';
import type { ShardSummary } from '../simulators/fleet/merge-summaries.ts';
import { EXIT_FAIL, EXIT_OK, EXIT_USAGE, InputError, UsageError } from '../run/options/usage.ts';
import { helpText, parseCommand, type CommandSpec } from '../run/options/options.ts';
import { OUT } from '../run/options/option-sets.ts';

export const SPEC: CommandSpec = {
  name: 'merge',
  usage: ['<dir|file>... [--out DIR]'],
  about: `Merges the fleet-summary.json of each shard of one fleet (same seed and settings, --shard 1/n .. n/n) into one
fleet-summary.json: counts summed, latency percentiles from the merged histograms, unexpected answers collapsed.
Rates are summed (shards run side by side); wallMs, startPhaseMs and peakRssBytes are the largest shard's; CPU times add up.
Exit 0 when every shard is there and passed, 1 when a shard did not pass, 2 when a shard is missing (the partial
summary is still written, complete: false), given twice, or of another fleet, and for unreadable summaries.`,
  positionals: true,
  groups: [{ options: [{ ...OUT, doc: 'where the merged fleet-summary.json goes (default reports/out/fleet-merged-<timestamp>)' }] }],
};

export async function run(argv: string[]): Promise<number> {
  const { help, values, positionals } = parseCommand(SPEC, argv);
  if (help) return (void process.stdout.write(helpText(SPEC)), EXIT_OK);
  if (positionals.length === 0) throw new UsageError("<dir|file>: missing: give the shards' output folders (or their fleet-summary.json)");
  // The fleet's modules (faker among them) load only now: --help and a usage error cost a fraction of the start-up.
  const [{ SUMMARY_FILE, writeSummary }, { mergeSummaries }] = await Promise.all([
    import('../simulators/fleet/summary.ts'),
    import('../simulators/fleet/merge-summaries.ts'),
  ]);
  const shards = await Promise.all(positionals.map((p) => load(p, SUMMARY_FILE)));
  const merged = mergeSummaries(shards);
  const out = resolve(
    (values.out as string | undefined) ?? join('reports', 'out', `fleet-merged-${new Date().toISOString().replace(/[:.]/g, '-')}`),
  );
  const file = await writeSummary(out, merged);
  const t = merged.totals;
  const missing = merged.complete ? '' : `, INCOMPLETE: only ${merged.shard}`;
  process.stdout.write(
    `${merged.passed ? 'PASS' : 'FAIL'} ${shards.length} shard(s)${missing}: ${t.clients.reporting}/${merged.expected.clients} devices reporting, ` +
      `${t.deviceIdsCreated}/${merged.expected.deviceIds} deviceIds created, ${t.requests.unexpected} unexpected, ${t.requests.transportErrors} transport errors, ` +
      `seed ${merged.seed}\n${file}\n`,
  );
  process.stdout.write([...latencyLines(merged.latency), ...thresholdLines(merged.thresholds)].map((l) => `  ${l}\n`).join(''));
  if (!merged.complete) {
    // As merge-reports: a missing shard leaves part of the fleet unseen, which is no verdict.
    const missing = Array.from({ length: merged.spec.shard.count }, (_, i) => i).filter(
      (i) => !shards.some((s) => s.summary.spec.shard.index === i),
    );
    process.stderr.write(
      `wfmck merge: shard(s) ${missing.map((i) => `${i + 1}/${merged.spec.shard.count}`).join(', ')} missing: the merged summary is partial (complete: false)\n`,
    );
    return EXIT_USAGE;
  }
  return merged.passed ? EXIT_OK : EXIT_FAIL;
}

async function load(path: string, summaryFile: string): Promise<ShardSummary> {
  const found = await stat(path).catch(() => undefined);
  if (!found) throw new InputError(`${path}: no such folder or file`);
  const file = found.isDirectory() ? join(path, summaryFile) : path;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new InputError(`${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    return { source: file, summary: JSON.parse(text) as FleetSummary };
  } catch {
    throw new InputError(`${file} is not JSON`);
  }
}
