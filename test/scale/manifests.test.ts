// The example manifests of docs/scale.md are valid YAML with the fields the runner reads: an Indexed Job whose
// pods turn JOB_COMPLETION_INDEX into --shard i/n, and a CI matrix of --shard k/n; both one fleet (one seed) against
// ONE WFM they name (no WFM beside each shard), and the shards they name are disjoint and cover the fleet. The image
// they run is the one deploy/Containerfile builds, as a user other than root.
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
const commandOf = (c: { command?: string[]; args?: string[] }) => [...(c.command ?? []), ...(c.args ?? [])].join(' ');

/** The image deploy/Containerfile builds, as its own build line tags it: wfmck:<package.json version>. */
async function builtImage(): Promise<string> {
  const { version } = JSON.parse(await readFile(here('package.json'), 'utf8')) as { version: string };
  const containerfile = await readFile(here('deploy/Containerfile'), 'utf8');
  assert.match(containerfile, new RegExp(`-t wfmck:${version.replace(/\./g, '\\.')}\\s`), 'the build line tags the version');
  return `wfmck:${version}`;
}

/** A pod that runs as uid 1000 of the image, never as root. */
function assertNonRoot(pod: Record<string, any>, what: string): void {
  assert.equal(pod.securityContext?.runAsNonRoot, true, `${what}: runAsNonRoot`);
  assert.ok(Number(pod.securityContext?.runAsUser) > 0, `${what}: a uid other than 0`);
}

test('the Kubernetes Indexed Job: completions = parallelism = n, and pod i runs --shard $((JOB_COMPLETION_INDEX+1))/n of one seed against one named WFM', async () => {
  const docs = await yamlDocuments('deploy/k8s/fleet-indexed-job.yaml');
  const job = docs.find((d) => d.kind === 'Job')!;
  assert.ok(job, 'a Job document');
  assert.equal(job.apiVersion, 'batch/v1');
  assert.equal(job.spec.completionMode, 'Indexed');
  const n = job.spec.completions as number;
  assert.ok(Number.isInteger(n) && n > 1);
  assert.equal(job.spec.parallelism, n);
  const pod = job.spec.template.spec;
  assert.ok(['Never', 'OnFailure'].includes(pod.restartPolicy), 'a Job pod never restarts Always');
  assert.equal(pod.initContainers, undefined, 'no WFM sidecar: the WFM is named, not started in each pod');
  assert.deepEqual(
    pod.containers.map((c: { name: string }) => c.name),
    ['fleet'],
  );
  const fleet = pod.containers[0];
  assert.equal(fleet.image, await builtImage());
  assertNonRoot(pod, 'the fleet pod');
  const command = commandOf(fleet);
  assert.match(command, /(^|\s)wfmck fleet /);
  assert.match(command, new RegExp(`--shard \\$\\(\\(JOB_COMPLETION_INDEX\\+1\\)\\)/${n}(\\s|$)`));
  assert.match(flag(command, 'seed') ?? '', /^\d+$/, 'a fixed --seed: every pod simulates the same fleet');
  assert.equal(flag(command, 'wfm'), '$WFM_URL');

  // WFM_URL comes from the ConfigMap of the same file; the trust files from the Secret volume's keys.
  const configMapName = fleet.envFrom.find((e: Record<string, any>) => e.configMapRef).configMapRef.name;
  const target = docs.find((d) => d.kind === 'ConfigMap' && d.metadata.name === configMapName);
  assert.ok(target, `the ConfigMap ${configMapName} is in the file`);
  const mounts = new Map(fleet.volumeMounts.map((m: { name: string; mountPath: string }) => [m.name, m.mountPath]));
  const secret = pod.volumes.find((v: Record<string, any>) => v.secret).secret;
  const trustDir = mounts.get(pod.volumes.find((v: Record<string, any>) => v.secret).name);
  const secretFiles = secret.items.map((i: { path: string }) => `${trustDir}/${i.path}`).sort();
  assert.deepEqual(
    ['ca-file', 'device-ca-cert', 'device-ca-key'].map((f) => flag(command, f)).sort(),
    secretFiles,
    "the WFM's CA and the device CA it trusts are the Secret's files",
  );

  // What the pods' shell makes of it, for every index Kubernetes hands out (the command echoed, not run).
  const fleetCommand = command.slice(command.indexOf('wfmck fleet'));
  const expanded = Array.from({ length: n }, (_, index) =>
    execFileSync('/bin/sh', ['-c', `echo ${fleetCommand}`], {
      env: { ...process.env, ...target!.data, JOB_COMPLETION_INDEX: String(index) },
      encoding: 'utf8',
    }),
  );
  assertPartition(expanded.map((line) => flag(line, 'shard')!));
  const urls = new Set(expanded.map((line) => flag(line, 'wfm')));
  assert.equal(urls.size, 1, 'every shard loads the same WFM');
  assert.ok(!isLoopbackHost(new URL([...urls][0]!).hostname), 'the WFM is a named host, not the pod loopback');
  assert.equal(new Set(expanded.map((line) => flag(line, 'out'))).size, n, 'each shard its own summary folder');
  assert.ok(
    expanded.every((line) => flag(line, 'out')!.startsWith(`${mounts.get('out')}/`)),
    'on the shared volume',
  );
});

test('the merge Job reads every shard from the volume the fleet pods write to', async () => {
  const [fleetJob] = (await yamlDocuments('deploy/k8s/fleet-indexed-job.yaml')).filter((d) => d.kind === 'Job');
  const [merge] = await yamlDocuments('deploy/k8s/fleet-merge-job.yaml');
  const claim = (pod: Record<string, any>) =>
    pod.volumes.find((v: Record<string, any>) => v.persistentVolumeClaim).persistentVolumeClaim.claimName;
  const pod = merge!.spec.template.spec;
  assert.equal(claim(pod), claim(fleetJob!.spec.template.spec));
  assert.equal(pod.containers[0].image, await builtImage());
  assertNonRoot(pod, 'the merge pod');
  const fleetOut = flag(commandOf(fleetJob!.spec.template.spec.containers[0]), 'out')!;
  const command = commandOf(pod.containers[0]);
  const shardsGlob = /wfmck merge (\S+)/.exec(command)?.[1];
  assert.equal(shardsGlob, fleetOut.replace(/\$\(\(.*\)\)$/, '*'), "the merge names every shard's folder");
  assert.match(command, /exit \$code/, "the Job ends with wfmck merge's exit code");
});

test('the self-contained WFM: `wfmck serve --listen 0.0.0.0 --hostname <Service>` on the port the ConfigMap names', async () => {
  const docs = await yamlDocuments('deploy/k8s/wfm-service.yaml');
  const deployment = docs.find((d) => d.kind === 'Deployment')!;
  const service = docs.find((d) => d.kind === 'Service')!;
  const [target] = (await yamlDocuments('deploy/k8s/fleet-indexed-job.yaml')).filter((d) => d.kind === 'ConfigMap');
  const url = new URL(target!.data.WFM_URL);
  const pod = deployment.spec.template.spec;
  const wfm = pod.containers[0];
  assert.equal(wfm.image, await builtImage());
  assertNonRoot(pod, 'the WFM pod');
  const command = commandOf(wfm);
  assert.match(command, /^serve /, 'the image runs `wfmck serve` (its entrypoint is wfmck)');
  assert.equal(flag(command, 'listen'), '0.0.0.0');
  assert.equal(flag(command, 'hostname'), service.metadata.name, "the certificate names the Service's DNS name");
  assert.equal(url.hostname, service.metadata.name, 'the fleet names that Service');
  const port = service.spec.ports[0];
  assert.equal(String(port.port), url.port);
  const containerPort = wfm.ports.find((p: { name: string }) => p.name === port.targetPort).containerPort;
  assert.equal(String(containerPort), flag(command, 'wfm-port'));
  assert.deepEqual(service.spec.selector, deployment.spec.selector.matchLabels);
});

test('the CI matrix: shard k of n for k = 1..n, one seed and one WFM URL, and a merge job after all of them', async () => {
  const [workflow] = await yamlDocuments('deploy/ci/fleet-matrix.yml');
  const fleet = workflow!.jobs.fleet;
  const shards = fleet.strategy.matrix.shard as number[];
  const n = shards.length;
  assert.deepEqual(
    shards,
    Array.from({ length: n }, (_, i) => i + 1),
  );
  assert.equal(fleet.strategy['fail-fast'], false);
  assert.equal(fleet.services, undefined, 'no WFM service container beside each shard');
  const run = (fleet.steps as { run?: string }[]).map((s) => s.run ?? '').find((r) => r.includes('wfmck fleet'))!;
  assert.match(run, new RegExp(`--shard \\$\\{\\{ matrix.shard \\}\\}/${n}(\\s|$)`));
  const seed = flag(run, 'seed');
  assert.ok(seed === '$FLEET_SEED' && /^\d+$/.test(String(workflow!.env.FLEET_SEED)), 'one fixed seed for every shard');
  assert.equal(flag(run, 'wfm'), '$WFM_URL');
  assert.equal(workflow!.env.WFM_URL, '${{ inputs.wfm_url || vars.WFM_URL }}', 'one URL, set for the whole workflow');
  assert.ok(workflow!.on.workflow_dispatch.inputs.wfm_url, 'a wfm_url input');
  const trust = (fleet.steps as { env?: Record<string, string>; run?: string }[]).find((s) => s.env?.DEVICE_CA_KEY)!;
  for (const [f, secret] of [
    ['ca-file', 'WFM_CA_PEM'],
    ['device-ca-cert', 'DEVICE_CA_PEM'],
    ['device-ca-key', 'DEVICE_CA_KEY'],
  ] as const) {
    assert.equal(trust.env![secret], `\${{ secrets.${secret} }}`);
    assert.ok(trust.run!.includes(`"$${secret}" > ${flag(run, f)}`), `--${f} is written from the secret ${secret}`);
  }
  assertPartition(shards.map((k) => `${k}/${n}`));
  const upload = fleet.steps.find((s: { uses?: string }) => s.uses?.startsWith('actions/upload-artifact')).with.name as string;
  const merge = workflow!.jobs.merge;
  assert.equal(merge.needs, 'fleet');
  const download = merge.steps.find((s: { uses?: string }) => s.uses?.startsWith('actions/download-artifact')).with;
  assert.equal(upload.replace('${{ matrix.shard }}', '*'), download.pattern, 'the merge job downloads every shard');
  assert.ok(merge.steps.some((s: { run?: string }) => s.run?.includes(`wfmck merge ${download.path}/*`)));
});

test('deploy/Containerfile: multi-stage from ARG BASE, npm ci --omit=dev, a non-root USER, ENTRYPOINT ["wfmck"]', async () => {
  const text = await readFile(here('deploy/Containerfile'), 'utf8');
  const lines = text.split('\n').filter((l) => l.trim() && !l.startsWith('#'));
  assert.match(lines[0]!, /^ARG BASE=node:20\S*$/, 'the base is a build argument, node 20 by default');
  const froms = lines.filter((l) => l.startsWith('FROM '));
  assert.ok(froms.length >= 2 && froms.every((l) => l.startsWith('FROM ${BASE}')), 'multi-stage, every stage from BASE');
  assert.ok(
    lines.some((l) => /^RUN .*npm.*\bci\b.*--omit=dev/.test(l)),
    'npm ci --omit=dev',
  );
  const user = lines.filter((l) => l.startsWith('USER ')).at(-1);
  assert.ok(user && !/^USER (0|root)\b/.test(user), 'the last USER is not root');
  assert.equal(lines.filter((l) => l.startsWith('ENTRYPOINT')).at(-1), 'ENTRYPOINT ["wfmck"]');
  const { dependencies } = JSON.parse(await readFile(here('package.json'), 'utf8')) as { dependencies: Record<string, string> };
  assert.ok(dependencies.esbuild, 'esbuild is a runtime dependency: bin/typescript.mjs runs the sources through it');
  const ignored = (await readFile(here('.containerignore'), 'utf8')).split('\n');
  assert.ok(ignored.includes('node_modules'), 'the host node_modules stays out of the image');
  assert.deepEqual(await readFile(here('.dockerignore'), 'utf8'), ignored.join('\n'), '.dockerignore says the same');
});
