// `wfmck fleet` with deployments, as a user runs it: a child process, judged by its exit code and fleet-summary.json.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbedded, writeTrustFiles, type Embedded } from '../../run/processes/embedded.ts';
import { publishSample } from '../../simulators/fleet/assigned-deployments.ts';

const bin = fileURLToPath(new URL('../../bin/wfmck.mjs', import.meta.url));

async function fleet(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, 'fleet', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d) => (out.stdout += d));
  child.stderr.on('data', (d) => (out.stderr += d));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, ...out };
}

const summaryIn = async (dir: string) => JSON.parse(await readFile(join(dir, 'fleet-summary.json'), 'utf8'));

let embedded: Embedded;
let dir: string;
let trust: Awaited<ReturnType<typeof writeTrustFiles>>;

before(async () => {
  embedded = await startEmbedded();
  dir = await mkdtemp(join(tmpdir(), 'wfmck-fleet-deploy-'));
  trust = await writeTrustFiles(embedded, dir);
});
after(() => embedded.close());

test(
  'on the embedded default deployments are on: installed or failed by their fault, exit 0, counts in the summary',
  { timeout: 120_000 },
  async () => {
    const out = join(dir, 'embedded');
    const r = await fleet([
      '--devices',
      '12',
      '--deployments',
      '2',
      '--faults',
      'crashingContainer=0.5',
      '--duration',
      '0',
      '--seed',
      '51',
      '--out',
      out,
    ]);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const d = (await summaryIn(out)).totals.deployments;
    assert.equal(d.assigned, 24);
    assert.equal(d.installed + (d.failedByFault.CONTAINER_EXITED ?? 0), 24);
    assert.ok(d.failedByFault.CONTAINER_EXITED > 0 && d.installed > 0, JSON.stringify(d));
    assert.deepEqual(d.failed, {});
    assert.match(r.stdout, /deployments \d+\/24 installed, \d+ failed by fault, 0 failed unexpectedly, 0 pending/);
  },
);

test('a foreign WFM gets deployments through --hook-assign-deployment and --component (P5)', { timeout: 120_000 }, async () => {
  const component = await publishSample(embedded.registry, embedded.caPem, 'platform');
  // The operator's hook: stdin JSON to the embedded admin API, its {deploymentId} to stdout.
  const hook = join(dir, 'assign.mjs');
  await writeFile(
    hook,
    `let input = '';
for await (const chunk of process.stdin) input += chunk;
const res = await fetch(process.env.ADMIN_URL + '/hooks/assignDeployment', { method: 'POST', headers: { authorization: 'Bearer ' + process.env.ADMIN_TOKEN, 'content-type': 'application/json' }, body: input });
if (!res.ok) { process.stderr.write(await res.text()); process.exit(1); }
process.stdout.write(await res.text());
`,
  );
  const out = join(dir, 'foreign');
  const ref = `${component.repository}:${component.revision}`;
  const args = [
    '--wfm',
    embedded.wfm,
    '--ca-file',
    trust.caFile,
    '--device-ca-cert',
    trust.deviceCaCertFile,
    '--device-ca-key',
    trust.deviceCaKeyFile,
  ];
  const r = await fleet(
    [
      ...args,
      '--devices',
      '3',
      '--duration',
      '0',
      '--seed',
      '52',
      '--out',
      out,
      '--hook-assign-deployment',
      `"${process.execPath}" "${hook}"`,
      '--component',
      ref,
    ],
    {
      ADMIN_URL: embedded.admin.url,
      ADMIN_TOKEN: embedded.admin.token,
    },
  );
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const summary = await summaryIn(out);
  assert.equal(summary.spec.deployments, 1, 'a hook makes the default 1');
  assert.equal(summary.totals.deployments.installed, 3);
});

test('a foreign WFM without a hook deploys nothing by default, and refuses --deployments with exit 2', { timeout: 120_000 }, async () => {
  const args = [
    '--wfm',
    embedded.wfm,
    '--ca',
    trust.caFile,
    '--device-ca-cert',
    trust.deviceCaCertFile,
    '--device-ca-key',
    trust.deviceCaKeyFile,
    '--duration',
    '0',
  ];
  const out = join(dir, 'bare');
  const bare = await fleet([...args, '--devices', '2', '--seed', '53', '--out', out]);
  assert.equal(bare.code, 0, bare.stderr);
  assert.equal((await summaryIn(out)).totals.deployments.assigned, 0);
  const refused = await fleet([...args, '--deployments', '1']);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /--hook-assign-deployment/);
  const noComponent = await fleet([...args, '--hook-assign-deployment', 'true']);
  assert.equal(noComponent.code, 2);
  assert.match(noComponent.stderr, /--component/);
  // A component on any registry is a target the user names (spec/network-policy.ts); one without a revision is no reference.
  const noRevision = await fleet([...args, '--hook-assign-deployment', 'true', '--component', 'oci://registry.example.test/a/b']);
  assert.equal(noRevision.code, 2);
  assert.match(noRevision.stderr, /--component: "oci:\/\/registry\.example\.test\/a\/b" is not oci:\/\/HOST\[:PORT\]\/NAME:REVISION/);
});
