// The one typed configuration of `wfmck run`: every field with its flag, env name, YAML key, default and reason.
// Precedence: flags > env > YAML (wfmck.config.yaml or --config FILE) > default. Every bad value is a UsageError.
import { existsSync, readFileSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import { delimiter, dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { resolveProfile, type Profile, type Strictness } from '../spec/profile.ts';
import { HOOK_NAMES, type HookBinding, type HookName } from './context.ts';
import { PERSONA, PERSONAS, observersOf, type Persona } from './personas.ts';
import { areasFor } from './claims.ts';
import { UsageError } from './usage.ts';
import { isLoopbackHost } from '../spec/loopback.ts';
import { loopbackAddress } from './args.ts';
import { resolveFaults } from '../reference/faults/catalog.ts';
import { parseShard } from '../simulators/fleet/shard.ts';
import { CLIENT_FAULTS } from '../simulators/faults/client-faults.ts';
import { SVID_KEY_ALGORITHMS } from '../spec/rules/svid-leaf.ts';
import { EDITIONS } from '../spec/requirements.ts';

export interface Config {
  targets: { wfm?: string; identity?: string; discovery?: string; trustBundleUri?: string; extraDiscovery?: string[]; registry?: string; registryRepository: string; kitRegistry?: boolean; trustDomain?: string; wfmId?: string };
  tls: { caFiles: string[] };
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
  /** Playwright's --shard: run only slice `index` of `total`; `wfmck merge-reports` joins the shards' outputs. */
  shard?: { index: number; total: number };
  out: string;
  workers: number;
  /** Faults of reference/faults/ switched on in the embedded default (never with a named target). */
  faults: string[];
  /** The component under test as the report names it (issue 10: vendor, name, version). */
  component: { vendor?: string; name?: string; version?: string };
  /** The areas the component claims (run/claims.ts); absent = every area of its persona. */
  claims?: string[];
  /** Sign the reports (conformance.dsse.json) with keyFile, or with a key generated for the run when only `sign`. */
  signing?: { keyFile?: string; certFile?: string };
  /**
   * Persona device without a startClient hook: the operator starts the client under test by hand, one per check, from
   * the folder the kit writes for it (attended mode); the kit waits `timeoutMs` for it to connect.
   */
  attend?: { timeoutMs: number };
  /** Where the embedded services listen (loopback only); the WFM on a fixed port, so a client is configured once. */
  listen: { host: string; wfmPort?: number };
  /** The YAML file read, if any. */
  configFile?: string;
}

type Parse = (raw: unknown, base: string) => unknown;

interface Field {
  /** Dotted YAML key, also the name used in error messages. */
  key: string;
  env: string;
  flag?: string;
  doc: string;
  parse: Parse;
  /** A flag that takes no value (--sign). */
  boolean?: true;
}

const STRICTNESS = ['strict', 'default', 'lenient'] as const;
/** P9: fast-check runs per property when --runs is not given. */
export const RUNS_BY_STRICTNESS: Record<Strictness, number> = { lenient: 25, default: 100, strict: 500 };
export const DEFAULT_REGISTRY_REPOSITORY = 'wfmck/conformance';
export const DEFAULT_WORKERS = 2;
export const DEFAULT_ATTEND_TIMEOUT_S = 300;
export const CONFIG_FILE = 'wfmck.config.yaml';

export const FIELDS: readonly Field[] = [
  { key: 'targets.wfm', env: 'WFMCK_WFM', flag: 'wfm', doc: 'WFM base URL; none = start the embedded reference services', parse: url },
  { key: 'targets.identity', env: 'WFMCK_IDENTITY', flag: 'identity', doc: 'origin of the identity role (discovery at /.well-known/<vendor>)', parse: url },
  { key: 'targets.discovery', env: 'WFMCK_DISCOVERY', doc: 'discovery document URL when it is not at the identity origin', parse: url },
  { key: 'targets.trustBundleUri', env: 'WFMCK_TRUST_BUNDLE_URI', doc: 'trust bundle URL from operator configuration (4.6)', parse: url },
  { key: 'targets.extraDiscovery', env: 'WFMCK_EXTRA_DISCOVERY', doc: 'discovery URLs of further trust domains of the identity role (4.5 MAY; env: comma-separated)', parse: urls },
  { key: 'targets.registry', env: 'WFMCK_REGISTRY', flag: 'registry', doc: 'OCI registry base URL', parse: url },
  { key: 'targets.registryRepository', env: 'WFMCK_REGISTRY_REPOSITORY', doc: `repository namespace the registry suites use (default ${DEFAULT_REGISTRY_REPOSITORY})`, parse: repository },
  { key: 'tls.caFiles', env: 'WFMCK_CA_FILES', doc: `PEM files of the CAs of the targets' certificates (env: "${delimiter}"-separated)`, parse: files },
  { key: 'deviceCa.certFile', env: 'WFMCK_DEVICE_CA_CERT', doc: 'CA certificate whose leaves the WFM trusts at onboarding', parse: file },
  { key: 'deviceCa.keyFile', env: 'WFMCK_DEVICE_CA_KEY', doc: 'private key of that CA (else the trustClientCertificate hook)', parse: file },
  { key: 'edition', env: 'WFMCK_EDITION', flag: 'edition', doc: 'P10 edition of the standard: seed (interfaces.md) or miaf (1.0.0-rc.3: mTLS with SVIDs); presets the profile values below', parse: oneOf(...EDITIONS) },
  { key: 'targets.trustDomain', env: 'WFMCK_TRUST_DOMAIN', doc: 'miaf: the SPIFFE trust domain of the WFM and its clients', parse: pattern(/^[a-z0-9._-]+$/, 'a SPIFFE trust domain name') },
  { key: 'targets.wfmId', env: 'WFMCK_WFM_ID', doc: 'miaf: the <wfm-id> of the WFM\'s SPIFFE ID spiffe://<trust-domain>/<vendor>/wfm/<wfm-id>', parse: pattern(/^[A-Za-z0-9._-]+$/, 'one SPIFFE path segment') },
  { key: 'profile.vendor', env: 'WFMCK_PROFILE_VENDOR', doc: 'P1 vendor token', parse: pattern(/^[a-z0-9]+$/, 'lowercase letters and digits') },
  { key: 'profile.certificatePath', env: 'WFMCK_PROFILE_CERTIFICATE_PATH', doc: 'P2 Certificate API path', parse: pattern(/^\/\S*$/, 'an absolute path') },
  { key: 'profile.deviceAuth', env: 'WFMCK_PROFILE_DEVICE_AUTH', doc: 'P3 request authentication', parse: oneOf('signature', 'mtls', 'none') },
  { key: 'profile.signatureAlgorithm', env: 'WFMCK_PROFILE_SIGNATURE_ALGORITHM', doc: 'P3 signature algorithm', parse: oneOf('ecdsa-p256-sha256', 'rsa-pss-sha512', 'ed25519') },
  { key: 'profile.paths', env: 'WFMCK_PROFILE_PATHS', doc: 'P3 capabilities paths', parse: oneOf('seed', 'client-scoped') },
  { key: 'profile.desiredState', env: 'WFMCK_PROFILE_DESIRED_STATE', doc: 'P4 desired state delivery', parse: oneOf('v1', 'hook') },
  { key: 'profile.quantityFormat', env: 'WFMCK_PROFILE_QUANTITY_FORMAT', doc: 'P8 memory/storage form the simulators send', parse: oneOf('spaced', 'compact') },
  { key: 'profile.digestAlgorithm', env: 'WFMCK_PROFILE_DIGEST_ALGORITHM', doc: 'P4 digest algorithm', parse: oneOf('sha256') },
  { key: 'profile.deploymentsPath', env: 'WFMCK_PROFILE_DEPLOYMENTS_PATH', doc: 'P4/P10 desired state under /api/v1/clients/{id} or the caller\'s /api/v1/deployments', parse: oneOf('per-client', 'caller') },
  { key: 'profile.errors', env: 'WFMCK_PROFILE_ERRORS', doc: 'P6/P10 error bodies', parse: oneOf('p6', 'problem-details') },
  { key: 'profile.problemTypeBase', env: 'WFMCK_PROFILE_PROBLEM_TYPE_BASE', doc: 'P10 namespace of reserved problem types', parse: oneOf('either', 'management-interface', 'specification') },
  { key: 'profile.capabilitiesRoot', env: 'WFMCK_PROFILE_CAPABILITIES_ROOT', doc: '§2.1/P10 open or closed capabilities root', parse: oneOf('open', 'closed') },
  { key: 'profile.tlsMinVersion', env: 'WFMCK_PROFILE_TLS_MIN_VERSION', doc: 'P10 lowest TLS version by default', parse: oneOf('TLSv1.2', 'TLSv1.3') },
  { key: 'profile.svidKeyAlgorithm', env: 'WFMCK_PROFILE_SVID_KEY_ALGORITHM', doc: 'P10 key of the simulated clients\' SVIDs', parse: oneOf(...SVID_KEY_ALGORITHMS) },
  { key: 'profile.hookTimeoutMs', env: 'WFMCK_PROFILE_HOOK_TIMEOUT_MS', doc: 'P5 default hook timeout (30000)', parse: positiveInt },
  { key: 'persona', env: 'WFMCK_PERSONA', flag: 'persona', doc: 'what the component under test plays: wfm (with its identity role and registry; default), identity, registry, device', parse: oneOf(...PERSONAS) },
  { key: 'strictness', env: 'WFMCK_STRICTNESS', flag: 'strictness', doc: 'P9 strict | default | lenient (also the profile value)', parse: oneOf(...STRICTNESS) },
  { key: 'seed', env: 'WFMCK_SEED', flag: 'seed', doc: 'fast-check seed of every property (default: random, printed)', parse: seed },
  { key: 'runs', env: 'WFMCK_RUNS', flag: 'runs', doc: 'runs per property (default by strictness: 25 / 100 / 500)', parse: positiveInt },
  { key: 'path', env: 'WFMCK_PATH', flag: 'path', doc: 'fast-check replay path of a failed property, with its --seed (a failure prints both)', parse: (raw) => text(raw) },
  ...HOOK_NAMES.map((name): Field => ({
    key: `hooks.${name}`, env: `WFMCK_HOOK_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`,
    doc: `P5 hook ${name}: a shell command, or {command, timeoutMs, cwd}; it runs in cwd, by default the folder of the YAML that names it`, parse: hook,
  })),
  { key: 'grep', env: 'WFMCK_GREP', flag: 'grep', doc: 'run only tests whose title matches this regular expression', parse: regex },
  { key: 'shard', env: 'WFMCK_SHARD', flag: 'shard', doc: "run only shard i/n of the suites (Playwright --shard); join the shards' outputs with `wfmck merge-reports`", parse: shardSpec },
  { key: 'out', env: 'WFMCK_OUT', flag: 'out', doc: 'output folder (default reports/out/<timestamp>)', parse: (raw, base) => resolve(base, text(raw)) },
  { key: 'workers', env: 'WFMCK_WORKERS', flag: 'workers', doc: `Playwright workers (default ${DEFAULT_WORKERS})`, parse: positiveInt },
  { key: 'faults', env: 'WFMCK_FAULTS', flag: 'fault', doc: 'comma-separated fault ids of reference/faults/ for the embedded default (persona device: of simulators/faults/ for its own client too)', parse: faultIds },
  { key: 'component.vendor', env: 'WFMCK_COMPONENT_VENDOR', flag: 'component-vendor', doc: 'vendor of the component under test, as the report names it', parse: text },
  { key: 'component.name', env: 'WFMCK_COMPONENT_NAME', flag: 'component-name', doc: 'name of the component under test', parse: text },
  { key: 'component.version', env: 'WFMCK_COMPONENT_VERSION', flag: 'component-version', doc: 'version of the component under test', parse: text },
  { key: 'claims', env: 'WFMCK_CLAIMS', flag: 'claims', doc: 'the areas the component claims (e.g. pull,push,packages for a registry); the others are skipped as not claimed (default: all of its persona\'s; the areas are listed in wfmck run --help)', parse: names },
  { key: 'targets.kitRegistry', env: 'WFMCK_KIT_REGISTRY', flag: 'kit-registry', boolean: true, doc: "the WFM's assignDeployment hook takes package {repository, version} and pulls from a registry the kit runs on 127.0.0.1 (plain HTTP): enables the §4.7 retrieval checks", parse: bool },
  { key: 'attend', env: 'WFMCK_ATTEND', flag: 'attend', boolean: true, doc: 'persona device: you start the client under test by hand for each check, from the folder the kit writes under <out>/attend/ (no startClient hook)', parse: bool },
  { key: 'attendTimeoutSeconds', env: 'WFMCK_ATTEND_TIMEOUT', flag: 'attend-timeout', doc: `attended mode: seconds the kit waits for each client to connect (default ${DEFAULT_ATTEND_TIMEOUT_S}; the check is skipped with that reason)`, parse: positiveInt },
  { key: 'listen.host', env: 'WFMCK_LISTEN', flag: 'listen', doc: 'loopback address the embedded services listen on (default 127.0.0.1; ::1 allowed)', parse: (raw) => loopbackAddress(text(raw)) },
  { key: 'listen.wfmPort', env: 'WFMCK_WFM_PORT', flag: 'wfm-port', doc: 'port of the embedded WFM (default any free port)', parse: portNumber },
  { key: 'signing.sign', env: 'WFMCK_SIGN', flag: 'sign', boolean: true, doc: 'sign the reports (conformance.dsse.json); without keyFile, with a P-256 key made for the run', parse: bool },
  { key: 'signing.keyFile', env: 'WFMCK_SIGNING_KEY', flag: 'signing-key', doc: 'PEM PKCS#8 ECDSA P-256 private key that signs the reports (implies sign)', parse: file },
  { key: 'signing.certFile', env: 'WFMCK_SIGNING_CERT', flag: 'signing-cert', doc: 'PEM certificate of that key, shipped beside the envelope', parse: file },
];

export const RUN_FLAGS = {
  ...Object.fromEntries(FIELDS.filter((f) => f.flag).map((f) => [f.flag!, { type: f.boolean ? 'boolean' as const : 'string' as const }])),
  config: { type: 'string' as const },
  help: { type: 'boolean' as const, short: 'h' },
};

export interface ResolveOptions {
  now?: Date;
  /** Draws the default seed; injectable so tests are deterministic. */
  randomSeed?: () => number;
}

/** Builds the Config from argv, env and the YAML file; reads only the YAML file and checks that named files exist. */
export function resolveConfig(argv: string[], env: Record<string, string | undefined>, cwd: string, opts: ResolveOptions = {}): Config {
  const flags = parseFlags(argv);
  const configFile = typeof flags.config === 'string' ? resolve(cwd, flags.config) : env.WFMCK_CONFIG ? resolve(cwd, env.WFMCK_CONFIG) : existsSync(resolve(cwd, CONFIG_FILE)) ? resolve(cwd, CONFIG_FILE) : undefined;
  const yaml = configFile ? readYaml(configFile) : new Map<string, unknown>();
  const values = new Map<string, unknown>();
  for (const f of FIELDS) {
    const flag = f.flag ? flags[f.flag] : undefined;
    const [raw, from, base] =
      flag !== undefined ? [flag, `--${f.flag}`, cwd]
      : env[f.env] !== undefined && env[f.env] !== '' ? [env[f.env], f.env, cwd]
      : yaml.has(f.key) ? [yaml.get(f.key), `${configFile} ${f.key}`, dirname(configFile!)]
      : [undefined, '', cwd];
    if (raw === undefined) continue;
    try {
      values.set(f.key, f.parse(raw, base));
    } catch (e) {
      throw new UsageError(`${from}: ${(e as Error).message}`);
    }
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
  if (named.length && v.has('faults')) throw new UsageError(`faults switch on faulty variants of the embedded default; they cannot apply to a named target (targets.${named[0]})`);
  const signKey = get<string>('signing.keyFile');
  const signCert = get<string>('signing.certFile');
  if (signCert && !signKey) throw new UsageError('signing.certFile: give the signing.keyFile it certifies (a key made for the run has no certificate)');
  const hooks: Config['hooks'] = {};
  for (const name of HOOK_NAMES) {
    const h = get<{ command: string; timeoutMs?: number; cwd: string }>(`hooks.${name}`);
    if (h) hooks[name] = { kind: 'command', command: h.command, timeoutMs: h.timeoutMs ?? profile.hookTimeoutMs, cwd: h.cwd };
  }
  const attend = get<boolean>('attend');
  if (attend && v.has('hooks.startClient')) throw new UsageError('attend: you start the client under test by hand; give no hooks.startClient as well');
  if (attend && get<Persona>('persona') !== 'device') throw new UsageError('attend: attended mode is for --persona device (you start the device client under test by hand)');
  if (attend && (get<string[]>('faults') ?? []).some((id) => CLIENT_FAULTS.some((f) => f.id === id))) throw new UsageError('attend: client faults break the kit\'s own client, which attended mode does not start');
  const stamp = (opts.now ?? new Date()).toISOString().replace(/[:.]/g, '-');
  return {
    targets: {
      wfm: get('targets.wfm'), identity: get('targets.identity'), discovery: get('targets.discovery'),
      trustBundleUri: get('targets.trustBundleUri'), registry: get('targets.registry'),
      ...(v.has('targets.extraDiscovery') && { extraDiscovery: get<string[]>('targets.extraDiscovery') }),
      registryRepository: get('targets.registryRepository') ?? DEFAULT_REGISTRY_REPOSITORY,
      ...(v.has('targets.trustDomain') && { trustDomain: get<string>('targets.trustDomain') }),
      ...(v.has('targets.wfmId') && { wfmId: get<string>('targets.wfmId') }),
      ...(get<boolean>('targets.kitRegistry') && { kitRegistry: true }),
    },
    tls: { caFiles: get<string[]>('tls.caFiles') ?? [] },
    ...(certFile && keyFile && { deviceCa: { certFile, keyFile } }),
    persona: get<Persona>('persona') ?? PERSONA,
    profile,
    strictness,
    seed: get<number>('seed') ?? (opts.randomSeed ?? (() => randomInt(2 ** 31 - 1)))(),
    runs: get<number>('runs') ?? RUNS_BY_STRICTNESS[strictness],
    ...(v.has('path') && { path: get<string>('path') }),
    hooks,
    grep: get('grep'),
    ...(v.has('shard') && { shard: get<{ index: number; total: number }>('shard')! }),
    out: get<string>('out') ?? resolve(cwd, 'reports', 'out', stamp),
    workers: get<number>('workers') ?? DEFAULT_WORKERS,
    faults: get<string[]>('faults') ?? [],
    component: stripUndefined({ vendor: get<string>('component.vendor'), name: get<string>('component.name'), version: get<string>('component.version') }),
    ...(v.has('claims') && { claims: checkedClaims(get<string[]>('claims')!, get<Persona>('persona') ?? PERSONA) }),
    ...((get<boolean>('signing.sign') || signKey) && { signing: stripUndefined({ keyFile: signKey, certFile: signCert }) }),
    ...(attend && { attend: { timeoutMs: (get<number>('attendTimeoutSeconds') ?? DEFAULT_ATTEND_TIMEOUT_S) * 1000 } }),
    listen: stripUndefined({ host: get<string>('listen.host') ?? '127.0.0.1', wfmPort: get<number>('listen.wfmPort') }),
    ...(configFile && { configFile }),
  };
}

/** The config as reports echo it: hook commands kept with anything that looks like a credential masked. */
export function redactedConfig(config: Config): Record<string, unknown> {
  const hooks = Object.fromEntries(Object.entries(config.hooks).map(([n, h]) => [n, { command: maskSecrets(h.command), timeoutMs: h.timeoutMs }]));
  return { ...structuredClone({ ...config, hooks: {} }), hooks };
}

function maskSecrets(command: string): string {
  // A command may carry a credential inline (curl -H "Authorization: Bearer ..."); reports must not.
  return command.replace(/(bearer\s+|(?:token|password|secret|apikey|api-key)\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s"']+)/gi, '$1***');
}

/** Only loopback targets: the kit sends conformance traffic (including hostile inputs) to this machine alone. */
export { isLoopbackHost };

function url(raw: unknown): string {
  let u: URL;
  try {
    u = new URL(text(raw));
  } catch {
    throw new Error(`"${String(raw)}" is not an absolute URL`);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error(`${u.href} must be http or https`);
  if (!isLoopbackHost(u.hostname)) {
    throw new Error(`${u.host} is not a loopback host (127.0.0.0/8, ::1, localhost): this machine never sends test traffic elsewhere`);
  }
  return u.href.replace(/\/$/, '');
}

function urls(raw: unknown): string[] {
  const list = typeof raw === 'string' ? raw.split(',').map((s) => s.trim()).filter(Boolean) : raw;
  if (!Array.isArray(list) || list.length === 0) throw new Error('expected a list of URLs');
  return list.map(url);
}

function parseFlags(argv: string[]): Record<string, string | boolean | undefined> {
  try {
    return parseArgs({ args: argv, options: RUN_FLAGS, strict: true, allowPositionals: false }).values as Record<string, string | boolean | undefined>;
  } catch (e) {
    throw new UsageError((e as Error).message.split('\n')[0]!);
  }
}

function readYaml(path: string): Map<string, unknown> {
  if (!existsSync(path)) throw new UsageError(`--config: no such file ${path}`);
  let doc: unknown;
  try {
    doc = parseYaml(readFileSync(path, 'utf8')) ?? {};
  } catch (e) {
    throw new UsageError(`${path}: not valid YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  const out = new Map<string, unknown>();
  flatten(doc, '', path, out);
  return out;
}

function flatten(node: unknown, prefix: string, path: string, out: Map<string, unknown>): void {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) throw new UsageError(`${path}: ${prefix || 'the top level'} must be a mapping`);
  for (const [k, value] of Object.entries(node)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (FIELDS.some((f) => f.key === key)) out.set(key, value);
    else if (FIELDS.some((f) => f.key.startsWith(`${key}.`))) flatten(value, key, path, out);
    else throw new UsageError(`${path}: unknown key "${key}"`);
  }
}

function text(raw: unknown): string {
  if (typeof raw !== 'string' || raw === '') throw new Error(`expected a non-empty string, not ${JSON.stringify(raw)}`);
  return raw;
}

function bool(raw: unknown): boolean {
  if (raw === true || raw === 'true' || raw === '1') return true;
  if (raw === false || raw === 'false' || raw === '0') return false;
  throw new Error(`expected true or false, not ${JSON.stringify(raw)}`);
}

function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

function oneOf<T extends string>(...allowed: T[]): Parse {
  return (raw) => {
    if (!(allowed as unknown[]).includes(raw)) throw new Error(`must be one of ${allowed.join(', ')}, not ${JSON.stringify(raw)}`);
    return raw;
  };
}

function pattern(re: RegExp, what: string): Parse {
  return (raw) => {
    if (!re.test(text(raw))) throw new Error(`must be ${what}, not ${JSON.stringify(raw)}`);
    return raw;
  };
}

function integer(raw: unknown): number {
  const n = typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw new Error(`expected an integer, not ${JSON.stringify(raw)}`);
  return n;
}


function portNumber(raw: unknown): number {
  const n = integer(raw);
  if (n < 1 || n > 65535) throw new Error(`must be a port 1-65535, not ${n}`);
  return n;
}

function positiveInt(raw: unknown): number {
  const n = integer(raw);
  if (n < 1) throw new Error(`must be at least 1, not ${n}`);
  return n;
}

/** Fault ids of the reference services (reference/faults/) or of the kit's own client (simulators/faults/, persona device). */
function faultIds(raw: unknown): string[] {
  const ids = (Array.isArray(raw) ? raw.map(String) : text(raw).split(',')).map((s) => s.trim()).filter(Boolean);
  resolveFaults(ids.filter((id) => !CLIENT_FAULTS.some((f) => f.id === id)));
  return ids;
}

function names(raw: unknown): string[] {
  const list = (Array.isArray(raw) ? raw.map(String) : text(raw).split(',')).map((s) => s.trim()).filter(Boolean);
  if (list.length === 0) throw new Error('expected at least one name');
  return [...new Set(list)];
}

/** Claims name areas of the run's persona (run/claims.ts). */
function checkedClaims(claims: string[], persona: Persona): string[] {
  const known = areasFor(observersOf(persona)).map((a) => a.name);
  const unknown = claims.filter((c) => !known.includes(c));
  if (unknown.length) throw new UsageError(`claims: ${unknown.join(', ')} ${unknown.length === 1 ? 'is no area' : 'are no areas'} of persona ${persona}; its areas: ${[...new Set(known)].join(', ')}`);
  return claims;
}

function seed(raw: unknown): number {
  const n = integer(raw);
  // fast-check seeds are 32-bit integers.
  if (n < -(2 ** 31) || n > 2 ** 31 - 1) throw new Error(`must be a 32-bit integer, not ${n}`);
  return n;
}

function shardSpec(raw: unknown): { index: number; total: number } {
  const shard = parseShard(text(raw));
  if (!shard) throw new Error(`expected i/n with 1 <= i <= n, not ${JSON.stringify(raw)}`);
  return shard;
}

function regex(raw: unknown): string {
  try {
    new RegExp(text(raw));
  } catch (e) {
    throw new Error(`not a regular expression: ${(e as Error).message}`);
  }
  return raw as string;
}

function repository(raw: unknown): string {
  // OCI distribution-spec repository name grammar.
  return pattern(/^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/, 'an OCI repository name')(raw, '') as string;
}

function file(raw: unknown, base: string): string {
  const path = resolve(base, text(raw));
  if (!existsSync(path)) throw new Error(`no such file ${path}`);
  return path;
}

function files(raw: unknown, base: string): string[] {
  const list = typeof raw === 'string' ? raw.split(delimiter).filter(Boolean) : raw;
  if (!Array.isArray(list)) throw new Error('expected a list of files');
  return list.map((f) => file(f, base));
}

/** A hook runs where its relative paths were written: the folder of the YAML that names it, else wfmck's own. */
function hook(raw: unknown, base: string): { command: string; timeoutMs?: number; cwd: string } {
  if (typeof raw === 'string') return { command: text(raw), cwd: base };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('expected a shell command or {command, timeoutMs, cwd}');
  const extra = Object.keys(raw).filter((k) => k !== 'command' && k !== 'timeoutMs' && k !== 'cwd');
  if (extra.length) throw new Error(`unknown key "${extra[0]}" (a hook has command, timeoutMs and cwd)`);
  const h = raw as { command?: unknown; timeoutMs?: unknown; cwd?: unknown };
  return { command: text(h.command), ...(h.timeoutMs !== undefined && { timeoutMs: positiveInt(h.timeoutMs) }), cwd: h.cwd === undefined ? base : resolve(base, text(h.cwd)) };
}
