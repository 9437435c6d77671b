// The example manifests of docs/scale.md are valid YAML with the fields the runner reads: an Indexed Job whose
// pods turn JOB_COMPLETION_INDEX into --shard i/n, and a CI matrix of --shard k/n; both one fleet (one seed), and
// the shards they name are disjoint and cover the fleet.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { shardIndexes } from '../../simulators/fleet/shard.ts';
import { parseFleetInput } from '../../simulators/fleet/spec.ts';
import { isLoopbackHost } from '../../spec/loopback.ts';

const here = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

async function yamlDocuments(path: string): Promise<Record<string, any>[]> {
  const docs = parseAllDocuments(await readFile(here(path), 'utf8'));
  for (const d of docs) assert.deepEqual(d.errors, [], `${path} parses as YAML`);
  return docs.map((d) => d.toJS() as Record<string, any>);
}

/** Every shard the commands name, parsed as `wfmck fleet --shard` parses it: disjoint, covering 0..total-1. */
function assertPartition(shards: string[], total = 1000): void {
  const owner = new Map<number, string>();
  for (const text of shards) {
    const { shard } = parseFleetInput({ shard: text }, () => '--shard');
    for (const k of shardIndexes(total, shard!)) {
      assert.equal(owner.get(k), undefined, `device ${k} is in ${owner.get(k)} and ${text}`);
      owner.set(k, text);
    }
  }
  assert.equal(owner.size, total, 'every top-level device is in one shard');
}

const flag = (command: string, name: string) => new RegExp(`--${name}[ =]"?([^\\s"]+)`).exec(command)?.[1];

test('the Kubernetes Indexed Job: completions = parallelism = n, and pod i runs --shard $((JOB_COMPLETION_INDEX+1))/n of one seed', async () => {
  const [job] = (await yamlDocuments('deploy/k8s/fleet-indexed-job.yaml')).filter((d) => d.kind === 'Job');
  assert.ok(job, 'a Job document');
  assert.equal(job.apiVersion, 'batch/v1');
  assert.equal(job.spec.completionMode, 'Indexed');
  const n = job.spec.completions as number;
  assert.ok(Number.isInteger(n) && n > 1);
  assert.equal(job.spec.parallelism, n);
  const pod = job.spec.template.spec;
  assert.ok(['Never', 'OnFailure'].includes(pod.restartPolicy), 'a Job pod never restarts Always');
  const fleet = pod.containers.find((c: { name: string }) => c.name === 'fleet');
  const command = [...(fleet.command ?? []), ...(fleet.args ?? [])].join(' ');
  assert.match(command, /npx wfmck fleet /);
  assert.match(command, new RegExp(`--shard \\$\\(\\(JOB_COMPLETION_INDEX\\+1\\)\\)/${n}(\\s|$)`));
  assert.match(flag(command, 'seed') ?? '', /^\d+$/, 'a fixed --seed: every pod simulates the same fleet');
  const wfm = flag(command, 'wfm');
  if (wfm) assert.ok(isLoopbackHost(new URL(wfm).hostname), 'the WFM is on the pod loopback');
  // What the pods' shell makes of it, for every index Kubernetes hands out (the command echoed, not run).
  const fleetCommand = command.slice(command.indexOf('npx wfmck fleet'));
  const expanded = Array.from({ length: n }, (_, index) =>
    execFileSync('/bin/sh', ['-c', `echo ${fleetCommand}`], {
      env: { ...process.env, JOB_COMPLETION_INDEX: String(index) },
      encoding: 'utf8',
    }),
  );
  assertPartition(expanded.map((line) => flag(line, 'shard')!));
});

test('the CI matrix: shard k of n for k = 1..n, one seed, and a merge job after all of them', async () => {
  const [workflow] = await yamlDocuments('deploy/ci/fleet-matrix.yml');
  const fleet = workflow!.jobs.fleet;
  const shards = fleet.strategy.matrix.shard as number[];
  const n = shards.length;
  assert.deepEqual(
    shards,
    Array.from({ length: n }, (_, i) => i + 1),
  );
  assert.equal(fleet.strategy['fail-fast'], false);
  const run = (fleet.steps as { run?: string }[]).map((s) => s.run ?? '').find((r) => r.includes('wfmck fleet'))!;
  assert.match(run, new RegExp(`--shard \\$\\{\\{ matrix.shard \\}\\}/${n}(\\s|$)`));
  const seed = flag(run, 'seed');
  assert.ok(seed === '$FLEET_SEED' && /^\d+$/.test(String(workflow!.env.FLEET_SEED)), 'one fixed seed for every shard');
  assertPartition(shards.map((k) => `${k}/${n}`));
  const upload = fleet.steps.find((s: { uses?: string }) => s.uses?.startsWith('actions/upload-artifact')).with.name as string;
  const merge = workflow!.jobs.merge;
  assert.equal(merge.needs, 'fleet');
  const download = merge.steps.find((s: { uses?: string }) => s.uses?.startsWith('actions/download-artifact')).with;
  assert.equal(upload.replace('${{ matrix.shard }}', '*'), download.pattern, 'the merge job downloads every shard');
  assert.ok(merge.steps.some((s: { run?: string }) => s.run?.includes(`wfmck merge ${download.path}/*`)));
});
