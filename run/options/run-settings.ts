// Every setting of `wfmck run`, one entry each: flag, env name, YAML key, check, default and help (run/options/setting.ts).
// `wfmck run --help`, the configuration (run/options/config.ts), the run context and docs/reference.md's table are read
// from this list. A setting whose value a check reads is one entry of CARRIED: the config and the run context then hold
// it under its key, typed by its check, and the suite reads ctx.<key>.
import { delimiter } from 'node:path';
import { randomInt } from 'node:crypto';
import { PERSONA, PERSONAS } from '../contract/personas.ts';
import { HOOK_FAILURE_LIMIT } from '../contract/hook-failures.ts';
import { HOOK_NAMES } from '../contract/context.ts';
import { bool, file, files, oneOf, path, positiveInt, regex, seed, shardSpec, text, url, urls } from './args.ts';
import {
  ATTEND,
  CA_FILE,
  COMPONENT,
  DEVICE_CA_CERT,
  DEVICE_CA_KEY,
  EDITION,
  FAULT,
  faultIds,
  IDENTITY,
  LISTEN,
  OUT,
  PERSONA as PERSONA_OPTION,
  REGISTRY,
  RESOLVE,
  SEED,
  STRICTNESS,
  STRICTNESS_LEVELS,
  TRUST_DOMAIN,
  WFM,
  WFM_ID,
  WFM_PORT,
} from './option-sets.ts';
import { hook, levelWords, names, repository, sectionWords, timeoutScale } from './setting-checks.ts';
import { PROFILE_FIELDS } from './profile-settings.ts';
import { def, field, type DefaultInputs, type Field, type ValuesOf } from './setting.ts';
import type { Strictness } from '../../spec/profile.ts';

/** P9: fast-check runs per property when --runs is not given. */
export const RUNS_BY_STRICTNESS: Record<Strictness, number> = { lenient: 25, default: 100, strict: 500 };
export const DEFAULT_REGISTRY_REPOSITORY = 'wfmck/conformance';
export const DEFAULT_WORKERS = 2;
export const DEFAULT_ATTEND_TIMEOUT_S = 300;
export const CONSOLE_REPORTERS = ['compact', 'list', 'line', 'dot'] as const;
export type ConsoleReporter = (typeof CONSOLE_REPORTERS)[number];

/** The settings checks, fixtures and reporters read: copied as they are into the config and the run context. */
export const CARRIED = {
  strictness: def({
    ...STRICTNESS,
    key: 'strictness',
    env: 'WFMCK_STRICTNESS',
    doc: 'P9 strict | default | lenient (also the profile value)',
    parse: oneOf(...STRICTNESS_LEVELS),
    default: 'default',
  }),
  seed: def({
    ...SEED,
    key: 'seed',
    env: 'WFMCK_SEED',
    doc: "fast-check seed of every property (a failure's replay command carries it)",
    parse: seed,
    default: ({ opts }: DefaultInputs) => (opts.randomSeed ?? (() => randomInt(2 ** 31 - 1)))(),
    defaultDoc: 'random, printed',
  }),
  runs: def({
    flag: 'runs',
    value: 'N',
    key: 'runs',
    env: 'WFMCK_RUNS',
    doc: 'runs per property',
    parse: positiveInt,
    default: ({ get }: DefaultInputs) => RUNS_BY_STRICTNESS[(get('strictness') as Strictness | undefined) ?? 'default'],
    defaultDoc: 'by strictness: 25 / 100 / 500',
  }),
  path: def({
    flag: 'path',
    value: 'PATH',
    key: 'path',
    env: 'WFMCK_PATH',
    doc: 'fast-check replay path of a failed property, with its --seed (a failure prints both)',
    parse: text,
  }),
  timeoutScale: def({
    flag: 'timeout-scale',
    value: 'N',
    key: 'timeoutScale',
    env: 'WFMCK_TIMEOUT_SCALE',
    doc: "multiply the kit's own time budgets (each check's test timeout, 60 s) by N on a slow or loaded machine; the target's deadlines stay as they are",
    defaultDoc: '1',
    parse: timeoutScale,
  }),
  reporter: def({
    flag: 'reporter',
    value: 'R',
    key: 'reporter',
    env: 'WFMCK_REPORTER',
    doc: "the console while checks run: compact (one line per spec file with its counts, and each failure's reason), list (one line per check), line, dot",
    parse: oneOf(...CONSOLE_REPORTERS),
    default: 'compact',
  }),
  keepGoing: def({
    flag: 'keep-going',
    key: 'keepGoing',
    env: 'WFMCK_KEEP_GOING',
    doc: `run on when one hook has failed ${HOOK_FAILURE_LIMIT} times (by default the run stops there: a hook that keeps failing is a wiring fault, and every check that needs it would end as a kit error)`,
    parse: bool,
  }),
};

/** The settings only `wfmck run` itself reads, copied as they are into the config. */
export const PLAIN = {
  persona: def({
    ...PERSONA_OPTION,
    key: 'persona',
    env: 'WFMCK_PERSONA',
    doc: 'what the component under test plays: wfm (with its identity role and registry), identity, registry, device (the kit plays the WFM and judges a client started by hooks.startClient)',
    parse: oneOf(...PERSONAS),
    default: PERSONA,
  }),
  shard: def({
    flag: 'shard',
    value: 'i/n',
    key: 'shard',
    env: 'WFMCK_SHARD',
    doc: "run only shard i/n of the suites (Playwright --shard); join the shards' outputs with `wfmck merge-reports`",
    parse: shardSpec,
  }),
  out: def({
    ...OUT,
    key: 'out',
    env: 'WFMCK_OUT',
    doc: 'output folder',
    parse: path,
    default: ({ cwd, opts }: DefaultInputs) => path(`reports/out/${(opts.now ?? new Date()).toISOString().replace(/[:.]/g, '-')}`, cwd),
    defaultDoc: 'reports/out/<timestamp>',
  }),
  workers: def({
    flag: 'workers',
    value: 'N',
    key: 'workers',
    env: 'WFMCK_WORKERS',
    doc: 'Playwright workers',
    parse: positiveInt,
    default: DEFAULT_WORKERS,
  }),
  maxFailures: def({
    flag: 'max-failures',
    value: 'N',
    key: 'maxFailures',
    env: 'WFMCK_MAX_FAILURES',
    doc: 'stop after N failed checks (the rest are skipped: interrupted)',
    parse: positiveInt,
  }),
  faults: def({
    ...FAULT,
    key: 'faults',
    env: 'WFMCK_FAULTS',
    doc: 'fault ids of reference/faults/ switched on in the embedded default (persona device: of simulators/faults/ for its own client too); repeat, or comma-separate',
    parse: faultIds as (raw: unknown) => string[],
    default: [] as string[],
  }),
  faultBatch: def({
    flag: 'fault-batch',
    value: 'FILE',
    key: 'faultBatch',
    env: 'WFMCK_FAULT_BATCH',
    doc: "`wfmck faults`' batch: a JSON list of {fault, out, grep, files}; each fault gets its own embedded default with it switched on, its own copy of the suites (`files`, default all; its checks by `grep`), its reports in its out; one Playwright start-up and one worker for all",
    parse: file,
  }),
};

export type CarriedSettings = ValuesOf<typeof CARRIED>;
export type PlainSettings = ValuesOf<typeof PLAIN>;

declare module '../contract/context.ts' {
  /** The run context holds every CARRIED setting by its key (run/options/run-settings.ts declares them, once). */
  interface ContextSettings extends CarriedSettings {}
}

/** The carried settings of a config, as the run context takes them. */
export function carried(config: CarriedSettings): CarriedSettings {
  const entries = Object.keys(CARRIED).map((k) => [k, (config as Record<string, unknown>)[k]]);
  return Object.fromEntries(entries.filter(([, v]) => v !== undefined)) as CarriedSettings;
}

const COMPONENT_KEYS = ['component.vendor', 'component.name', 'component.version'];

/** The settings in the order --help lists them; an entry of CARRIED or PLAIN not placed here comes last (see FIELDS). */
const ORDERED: readonly Field[] = [
  field(WFM, 'targets.wfm', 'WFMCK_WFM', { doc: 'WFM base URL; none = start the embedded reference services' }),
  field(IDENTITY, 'targets.identity', 'WFMCK_IDENTITY'),
  { key: 'targets.discovery', env: 'WFMCK_DISCOVERY', doc: 'discovery document URL when it is not at the identity origin', parse: url },
  { key: 'targets.trustBundleUri', env: 'WFMCK_TRUST_BUNDLE_URI', doc: 'trust bundle URL from operator configuration (4.6)', parse: url },
  {
    key: 'targets.extraDiscovery',
    env: 'WFMCK_EXTRA_DISCOVERY',
    doc: 'discovery URLs of further trust domains of the identity role (4.5 MAY; env: comma-separated)',
    parse: urls,
  },
  field(REGISTRY, 'targets.registry', 'WFMCK_REGISTRY'),
  {
    key: 'targets.registryRepository',
    env: 'WFMCK_REGISTRY_REPOSITORY',
    doc: 'repository namespace the registry suites use',
    default: DEFAULT_REGISTRY_REPOSITORY,
    parse: repository,
  },
  field(CA_FILE, 'tls.caFiles', 'WFMCK_CA_FILES', {
    multiple: true,
    parse: files,
    doc: `PEM files of the CAs of the targets' certificates (repeat the flag; env: "${delimiter}"-separated)`,
  }),
  field(RESOLVE, 'resolve', 'WFMCK_RESOLVE', { doc: `${RESOLVE.doc} (env: comma-separated; YAML: a list)` }),
  field(DEVICE_CA_CERT, 'deviceCa.certFile', 'WFMCK_DEVICE_CA_CERT', {
    doc: 'CA certificate whose leaves the WFM trusts at onboarding (miaf: an SVID CA in its trust bundle)',
  }),
  field(DEVICE_CA_KEY, 'deviceCa.keyFile', 'WFMCK_DEVICE_CA_KEY', {
    doc: 'private key of that CA (else the trustClientCertificate hook; miaf: issueClientSvid)',
  }),
  field(EDITION, 'edition', 'WFMCK_EDITION', { doc: `${EDITION.doc}; presets the profile values below` }),
  field(TRUST_DOMAIN, 'targets.trustDomain', 'WFMCK_TRUST_DOMAIN'),
  field(WFM_ID, 'targets.wfmId', 'WFMCK_WFM_ID'),
  ...PROFILE_FIELDS,
  PLAIN.persona,
  CARRIED.strictness,
  CARRIED.seed,
  CARRIED.runs,
  CARRIED.path,
  ...HOOK_NAMES.map((name): Field => ({
    key: `hooks.${name}`,
    env: `WFMCK_HOOK_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`,
    doc: `P5 hook ${name}: a shell command, or {command, timeoutMs, cwd} (cwd: by default the folder of the YAML that names it)`,
    parse: hook,
  })),
  {
    flag: 'grep',
    value: 'RE',
    key: 'grep',
    env: 'WFMCK_GREP',
    doc: 'run only tests whose title matches this regular expression (titles start with requirement ids)',
    parse: regex,
  },
  {
    flag: 'level',
    value: 'LEVELS',
    key: 'level',
    env: 'WFMCK_LEVEL',
    doc: 'run only the checks of requirements of these levels, comma-separated: MUST (with MUST NOT), SHOULD (with SHOULD NOT), MAY',
    parse: levelWords,
  },
  {
    flag: 'section',
    value: 'SECTIONS',
    key: 'section',
    env: 'WFMCK_SECTION',
    doc: 'run only the checks of these spec sections, comma-separated (4.1 takes 4.1.x too; P10 is a profile section)',
    parse: sectionWords,
  },
  PLAIN.shard,
  PLAIN.out,
  PLAIN.workers,
  CARRIED.timeoutScale,
  CARRIED.reporter,
  PLAIN.maxFailures,
  CARRIED.keepGoing,
  PLAIN.faults,
  PLAIN.faultBatch,
  ...COMPONENT.map((o, i) => field(o, COMPONENT_KEYS[i]!, `WFMCK_${o.flag!.replace(/-/g, '_').toUpperCase()}`)),
  {
    flag: 'claims',
    value: 'LIST',
    key: 'claims',
    env: 'WFMCK_CLAIMS',
    doc: 'the areas the component claims (e.g. pull,push,packages for a registry); the others are skipped as not claimed',
    defaultDoc: "all of its persona's; listed below",
    parse: names,
  },
  {
    flag: 'kit-registry',
    key: 'targets.kitRegistry',
    env: 'WFMCK_KIT_REGISTRY',
    doc: "the WFM's assignDeployment hook takes package {repository, version} and pulls from a registry the kit runs on 127.0.0.1 (plain HTTP): enables the §4.7 retrieval checks",
    parse: bool,
  },
  field(ATTEND, 'attend', 'WFMCK_ATTEND', { parse: bool }),
  {
    flag: 'attend-exec',
    value: 'CMD',
    key: 'attendExec',
    env: 'WFMCK_ATTEND_EXEC',
    doc: "attended mode (implies attend): run CMD for each check's folder as it appears under <out>/attend/, {folder} replaced by its path (shell-quoted; also in WFMCK_ATTEND_FOLDER); its output is printed behind the folder's number and its exit noted; e.g. 'npx wfmck client {folder}'",
    parse: text,
  },
  {
    flag: 'attend-timeout',
    value: 'S',
    key: 'attendTimeoutSeconds',
    env: 'WFMCK_ATTEND_TIMEOUT',
    doc: 'attended mode: seconds the kit waits for each client to connect (the check is skipped with that reason)',
    default: DEFAULT_ATTEND_TIMEOUT_S,
    parse: positiveInt,
  },
  field(LISTEN, 'listen.host', 'WFMCK_LISTEN'),
  field(WFM_PORT, 'listen.wfmPort', 'WFMCK_WFM_PORT'),
  {
    flag: 'sign',
    key: 'signing.sign',
    env: 'WFMCK_SIGN',
    doc: 'sign the reports (conformance.dsse.json: a DSSE envelope holding an in-toto Statement); without keyFile, with a P-256 key made for the run; check with wfmck verify-report DIR',
    parse: bool,
  },
  {
    flag: 'signing-key',
    value: 'FILE',
    key: 'signing.keyFile',
    env: 'WFMCK_SIGNING_KEY',
    doc: 'PEM PKCS#8 ECDSA P-256 private key that signs the reports (implies sign)',
    parse: file,
  },
  {
    flag: 'signing-cert',
    value: 'FILE',
    key: 'signing.certFile',
    env: 'WFMCK_SIGNING_CERT',
    doc: 'PEM certificate of that key, shipped beside the envelope',
    parse: file,
  },
];

/** Every setting of `wfmck run`: what argv, env and YAML are read for, and what --help and docs/reference.md list. */
export const FIELDS: readonly Field[] = [
  ...ORDERED,
  ...[...Object.values(CARRIED), ...Object.values(PLAIN)].filter((s: Field) => !ORDERED.includes(s)),
];
