// `npm run bench`: every figure of issue 6 measured in one run, one after the other on a quiet event loop, then
// bench.json and the table. `--quick` shrinks every size for a CI smoke run (the numbers then mean little).
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { measureMemory } from './memory.ts';
import { measureOnboarding, type OnboardingSettings } from './onboarding.ts';
import { benchReport, benchTable, FIGURES, machineAt, writeBenchReport, type FigureName, type Measurements } from './report.ts';
import { measureRequestRates, type RateSettings } from './request-rate.ts';
import { measureSuite } from './suite-time.ts';
import { benchPki } from './wfm-process.ts';
import { measureMtls, type MtlsSettings } from './mtls.ts';
import { measureFloors } from './floors.ts';
import { measureFleet, type FleetSettings } from './fleets.ts';
import { measureWorkersScaling, type WorkersScalingSettings } from './workers-scaling.ts';

interface Sizes {
  rates: RateSettings;
  /** The fleet runner in PUT mode in 1 and 2 worker processes, against a bare server. */
  fleetWorkers: WorkersScalingSettings;
  onboarding: OnboardingSettings;
  memoryDevices: number;
  mtls: MtlsSettings;
  /** The acceptance fleet of issue 20, from start to all reporting. */
  acceptanceFleet: FleetSettings;
  /** A fleet held with every device polling desired state (issue 20: 100,000 devices, 5 minutes). */
  liveFleet: FleetSettings;
  /** A --grep for the suite figure; undefined runs the default suite. */
  suiteGrep: string | undefined;
}

const FULL: Sizes = {
  rates: { connections: 16, seconds: 10, rounds: 3, warmupSeconds: 1 },
  fleetWorkers: { connections: 16, seconds: 10, rounds: 2, warmupSeconds: 1 },
  onboarding: { devices: 10_000, concurrency: 64 },
  memoryDevices: 100_000,
  mtls: { devices: 30_000, workers: 2, sources: 4, concurrency: 64, holdSeconds: 60, pollSeconds: 30 },
  acceptanceFleet: { devices: 1000, seeThruGateways: 20, opaqueGateways: 10, children: 5, tickInterval: 1, duration: 1 },
  // 90,000 plain + 1,000 see-thru and 1,000 opaque gateways with 4 children each = 100,000 devices (92,000 clients);
  // the duration covers the start phase (~5 min on 2 cores) and 5 minutes held after it.
  liveFleet: {
    devices: 90_000,
    seeThruGateways: 1000,
    opaqueGateways: 1000,
    children: 4,
    tickInterval: 60,
    duration: 660,
    deployments: 0,
  },
  suiteGrep: undefined,
};

// Every timed phase as short as still exercises it (a poll or two while held): the CI runs it for the code, not the numbers.
const QUICK: Sizes = {
  rates: { connections: 8, seconds: 1, rounds: 1, warmupSeconds: 0.25 },
  fleetWorkers: { connections: 8, seconds: 1, rounds: 1, warmupSeconds: 0.25 },
  onboarding: { devices: 1_000, concurrency: 64 },
  memoryDevices: 1_000,
  mtls: { devices: 300, workers: 2, sources: 4, concurrency: 64, holdSeconds: 2, pollSeconds: 1 },
  acceptanceFleet: { devices: 100, seeThruGateways: 2, opaqueGateways: 1, children: 5, tickInterval: 1, duration: 1 },
  liveFleet: { devices: 450, seeThruGateways: 5, opaqueGateways: 5, children: 4, tickInterval: 1, duration: 4, deployments: 0 },
  suiteGrep: 'CAP-PUT-201 PUT for a deviceId',
};

const HELP = `usage: node --import ./bin/typescript.mjs bench/run.ts [--quick] [--only LIST] [--out DIR] [--connections N]

Measures, in one run: the fleet's PUT capabilities rate beside autocannon's (signing off and on), the same in 1
and 2 worker processes against a bare server, the onboarding rate of ${FULL.onboarding.devices.toLocaleString('en')} signing devices, the heap per device
with ${FULL.memoryDevices.toLocaleString('en')} devices alive, (edition miaf) how many mutual-TLS devices ${FULL.mtls.workers} worker processes hold (${FULL.mtls.devices.toLocaleString('en')}, each
its own SVID and connection) and their handshakes per second, the wall time of the default wfmck run, the
acceptance fleet from start to all reporting, and a live fleet of ${(FULL.liveFleet.devices + (FULL.liveFleet.seeThruGateways + FULL.liveFleet.opaqueGateways) * (1 + FULL.liveFleet.children)).toLocaleString('en')} devices polling every ${FULL.liveFleet.tickInterval} s
held for 5 minutes (~25 minutes in all). Writes DIR/bench.json (default reports/out).
  --quick          small sizes for a smoke run (${QUICK.onboarding.devices} devices, ${QUICK.rates.seconds} s rates)
  --only LIST      measure only these figures, comma-separated: ${FIGURES.join(', ')}
  --connections N  connections for both request-rate clients (default ${FULL.rates.connections})
`;

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean' },
      out: { type: 'string' },
      connections: { type: 'string' },
      only: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return (void process.stdout.write(HELP), 0);
  const quick = values.quick === true;
  const base = quick ? QUICK : FULL;
  const connections = values.connections === undefined ? base.rates.connections : Number(values.connections);
  if (!Number.isSafeInteger(connections) || connections < 1)
    throw new Error(`--connections: expected a whole number >= 1, got ${values.connections}`);
  const sizes: Sizes = { ...base, rates: { ...base.rates, connections } };
  const out = resolve(values.out ?? join('reports', 'out'));
  const startedAt = new Date();
  const load = loadavg();
  const t0 = performance.now();

  const only = values.only === undefined ? [...FIGURES] : values.only.split(',').map((x) => x.trim());
  const unknown = only.filter((x) => !(FIGURES as readonly string[]).includes(x));
  if (unknown.length) throw new Error(`--only: no figure ${unknown.join(', ')}; figures: ${FIGURES.join(', ')}`);
  const wanted = (name: FigureName) => only.includes(name);

  const say = (line: string) => process.stderr.write(`bench: ${line}\n`);
  const m: Partial<Measurements> = {};
  const pki = wanted('requestRate') || wanted('fleetWorkers') || wanted('onboarding') ? await benchPki() : undefined;
  if (wanted('floors')) {
    say('floors: native P-256 sign and verify, a certificate parsed and checked, the kit signing one request');
    m.floors = await measureFloors(quick ? 500 : 2_000);
  }
  if (wanted('requestRate')) {
    say(`request rates: ${sizes.rates.rounds} round(s) of ${sizes.rates.seconds} s per side, ${connections} connections`);
    m.requestRate = await measureRequestRates(pki!, sizes.rates);
  }
  if (wanted('fleetWorkers')) {
    const w = sizes.fleetWorkers;
    say(
      `fleet workers: the PUT rate in 1 and in 2 worker processes, ${w.rounds} round(s) of ${w.seconds} s each, ${w.connections} connections`,
    );
    m.fleetWorkers = await measureWorkersScaling(pki!, w);
  }
  if (wanted('onboarding')) {
    say(`onboarding: ${sizes.onboarding.devices} devices`);
    m.onboarding = await measureOnboarding(pki!, sizes.onboarding);
  }
  if (wanted('memory')) {
    say(`memory: ${sizes.memoryDevices} devices alive`);
    m.memory = await measureMemory(sizes.memoryDevices);
  }
  if (wanted('mtls')) {
    say(
      `mTLS (edition miaf): ${sizes.mtls.devices} devices, each its own SVID and connection, over ${sizes.mtls.sources} source addresses`,
    );
    m.mtls = await measureMtls(sizes.mtls);
  }
  if (wanted('suite')) {
    say(`suite: wfmck run${sizes.suiteGrep ? ` --grep '${sizes.suiteGrep}'` : ''}`);
    m.suite = await measureSuite(join(out, 'bench-suite'), sizes.suiteGrep);
  }
  for (const name of ['acceptanceFleet', 'liveFleet'] as const) {
    if (!wanted(name)) continue;
    const s = sizes[name];
    say(
      `${name}: wfmck fleet --devices ${s.devices} --see-thru-gateways ${s.seeThruGateways} --opaque-gateways ${s.opaqueGateways} --children ${s.children} --tick-interval ${s.tickInterval} --duration ${s.duration}`,
    );
    m[name] = await measureFleet(s, join(out, `bench-${name}`));
  }

  const machine = machineAt(load);
  const report = benchReport(m, { quick, startedAt, wallSeconds: (performance.now() - t0) / 1000, machine });
  const file = await writeBenchReport(out, report);
  process.stdout.write(benchTable(report) + `${file}\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (err: Error) => {
    process.stderr.write(`bench: ${err.stack ?? err.message}\n`);
    process.exitCode = 2;
  },
);
