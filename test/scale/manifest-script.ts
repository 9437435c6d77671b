// The Kubernetes manifests of deploy/k8s as one shell script for the image, on this machine's loopback only: the
// reference WFM Service's `wfmck serve` (listening on 127.0.0.1 instead of the pod's every address), every pod of the
// fleet Job at once with its JOB_COMPLETION_INDEX and the ConfigMap's WFM_URL (its name pinned to 127.0.0.1 with
// --resolve, TLS still checking it), then the merge Job. The command lines are the manifests' own, only smaller.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

const here = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

async function documents(path: string): Promise<Record<string, any>[]> {
  return parseAllDocuments(await readFile(here(path), 'utf8')).map((d) => d.toJS() as Record<string, any>);
}

const line = (c: { command?: string[]; args?: string[] }) => (c.args ?? c.command ?? []).at(-1)!;
const set = (command: string, flag: string, value: string | number) => command.replace(new RegExp(`--${flag} \\S+`), `--${flag} ${value}`);

export interface ManifestRun {
  script: string;
  /** The WFM every shard names, with the free port in place of the manifests' one. */
  wfmUrl: string;
  shards: number;
  devices: number;
  /** The line before the merged fleet-summary.json in the merge Job's output. */
  marker: string;
}

/** `port`: a free loopback port for the WFM; the trust files go to the Secret's mount, shards to the volume. */
export async function manifestScript(port: number, devices = 8): Promise<ManifestRun> {
  const jobFile = await documents('deploy/k8s/fleet-indexed-job.yaml');
  const job = jobFile.find((d) => d.kind === 'Job')!;
  const url = new URL(jobFile.find((d) => d.kind === 'ConfigMap')!.data.WFM_URL);
  url.port = String(port);
  const wfmUrl = url.origin;
  const [deployment] = (await documents('deploy/k8s/wfm-service.yaml')).filter((d) => d.kind === 'Deployment');
  const trustDir = job.spec.template.spec.containers[0].volumeMounts.find((m: { name: string }) => m.name === 'trust').mountPath;
  let serve = deployment!.spec.template.spec.containers[0].args.join(' ');
  serve = set(set(set(serve, 'listen', '127.0.0.1'), 'wfm-port', port), 'state-dir', trustDir);
  const fleet = `${set(set(line(job.spec.template.spec.containers[0]), 'devices', devices), 'duration', 1)} --resolve ${url.hostname}:${port}:127.0.0.1`;
  const [merge] = await documents('deploy/k8s/fleet-merge-job.yaml');
  const mergeLine = line(merge!.spec.template.spec.containers[0]);
  const n = job.spec.completions as number;
  const pods = Array.from({ length: n }, (_, i) => `(JOB_COMPLETION_INDEX=${i}; ${fleet}) >/out/pod-${i}.log 2>&1 & pod${i}=$!`);
  const waits = Array.from({ length: n }, (_, i) => `wait $pod${i}; echo "pod ${i} exit $?"`);
  const script = [
    `WFM_URL=${wfmUrl}`,
    `wfmck ${serve} >/out/wfm.log 2>&1 & wfm=$!`,
    `until [ -s ${trustDir}/device-ca.key ]; do node -e 'setTimeout(() => {}, 200)'; done`,
    ...pods,
    ...waits,
    'kill $wfm',
    `(${mergeLine})`,
  ].join('\n');
  return { script, wfmUrl, shards: n, devices, marker: /echo '([^']+)'/.exec(mergeLine)![1]! };
}
