// `npm run bench`: every figure of issue 6 measured in one run, one after the other on a quiet event loop, then
// bench.json and the table. `--quick` shrinks every size for a CI smoke run (the numbers then mean little).
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { measureMemory } from './memory.ts';
import { measureOnboarding, type OnboardingSettings } from './onboarding.ts';
import { benchReport, benchTable, machineAt, writeBenchReport } from './report.ts';
import { measureRequestRates, type RateSettings } from './request-rate.ts';
import { measureSuite } from './suite-time.ts';
import { benchPki } from './wfm-process.ts';
import { measureMtls, type MtlsSettings } from './mtls.ts';
import { measureFloors } from './floors.ts';

interface Sizes {
  rates: RateSettings;
  onboarding: OnboardingSettings;
  memoryDevices: number;
  mtls: MtlsSettings;
  /** A --grep for the suite figure; undefined runs the default suite. */
  suiteGrep: string | undefined;
}

const FULL: Sizes = {
  rates: { connections: 16, seconds: 10, rounds: 3, warmupSeconds: 1 },
  onboarding: { devices: 10_000, concurrency: 64 },
  memoryDevices: 100_000,
  mtls: { devices: 8_000, sources: 4, concurrency: 64, holdSeconds: 15 },
  suiteGrep: undefined,
};

const QUICK: Sizes = {
  rates: { connections: 8, seconds: 2, rounds: 1, warmupSeconds: 0.5 },
  onboarding: { devices: 1_000, concurrency: 64 },
  memoryDevices: 1_000,
  mtls: { devices: 300, sources: 4, concurrency: 64, holdSeconds: 4 },
  suiteGrep: 'CAP-PUT-201 PUT for a deviceId',
};

const HELP = `usage: node --import tsx bench/run.ts [--quick] [--out DIR] [--connections N]

Measures, in one run: the fleet's PUT capabilities rate beside autocannon's (signing off and on), the onboarding
rate of ${FULL.onboarding.devices.toLocaleString('en')} signing devices, the heap per device with ${FULL.memoryDevices.toLocaleString('en')} devices alive, the wall time of
the default wfmck run, the reference WFM's CPU per 1,000 requests, and (edition miaf) how many mutual-TLS devices
one process holds (${FULL.mtls.devices.toLocaleString('en')}, each its own SVID and connection) and its handshakes per second. Writes DIR/bench.json (default reports/out).
  --quick          small sizes for a smoke run (${QUICK.onboarding.devices} devices, ${QUICK.rates.seconds} s rates)
  --connections N  connections for both request-rate clients (default ${FULL.rates.connections})
`;

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean' },
      out: { type: 'string' },
      connections: { type: 'string' },
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

  const say = (line: string) => process.stderr.write(`bench: ${line}\n`);
  const pki = await benchPki();
  say('floors: native P-256 sign and verify, a certificate parsed and checked, the kit signing one request');
  const floors = await measureFloors(quick ? 500 : 2_000);
  say(`request rates: ${sizes.rates.rounds} round(s) of ${sizes.rates.seconds} s per side, ${connections} connections`);
  const requestRate = await measureRequestRates(pki, sizes.rates);
  say(`onboarding: ${sizes.onboarding.devices} devices`);
  const onboarding = await measureOnboarding(pki, sizes.onboarding);
  say(`memory: ${sizes.memoryDevices} devices alive`);
  const memory = await measureMemory(sizes.memoryDevices);
  say(`mTLS (edition miaf): ${sizes.mtls.devices} devices, each its own SVID and connection, over ${sizes.mtls.sources} source addresses`);
  const mtls = await measureMtls(sizes.mtls);
  say(`suite: wfmck run${sizes.suiteGrep ? ` --grep '${sizes.suiteGrep}'` : ''}`);
  const suite = await measureSuite(join(out, 'bench-suite'), sizes.suiteGrep);

  const machine = machineAt(load);
  const report = benchReport(
    { requestRate, onboarding, memory, mtls, suite, floors },
    { quick, startedAt, wallSeconds: (performance.now() - t0) / 1000, machine },
  );
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
