// One worker process of the fleet-workers figure (workers-scaling.ts): the fleet runner in PUT mode (put-fleet.ts)
// over its share of the connections, its devices onboarded at the reference WFM and their PUTs sent to a bare
// server, so that what limits the rate is the client. Its window opens when the parent says, so that every worker
// measures the same seconds; it reports its answers and its own CPU over them.
import { describeDevice } from '../simulators/data/describe.ts';
import { loadIssued } from '../protocol/pki.ts';
import { resolveProfile, type Profile } from '../spec/profile.ts';
import { childMain, parentSays } from './in-step.ts';
import { CertificateMint, type MintedCertificate } from './mint.ts';
import { fleetPuts } from './put-fleet.ts';
import { CpuMeter } from './wfm-process.ts';

export interface PutWorkerStart {
  worker: number;
  wfm: string;
  putUrl: string;
  caPem: string;
  deviceCa: { certPem: string; keyPem: string };
  profile: Partial<Profile>;
  connections: number;
  warmupMs: number;
  durationMs: number;
}

export type PutWorkerReport = { type: 'warm' } | { type: 'measured'; ok: number; failed: number; seconds: number; cpuMs: number };

const send = (report: PutWorkerReport) => process.send!(report);

childMain<PutWorkerStart>((start) => `bench put worker ${start.worker + 1}`, run);

async function run(s: PutWorkerStart): Promise<void> {
  const deviceCa = await loadIssued(s.deviceCa.certPem, s.deviceCa.keyPem);
  const mint = new CertificateMint(deviceCa);
  const certificates: MintedCertificate[] = [];
  for (let i = 0; i < s.connections; i++) certificates.push(await mint.mint(`bench-workers-${s.worker}-${String(i).padStart(6, '0')}`));
  const cpu = CpuMeter.ofThisProcess();
  const r = await fleetPuts(
    {
      target: { wfm: s.wfm, ca: s.caPem, deviceCa, profile: resolveProfile(s.profile) },
      connections: s.connections,
      description: describeDevice(1, 0, 'plain', { idPrefix: `bench-w${s.worker}` }),
      certificates,
      warmupMs: s.warmupMs,
      durationMs: s.durationMs,
      putUrl: s.putUrl,
    },
    {
      begin: async () => {
        send({ type: 'warm' });
        await parentSays('measure');
        await cpu.begin();
      },
      end: () => cpu.end(),
    },
  );
  send({ type: 'measured', ok: r.ok, failed: r.other + r.errors, seconds: r.seconds, cpuMs: cpu.ms });
}
