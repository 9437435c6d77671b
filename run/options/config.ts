// The one typed configuration of `wfmck run`: every field with its flag, env name, YAML key, default and reason.
// Precedence: flags > env > YAML (wfmck.config.yaml or --config FILE) > default. Every bad value is a UsageError.
import { HOOK_FAILURE_LIMIT } from '../contract/hook-failures.ts';
import { existsSync, readFileSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import { delimiter, dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { resolveProfile, type Profile, type Strictness } from '../../spec/profile.ts';
import { HOOK_NAMES, type HookBinding, type HookName, type RunContext } from '../contract/context.ts';
import { PERSONA, observersOf, type Persona } from '../contract/personas.ts';
import { areasFor } from '../contract/claims.ts';
import { UsageError } from './usage.ts';
import { didYouMean, didYouMeanKey } from './suggest.ts';
import { yamlErrorMessage } from './yaml-error.ts';
import { isLoopbackHost } from '../../spec/loopback.ts';
import { LEVEL_WORDS } from '../contract/selection.ts';
import { bool, file, files, oneOf, path, pattern, positiveInt, regex, shardSpec, text, url, urls, type Parse } from './args.ts';
import { parseArgv, parseChecked, type Option } from './options.ts';
import {
  ATTEND,
  CA_FILE,
  COMPONENT,
  DEVICE_CA_CERT,
  DEVICE_CA_KEY,
  EDITION,
  FAULT,
  IDENTITY,
  LISTEN,
  OUT,
  PERSONA as PERSONA_OPTION,
  REGISTRY,
  RESOLVE,
  SEED,
  STRICTNESS,
  TRUST_DOMAIN,
  VENDOR,
  WFM,
  WFM_ID,
  WFM_PORT,
} from './option-sets.ts';
import { isClientFault } from '../../faults/catalog.ts';
import { SVID_KEY_ALGORITHMS } from '../../spec/rules/svid-leaf.ts';
import type { Pin } from '../../protocol/pinned-lookup.ts';

export interface Config {
  /** The run context's targets (run/contract/context.ts), the registry namespace always resolved. */
  targets: RunContext['targets'] & { registryRepository: string };
  tls: { caFiles: string[] };
  /** `--resolve`: names pinned to addresses (protocol/pinned-lookup.ts); TLS still checks the name. */
  resolve?: Pin[];
  deviceCa?: { certFile: string; keyFile: string };
  persona: Persona;
  profile: Profile;
  strictness: Strictness;
  seed: number;
  runs: number;
  /** fast-check replay path of a failed property (with its seed), as a failure prints it. */
  path?: string;
  hooks: Partial<Record<HookName, Extract<HookBinding, { kind: 'command' }>>>;
  grep?: string;
  /** `--level`: the catalog levels whose checks run (run/contract/selection.ts). */
  levels?: (typeof LEVEL_WORDS)[number][];
  /** `--section`: the spec sections whose checks run. */
  sections?: string[];
  /** Playwright's --shard: run only slice `index` of `total`; `wfmck merge-reports` joins the shards' outputs. */
  shard?: { index: number; total: number };
  out: string;
  workers: number;
  /** `--timeout-scale`: multiplies the kit's own time budgets (the test timeout), never the target's deadlines. */
  timeoutScale?: number;
  /** The console while checks run: compact (one line per spec file), or one of Playwright's (list, line, dot). */
  reporter: ConsoleReporter;
  /** Stop after this many failed checks (Playwright --max-failures). */
  maxFailures?: number;
  /** Run on after one hook has failed HOOK_FAILURE_LIMIT times (run/contract/hook-failures.ts) instead of stopping. */
  keepGoing?: boolean;
  /** Faults of reference/faults/ switched on in the embedded default (never with a named target). */
  faults: string[];
  /** The component under test as the report names it (issue 10: vendor, name, version). */
  component: { vendor?: string; name?: string; version?: string };
  /** The areas the component claims (run/contract/claims.ts); absent = every area of its persona. */
  claims?: string[];
  /** Sign the reports (conformance.dsse.json) with keyFile, or with a key generated for the run when only `sign`. */
  signing?: { keyFile?: string; certFile?: string };
  /**
   * Persona device without a startClient hook: the operator starts the client under test by hand, one per check, from
   * the folder the kit writes for it (attended mode); the kit waits `timeoutMs` for it to connect.
   */
  attend?: { timeoutMs: number; /** The operator's command, run for each check's folder (run/processes/attend-exec.ts). */ exec?: string };
  /** Where the embedded services listen (loopback only); the WFM on a fixed port, so a client is configured once. */
  listen: { host: string; wfmPort?: number };
  /** The YAML file read, if any. */
  configFile?: string;
}

/** A setting of `wfmck run`: an option of run/options/option-sets.ts (or of run alone) with its env name and YAML key. */
export interface Field extends Option {
  /** Dotted YAML key, also the name used in error messages. */
  key: string;
  env: string;
  parse: Parse;
}

/** P9: fast-check runs per property when --runs is not given. */
export const RUNS_BY_STRICTNESS: Record<Strictness, number> = { lenient: 25, default: 100, strict: 500 };
export const DEFAULT_REGISTRY_REPOSITORY = 'wfmck/conformance';
export const DEFAULT_WORKERS = 2;
export const DEFAULT_ATTEND_TIMEOUT_S = 300;
export const CONFIG_FILE = 'wfmck.config.yaml';

const field = (option: Option, key: string, env: string, own: Partial<Field> = {}): Field => ({ ...option, key, env, ...own }) as Field;
const COMPONENT_KEYS = ['component.vendor', 'component.name', 'component.version'];

/** Every setting of `wfmck run`: `wfmck run --help` is written from this list, flag, env name and YAML key. */
/** `--level MUST,SHOULD`: the catalog's level words. */
const levelWords: Parse = (raw) => {
  const words = (Array.isArray(raw) ? raw.map(String) : text(raw).split(',')).map((w) => w.trim().toUpperCase()).filter(Boolean);
  const bad = words.find((w) => !(LEVEL_WORDS as readonly string[]).includes(w));
  if (bad !== undefined || words.length === 0) throw new Error(`must be one or more of ${LEVEL_WORDS.join(', ')}, comma-separated`);
  return words;
};

/** `--section 4.1,P10`: spec section numbers as the catalog writes them. */
const sectionWords: Parse = (raw) => {
  const words = (Array.isArray(raw) ? raw.map(String) : text(raw).split(',')).map((w) => w.trim().replace(/^§/, '')).filter(Boolean);
  const bad = words.find((w) => !/^(\d+(\.\d+)*|P\d+)$/.test(w));
  if (bad !== undefined || words.length === 0) throw new Error(`"${bad ?? ''}" is not a section number (4.1, 2.1.1, P10)`);
  return words;
};

/** `--timeout-scale 2.5`: a factor of at least 1 (a budget is never cut below what the checks were written for). */
const timeoutScale: Parse = (raw) => {
  const n = typeof raw === 'number' ? raw : /^\d+(\.\d+)?$/.test(text(raw).trim()) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= 100)) throw new Error(`must be a number from 1 to 100, not ${JSON.stringify(raw)}`);
  return n;
};

export const CONSOLE_REPORTERS = ['compact', 'list', 'line', 'dot'] as const;
export type ConsoleReporter = (typeof CONSOLE_REPORTERS)[number];

export const FIELDS: readonly Field[] = [
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
    doc: `repository namespace the registry suites use (default ${DEFAULT_REGISTRY_REPOSITORY})`,
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
  field(VENDOR, 'profile.vendor', 'WFMCK_PROFILE_VENDOR'),
  {
    key: 'profile.certificatePath',
    env: 'WFMCK_PROFILE_CERTIFICATE_PATH',
    doc: 'P2 Certificate API path',
    parse: pattern(/^\/\S*$/, 'an absolute path'),
  },
  {
    key: 'profile.deviceAuth',
    env: 'WFMCK_PROFILE_DEVICE_AUTH',
    doc: 'P3 request authentication',
    parse: oneOf('signature', 'mtls', 'none'),
  },
  {
    key: 'profile.signatureAlgorithm',
    env: 'WFMCK_PROFILE_SIGNATURE_ALGORITHM',
    doc: 'P3 signature algorithm',
    parse: oneOf('ecdsa-p256-sha256', 'rsa-pss-sha512', 'ed25519'),
  },
  { key: 'profile.paths', env: 'WFMCK_PROFILE_PATHS', doc: 'P3 capabilities paths', parse: oneOf('seed', 'client-scoped') },
  { key: 'profile.desiredState', env: 'WFMCK_PROFILE_DESIRED_STATE', doc: 'P4 desired state delivery', parse: oneOf('v1', 'hook') },
  {
    key: 'profile.quantityFormat',
    env: 'WFMCK_PROFILE_QUANTITY_FORMAT',
    doc: 'P8 memory/storage form the simulators send',
    parse: oneOf('spaced', 'compact'),
  },
  { key: 'profile.digestAlgorithm', env: 'WFMCK_PROFILE_DIGEST_ALGORITHM', doc: 'P4 digest algorithm', parse: oneOf('sha256') },
  {
    key: 'profile.deploymentsPath',
    env: 'WFMCK_PROFILE_DEPLOYMENTS_PATH',
    doc: "P4/P10 desired state under /api/v1/clients/{id} or the caller's /api/v1/deployments",
    parse: oneOf('per-client', 'caller'),
  },
  { key: 'profile.errors', env: 'WFMCK_PROFILE_ERRORS', doc: 'P6/P10 error bodies', parse: oneOf('p6', 'problem-details') },
  {
    key: 'profile.problemTypeBase',
    env: 'WFMCK_PROFILE_PROBLEM_TYPE_BASE',
    doc: 'P10 namespace of reserved problem types',
    parse: oneOf('either', 'management-interface', 'specification'),
  },
  {
    key: 'profile.capabilitiesRoot',
    env: 'WFMCK_PROFILE_CAPABILITIES_ROOT',
    doc: '§2.1/P10 open or closed capabilities root',
    parse: oneOf('open', 'closed'),
  },
  {
    key: 'profile.tlsMinVersion',
    env: 'WFMCK_PROFILE_TLS_MIN_VERSION',
    doc: 'P10 lowest TLS version by default',
    parse: oneOf('TLSv1.2', 'TLSv1.3'),
  },
  {
    key: 'profile.svidKeyAlgorithm',
    env: 'WFMCK_PROFILE_SVID_KEY_ALGORITHM',
    doc: "P10 key of the simulated clients' SVIDs",
    parse: oneOf(...SVID_KEY_ALGORITHMS),
  },
  { key: 'profile.hookTimeoutMs', env: 'WFMCK_PROFILE_HOOK_TIMEOUT_MS', doc: 'P5 default hook timeout (30000)', parse: positiveInt },
  field(PERSONA_OPTION, 'persona', 'WFMCK_PERSONA', {
    doc: `${PERSONA_OPTION.doc} (the kit plays the WFM and judges a client started by hooks.startClient)`,
  }),
  field(STRICTNESS, 'strictness', 'WFMCK_STRICTNESS', { doc: 'P9 strict | default | lenient (also the profile value; default default)' }),
  field(SEED, 'seed', 'WFMCK_SEED', {
    doc: "fast-check seed of every property (default: random, printed; a failure's replay command carries it)",
  }),
  {
    flag: 'runs',
    value: 'N',
    key: 'runs',
    env: 'WFMCK_RUNS',
    doc: 'runs per property (default by strictness: 25 / 100 / 500)',
    parse: positiveInt,
  },
  {
    flag: 'path',
    value: 'PATH',
    key: 'path',
    env: 'WFMCK_PATH',
    doc: 'fast-check replay path of a failed property, with its --seed (a failure prints both)',
    parse: text,
  },
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
  {
    flag: 'shard',
    value: 'i/n',
    key: 'shard',
    env: 'WFMCK_SHARD',
    doc: "run only shard i/n of the suites (Playwright --shard); join the shards' outputs with `wfmck merge-reports`",
    parse: shardSpec,
  },
  field(OUT, 'out', 'WFMCK_OUT', { doc: 'output folder (default reports/out/<timestamp>)', parse: path }),
  {
    flag: 'workers',
    value: 'N',
    key: 'workers',
    env: 'WFMCK_WORKERS',
    doc: `Playwright workers (default ${DEFAULT_WORKERS})`,
    parse: positiveInt,
  },
  {
    flag: 'timeout-scale',
    value: 'N',
    key: 'timeoutScale',
    env: 'WFMCK_TIMEOUT_SCALE',
    doc: "multiply the kit's own time budgets (each check's test timeout, 60 s) by N on a slow or loaded machine; the target's deadlines stay as they are (default 1)",
    parse: timeoutScale,
  },
  {
    flag: 'reporter',
    value: 'R',
    key: 'reporter',
    env: 'WFMCK_REPORTER',
    doc: "the console while checks run: compact (default: one line per spec file with its counts, and each failure's reason), list (one line per check), line, dot",
    parse: oneOf(...CONSOLE_REPORTERS),
  },
  {
    flag: 'max-failures',
    value: 'N',
    key: 'maxFailures',
    env: 'WFMCK_MAX_FAILURES',
    doc: 'stop after N failed checks (the rest are skipped: interrupted)',
    parse: positiveInt,
  },
  {
    flag: 'keep-going',
    key: 'keepGoing',
    env: 'WFMCK_KEEP_GOING',
    doc: `run on when one hook has failed ${HOOK_FAILURE_LIMIT} times (by default the run stops there: a hook that keeps failing is a wiring fault, and every check that needs it would end as a kit error)`,
    parse: bool,
  },
  field(FAULT, 'faults', 'WFMCK_FAULTS', {
    doc: 'fault ids of reference/faults/ switched on in the embedded default (persona device: of simulators/faults/ for its own client too); repeat, or comma-separate',
  }),
  ...COMPONENT.map((o, i) => field(o, COMPONENT_KEYS[i]!, `WFMCK_${o.flag!.replace(/-/g, '_').toUpperCase()}`)),
  {
    flag: 'claims',
    value: 'LIST',
    key: 'claims',
    env: 'WFMCK_CLAIMS',
    doc: "the areas the component claims (e.g. pull,push,packages for a registry); the others are skipped as not claimed (default: all of its persona's; listed below)",
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
    doc: `attended mode: seconds the kit waits for each client to connect (default ${DEFAULT_ATTEND_TIMEOUT_S}; the check is skipped with that reason)`,
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

/** `--config FILE`: the YAML the other settings are read from. */
export const CONFIG_OPTION: Option = {
  flag: 'config',
  value: 'FILE',
  env: 'WFMCK_CONFIG',
  doc: `YAML configuration (default ./${CONFIG_FILE} when present): targets, TLS CA files, device CA, profile values (profiles.md), hooks (P5)`,
};

/** Every option `wfmck run` takes, in the order its help lists them. */
/** What `wfmck run` does instead of a run, or to pick its checks from the last one: flags, never settings. */
export const LIST_OPTION: Option = {
  flag: 'list',
  doc: 'print the checks the selection would run (requirement ids, test titles, files) and start nothing',
};
export const LAST_FAILED_OPTION: Option = {
  flag: 'last-failed',
  doc: 'run again the checks of the requirements the newest run under reports/out failed, with its replay.yaml',
};

export const RUN_OPTIONS: readonly Option[] = [CONFIG_OPTION, ...FIELDS, LIST_OPTION, LAST_FAILED_OPTION];

/** The setting with this YAML key. */
export function setting(key: string): Field {
  const f = FIELDS.find((x) => x.key === key);
  if (!f) throw new Error(`no setting ${key}`);
  return f;
}

export interface ResolveOptions {
  now?: Date;
  /** Draws the default seed; injectable so tests are deterministic. */
  randomSeed?: () => number;
}

/** Builds the Config from argv, env and the YAML file; reads only the YAML file and checks that named files exist. */
export function resolveConfig(argv: string[], env: Record<string, string | undefined>, cwd: string, opts: ResolveOptions = {}): Config {
  const { flags, spelling } = parseArgv(argv, RUN_OPTIONS, false);
  const configFlag = flags.get('config');
  const configFile =
    typeof configFlag === 'string'
      ? resolve(cwd, configFlag)
      : env.WFMCK_CONFIG
        ? resolve(cwd, env.WFMCK_CONFIG)
        : existsSync(resolve(cwd, CONFIG_FILE))
          ? resolve(cwd, CONFIG_FILE)
          : undefined;
  const yaml = configFile ? readYaml(configFile) : new Map<string, unknown>();
  const values = new Map<string, unknown>();
  for (const f of FIELDS) {
    const flag = f.flag ? flags.get(f.flag) : undefined;
    const [raw, from, base] =
      flag !== undefined
        ? [flag, spelling.get(f.flag!)!, cwd]
        : env[f.env] !== undefined && env[f.env] !== ''
          ? [env[f.env], f.env, cwd]
          : yaml.has(f.key)
            ? [yaml.get(f.key), `${configFile} ${f.key}`, dirname(configFile!)]
            : [undefined, '', cwd];
    if (raw === undefined) continue;
    values.set(f.key, parseChecked(f.parse, raw, base, from, false));
  }
  return build(values, cwd, configFile, opts);
}

const TARGET_NAMES = ['wfm', 'identity', 'discovery', 'trustBundleUri', 'registry'] as const;

/** True when the config names a target: the run certifies those, and the embedded default is not started. */
export function namesTargets(config: Config): boolean {
  return TARGET_NAMES.some((t) => config.targets[t] !== undefined);
}

function build(v: Map<string, unknown>, cwd: string, configFile: string | undefined, opts: ResolveOptions): Config {
  const get = <T>(key: string): T | undefined => v.get(key) as T | undefined;
  const strictness = get<Strictness>('strictness') ?? 'default';
  const overrides = Object.fromEntries(FIELDS.filter((f) => f.key.startsWith('profile.')).map((f) => [f.key.slice(8), v.get(f.key)]));
  const profile = resolveProfile({ ...overrides, edition: get('edition'), strictness });
  const certFile = get<string>('deviceCa.certFile');
  const keyFile = get<string>('deviceCa.keyFile');
  if ((certFile === undefined) !== (keyFile === undefined)) throw new UsageError('deviceCa: give both certFile and keyFile, or neither');
  // Naming any target certifies only what is named (a registry alone, say): the embedded default is never mixed in.
  const named = TARGET_NAMES.filter((t) => v.has(`targets.${t}`));
  if (named.length && v.has('faults'))
    throw new UsageError(
      `faults: they switch on faulty variants of the embedded default and cannot apply to a named target (targets.${named[0]})`,
    );
  const signKey = get<string>('signing.keyFile');
  const signCert = get<string>('signing.certFile');
  if (signCert && !signKey)
    throw new UsageError('signing.certFile: give the signing.keyFile it certifies (a key made for the run has no certificate)');
  const hooks: Config['hooks'] = {};
  for (const name of HOOK_NAMES) {
    const h = get<{ command: string; timeoutMs?: number; cwd: string }>(`hooks.${name}`);
    if (h) hooks[name] = { kind: 'command', command: h.command, timeoutMs: h.timeoutMs ?? profile.hookTimeoutMs, cwd: h.cwd };
  }
  const attendExec = get<string>('attendExec');
  const attend = get<boolean>('attend') || attendExec !== undefined;
  if (attend && v.has('hooks.startClient'))
    throw new UsageError('attend: you start the client under test by hand; give no hooks.startClient as well');
  if (attend && get<Persona>('persona') !== 'device')
    throw new UsageError('attend: attended mode is for --persona device (you start the device client under test by hand)');
  if (attend && (get<string[]>('faults') ?? []).some(isClientFault))
    throw new UsageError("attend: client faults break the kit's own client, which attended mode does not start");
  const stamp = (opts.now ?? new Date()).toISOString().replace(/[:.]/g, '-');
  return {
    targets: {
      wfm: get('targets.wfm'),
      identity: get('targets.identity'),
      discovery: get('targets.discovery'),
      trustBundleUri: get('targets.trustBundleUri'),
      registry: get('targets.registry'),
      ...(v.has('targets.extraDiscovery') && { extraDiscovery: get<string[]>('targets.extraDiscovery') }),
      registryRepository: get('targets.registryRepository') ?? DEFAULT_REGISTRY_REPOSITORY,
      ...(v.has('targets.trustDomain') && { trustDomain: get<string>('targets.trustDomain') }),
      ...(v.has('targets.wfmId') && { wfmId: get<string>('targets.wfmId') }),
      ...(get<boolean>('targets.kitRegistry') && { kitRegistry: true }),
    },
    tls: { caFiles: get<string[]>('tls.caFiles') ?? [] },
    ...(v.has('resolve') && { resolve: get<Pin[]>('resolve') }),
    ...(certFile && keyFile && { deviceCa: { certFile, keyFile } }),
    persona: get<Persona>('persona') ?? PERSONA,
    profile,
    strictness,
    seed: get<number>('seed') ?? (opts.randomSeed ?? (() => randomInt(2 ** 31 - 1)))(),
    runs: get<number>('runs') ?? RUNS_BY_STRICTNESS[strictness],
    ...(v.has('path') && { path: get<string>('path') }),
    hooks,
    grep: get('grep'),
    ...(v.has('level') && { levels: get<(typeof LEVEL_WORDS)[number][]>('level') }),
    ...(v.has('section') && { sections: get<string[]>('section') }),
    ...(v.has('shard') && { shard: get<{ index: number; total: number }>('shard')! }),
    out: get<string>('out') ?? resolve(cwd, 'reports', 'out', stamp),
    workers: get<number>('workers') ?? DEFAULT_WORKERS,
    ...(v.has('timeoutScale') && { timeoutScale: get<number>('timeoutScale') }),
    reporter: get<ConsoleReporter>('reporter') ?? 'compact',
    ...(v.has('maxFailures') && { maxFailures: get<number>('maxFailures') }),
    ...(get<boolean>('keepGoing') && { keepGoing: true }),
    faults: get<string[]>('faults') ?? [],
    component: stripUndefined({
      vendor: get<string>('component.vendor'),
      name: get<string>('component.name'),
      version: get<string>('component.version'),
    }),
    ...(v.has('claims') && { claims: checkedClaims(get<string[]>('claims')!, get<Persona>('persona') ?? PERSONA) }),
    ...((get<boolean>('signing.sign') || signKey) && { signing: stripUndefined({ keyFile: signKey, certFile: signCert }) }),
    ...(attend && {
      attend: {
        timeoutMs: (get<number>('attendTimeoutSeconds') ?? DEFAULT_ATTEND_TIMEOUT_S) * 1000,
        ...(attendExec !== undefined && { exec: attendExec }),
      },
    }),
    listen: stripUndefined({ host: get<string>('listen.host') ?? '127.0.0.1', wfmPort: get<number>('listen.wfmPort') }),
    ...(configFile && { configFile }),
  };
}

/** The config as reports echo it: hook commands kept with anything that looks like a credential masked. */
export function redactedConfig(config: Config): Record<string, unknown> {
  const hooks = Object.fromEntries(
    Object.entries(config.hooks).map(([n, h]) => [n, { command: maskSecrets(h.command), timeoutMs: h.timeoutMs }]),
  );
  return { ...structuredClone({ ...config, hooks: {} }), hooks };
}

function maskSecrets(command: string): string {
  // A command may carry a credential inline (curl -H "Authorization: Bearer ..."); reports must not.
  return command.replace(/(bearer\s+|(?:token|password|secret|apikey|api-key)\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s"']+)/gi, '$1***');
}

/** Loopback hosts: what the network policy (spec/network-policy.ts) allows besides the named targets. */
export { isLoopbackHost };

function readYaml(path: string): Map<string, unknown> {
  if (!existsSync(path)) throw new UsageError(`--config: no such file ${path}`);
  const source = readFileSync(path, 'utf8');
  let doc: unknown;
  try {
    doc = parseYaml(source) ?? {};
  } catch (e) {
    throw new UsageError(yamlErrorMessage(path, source, e));
  }
  const out = new Map<string, unknown>();
  flatten(doc, '', path, out);
  return out;
}

const YAML_KEYS = FIELDS.map((f) => f.key);

function flatten(node: unknown, prefix: string, path: string, out: Map<string, unknown>): void {
  if (typeof node !== 'object' || node === null || Array.isArray(node))
    throw new UsageError(`${path}: ${prefix || 'the top level'} must be a mapping`);
  for (const [k, value] of Object.entries(node)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (FIELDS.some((f) => f.key === key)) out.set(key, value);
    else if (FIELDS.some((f) => f.key.startsWith(`${key}.`))) flatten(value, key, path, out);
    else throw new UsageError(`${path}: unknown key "${key}"${didYouMeanKey(key, YAML_KEYS)}`);
  }
}

function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

function names(raw: unknown): string[] {
  const list = (Array.isArray(raw) ? raw.map(String) : text(raw).split(',')).map((s) => s.trim()).filter(Boolean);
  if (list.length === 0) throw new Error('expected at least one name');
  return [...new Set(list)];
}

/** Claims name areas of the run's persona (run/contract/claims.ts). */
function checkedClaims(claims: string[], persona: Persona): string[] {
  const known = areasFor(observersOf(persona)).map((a) => a.name);
  const unknown = claims.filter((c) => !known.includes(c));
  if (unknown.length)
    throw new UsageError(
      `claims: ${unknown.join(', ')} ${unknown.length === 1 ? 'is no area' : 'are no areas'} of persona ${persona}; its areas: ${[...new Set(known)].join(', ')}`,
    );
  return claims;
}

function repository(raw: unknown): string {
  // OCI distribution-spec repository name grammar.
  return pattern(/^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/, 'an OCI repository name')(
    raw,
    '',
    'targets.registryRepository',
  ) as string;
}

const HOOK_KEYS = ['command', 'timeoutMs', 'cwd'];

/** A hook runs where its relative paths were written: the folder of the YAML that names it, else wfmck's own. */
function hook(raw: unknown, base: string): { command: string; timeoutMs?: number; cwd: string } {
  if (typeof raw === 'string') return { command: text(raw), cwd: base };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new Error('expected a shell command or {command, timeoutMs, cwd}');
  const extra = Object.keys(raw).filter((k) => !HOOK_KEYS.includes(k));
  if (extra.length)
    throw new Error(
      `unknown key "${extra[0]}"${didYouMean(extra[0]!, HOOK_KEYS, (k) => `"${k}"`)} (a hook has command, timeoutMs and cwd)`,
    );
  const h = raw as { command?: unknown; timeoutMs?: unknown; cwd?: unknown };
  return {
    command: text(h.command),
    ...(h.timeoutMs !== undefined && { timeoutMs: positiveInt(h.timeoutMs) }),
    cwd: h.cwd === undefined ? base : resolve(base, text(h.cwd)),
  };
}
