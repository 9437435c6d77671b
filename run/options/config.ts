// The one typed configuration of `wfmck run`, built once from its settings (run/options/run-settings.ts): one parse of
// argv, env and YAML, then checks across settings, then the Config, never changed after. Precedence: flags > env >
// YAML (wfmck.config.yaml or --config FILE) > default. Every bad value is a UsageError.
import { dirname, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { resolveProfile, type Profile } from '../../spec/profile.ts';
import { loadRequirements } from '../../spec/requirements.ts';
import { HOOK_NAMES, type HookBinding, type HookName, type RunContext } from '../contract/context.ts';
import { observersOf, type Persona } from '../contract/personas.ts';
import { areasFor } from '../contract/claims.ts';
import { selectionGrep } from '../contract/selection.ts';
import { UsageError } from './usage.ts';
import { isLoopbackHost } from '../../spec/loopback.ts';
import { parseArgv, parseChecked, type Option, type ParsedArgv } from './options.ts';
import { isClientFault } from '../../faults/catalog.ts';
import type { Pin } from '../../protocol/pinned-lookup.ts';
import { readConfigYaml } from './config-yaml.ts';
import { CARRIED, FIELDS, PLAIN, type CarriedSettings, type PlainSettings } from './run-settings.ts';
import type { LevelWord } from './setting-checks.ts';
import type { AnySetting, DefaultInputs, Field, ResolveOptions } from './setting.ts';

export {
  CARRIED,
  CONSOLE_REPORTERS,
  DEFAULT_ATTEND_TIMEOUT_S,
  DEFAULT_REGISTRY_REPOSITORY,
  DEFAULT_WORKERS,
  FIELDS,
  PLAIN,
  RUNS_BY_STRICTNESS,
  type ConsoleReporter,
} from './run-settings.ts';
export type { Field, ResolveOptions } from './setting.ts';

/** The settings as given (CARRIED and PLAIN, typed by their entries), and what the run makes of the others. */
export interface Config extends CarriedSettings, PlainSettings {
  /** The run context's targets (run/contract/context.ts), the registry namespace always resolved. */
  targets: RunContext['targets'] & { registryRepository: string };
  tls: { caFiles: string[] };
  /** `--resolve`: names pinned to addresses (protocol/pinned-lookup.ts); TLS still checks the name. */
  resolve?: Pin[];
  deviceCa?: { certFile: string; keyFile: string };
  profile: Profile;
  hooks: Partial<Record<HookName, Extract<HookBinding, { kind: 'command' }>>>;
  /** What Playwright's --grep gets: the --grep given, narrowed by --level, --section and --last-failed (run/contract/selection.ts). */
  grep?: string;
  /** `--level`: the catalog levels whose checks run. */
  levels?: LevelWord[];
  /** `--section`: the spec sections whose checks run. */
  sections?: string[];
  /** The component under test as the report names it (issue 10: vendor, name, version). */
  component: { vendor?: string; name?: string; version?: string };
  /** The areas the component claims (run/contract/claims.ts); absent = every area of its persona. */
  claims?: string[];
  /** Sign the reports (conformance.dsse.json) with keyFile, or with a key generated for the run when only `sign`. */
  signing?: { keyFile?: string; certFile?: string };
  /** Persona device without a startClient hook: the operator starts each client by hand; the kit waits `timeoutMs`. */
  attend?: { timeoutMs: number; /** The operator's command, run for each check's folder (run/processes/attend-exec.ts). */ exec?: string };
  /** Where the embedded services listen (loopback only); the WFM on a fixed port, so a client is configured once. */
  listen: { host: string; wfmPort?: number };
  /** The YAML file read, if any. */
  configFile?: string;
}

export const CONFIG_FILE = 'wfmck.config.yaml';

/** `--config FILE`: the YAML the other settings are read from. */
export const CONFIG_OPTION: Option = {
  flag: 'config',
  value: 'FILE',
  env: 'WFMCK_CONFIG',
  doc: `YAML configuration (default ./${CONFIG_FILE} when present): targets, TLS CA files, device CA, profile values (profiles.md), hooks (P5)`,
};

/** What `wfmck run` does instead of a run, or to pick its checks from the last one: flags, never settings. */
export const LIST_OPTION: Option = {
  flag: 'list',
  doc: 'print the checks the selection would run (requirement ids, test titles, files) and start nothing',
};
export const LAST_FAILED_OPTION: Option = {
  flag: 'last-failed',
  doc: 'run again the checks of the requirements the newest run under reports/out failed, with its replay.yaml',
};

/** Every option `wfmck run` takes, in the order its help lists them. */
export const RUN_OPTIONS: readonly Option[] = [CONFIG_OPTION, ...FIELDS, LIST_OPTION, LAST_FAILED_OPTION];

/** The setting with this YAML key. */
export function setting(key: string): Field {
  const f = FIELDS.find((x) => x.key === key);
  if (!f) throw new Error(`no setting ${key}`);
  return f;
}

export interface ConfigOptions extends ResolveOptions {
  /** `--last-failed`: the last run's replay.yaml (read unless --config names another) and the requirements to run again. */
  again?: { configFile: string; ids: string[] };
}

/** Builds the Config from argv, env and the YAML file; reads only the YAML file and checks that named files exist. */
export function resolveConfig(argv: string[], env: Record<string, string | undefined>, cwd: string, opts: ConfigOptions = {}): Config {
  return configOf(parseArgv(argv, RUN_OPTIONS, false), env, cwd, opts);
}

/** The Config of argv parsed once (`wfmck run` reads --list and --last-failed from the same parse). */
export function configOf(parsed: ParsedArgv, env: Record<string, string | undefined>, cwd: string, opts: ConfigOptions = {}): Config {
  const { flags, spelling } = parsed;
  const configFlag = flags.get('config');
  const configFile =
    typeof configFlag === 'string'
      ? resolve(cwd, configFlag)
      : opts.again
        ? opts.again.configFile
        : env.WFMCK_CONFIG
          ? resolve(cwd, env.WFMCK_CONFIG)
          : existsSync(resolve(cwd, CONFIG_FILE))
            ? resolve(cwd, CONFIG_FILE)
            : undefined;
  const yaml = configFile
    ? readConfigYaml(
        configFile,
        FIELDS.map((f) => f.key),
      )
    : new Map<string, unknown>();
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
  checkTogether(values);
  return build(values, { get: (key) => values.get(key), opts, cwd }, configFile, opts.again?.ids);
}

const TARGET_NAMES = ['wfm', 'identity', 'discovery', 'trustBundleUri', 'registry'] as const;

/** True when the config names a target: the run certifies those, and the embedded default is not started. */
export function namesTargets(config: Pick<Config, 'targets'>): boolean {
  return TARGET_NAMES.some((t) => config.targets[t] !== undefined);
}

/** What no single setting's check can see: settings that need, or exclude, one another. */
function checkTogether(v: Map<string, unknown>): void {
  if (v.has('deviceCa.certFile') !== v.has('deviceCa.keyFile'))
    throw new UsageError('deviceCa: give both certFile and keyFile, or neither');
  // Naming any target certifies only what is named (a registry alone, say): the embedded default is never mixed in.
  const named = TARGET_NAMES.filter((t) => v.has(`targets.${t}`));
  if (named.length && v.has('faults'))
    throw new UsageError(
      `faults: they switch on faulty variants of the embedded default and cannot apply to a named target (targets.${named[0]})`,
    );
  if (v.has('faultBatch')) {
    // A batch is the fault harness's: each fault on its own embedded default, judged alone.
    const given = (k: string) => (typeof v.get(k) === 'boolean' ? v.get(k) === true : v.has(k));
    const clash = ['faults', 'shard', 'attend', 'attendExec', 'signing.sign', 'signing.keyFile', ...named.map((t) => `targets.${t}`)].find(
      given,
    );
    if (clash) throw new UsageError(`faultBatch: each fault of a batch gets its own embedded default; give no ${clash} with it`);
  }
  if (v.has('signing.certFile') && !v.has('signing.keyFile'))
    throw new UsageError('signing.certFile: give the signing.keyFile it certifies (a key made for the run has no certificate)');
  if (!(v.get('attend') || v.has('attendExec'))) return;
  if (v.has('hooks.startClient'))
    throw new UsageError('attend: you start the client under test by hand; give no hooks.startClient as well');
  if (v.get('persona') !== 'device')
    throw new UsageError('attend: attended mode is for --persona device (you start the device client under test by hand)');
  if (((v.get('faults') as string[] | undefined) ?? []).some(isClientFault))
    throw new UsageError("attend: client faults break the kit's own client, which attended mode does not start");
}

/** Each entry of a record of settings by its name: the value given, else its default (absent when it has none). */
function valuesOf<T>(settings: Record<string, AnySetting>, inputs: DefaultInputs): T {
  const out: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(settings)) {
    const given = inputs.get(s.key);
    const value =
      given !== undefined ? given : typeof s.default === 'function' ? (s.default as (i: DefaultInputs) => unknown)(inputs) : s.default;
    if (value !== undefined) out[name] = value;
  }
  return out as T;
}

function build(v: Map<string, unknown>, inputs: DefaultInputs, configFile: string | undefined, ids: string[] | undefined): Config {
  const get = <T>(key: string): T | undefined => v.get(key) as T | undefined;
  const given = { ...valuesOf<CarriedSettings>(CARRIED, inputs), ...valuesOf<PlainSettings>(PLAIN, inputs) };
  const overrides = Object.fromEntries(FIELDS.filter((f) => f.key.startsWith('profile.')).map((f) => [f.key.slice(8), v.get(f.key)]));
  const profile = resolveProfile({ ...overrides, edition: get('edition'), strictness: given.strictness });
  const hooks: Config['hooks'] = {};
  for (const name of HOOK_NAMES) {
    const h = get<{ command: string; timeoutMs?: number; cwd: string }>(`hooks.${name}`);
    if (h) hooks[name] = { kind: 'command', command: h.command, timeoutMs: h.timeoutMs ?? profile.hookTimeoutMs, cwd: h.cwd };
  }
  const selection = { grep: get<string>('grep'), levels: get<LevelWord[]>('level'), sections: get<string[]>('section'), ids };
  const signKey = get<string>('signing.keyFile');
  const attendExec = get<string>('attendExec');
  return {
    ...given,
    targets: targetsOf(v),
    tls: { caFiles: get<string[]>('tls.caFiles') ?? [] },
    ...(v.has('resolve') && { resolve: get<Pin[]>('resolve') }),
    ...(v.has('deviceCa.certFile') && {
      deviceCa: { certFile: get<string>('deviceCa.certFile')!, keyFile: get<string>('deviceCa.keyFile')! },
    }),
    profile,
    hooks,
    // --level, --section and --last-failed narrow --grep here, once (the catalog is read only when they are given).
    grep: selection.levels || selection.sections || ids ? selectionGrep(selection, loadRequirements()) : selection.grep,
    ...(selection.levels && { levels: selection.levels }),
    ...(selection.sections && { sections: selection.sections }),
    component: stripUndefined({
      vendor: get<string>('component.vendor'),
      name: get<string>('component.name'),
      version: get<string>('component.version'),
    }),
    ...(v.has('claims') && { claims: checkedClaims(get<string[]>('claims')!, given.persona) }),
    ...((get<boolean>('signing.sign') || signKey) && {
      signing: stripUndefined({ keyFile: signKey, certFile: get<string>('signing.certFile') }),
    }),
    ...((get<boolean>('attend') || attendExec !== undefined) && {
      attend: {
        timeoutMs:
          (get<number>('attendTimeoutSeconds') ?? (FIELDS.find((f) => f.key === 'attendTimeoutSeconds')!.default as number)) * 1000,
        ...(attendExec !== undefined && { exec: attendExec }),
      },
    }),
    listen: stripUndefined({ host: get<string>('listen.host') ?? '127.0.0.1', wfmPort: get<number>('listen.wfmPort') }),
    ...(configFile && { configFile }),
  };
}

function targetsOf(v: Map<string, unknown>): Config['targets'] {
  const get = <T>(key: string): T | undefined => v.get(key) as T | undefined;
  return {
    wfm: get('targets.wfm'),
    identity: get('targets.identity'),
    discovery: get('targets.discovery'),
    trustBundleUri: get('targets.trustBundleUri'),
    registry: get('targets.registry'),
    ...(v.has('targets.extraDiscovery') && { extraDiscovery: get<string[]>('targets.extraDiscovery') }),
    registryRepository: get('targets.registryRepository') ?? (setting('targets.registryRepository').default as string),
    ...(v.has('targets.trustDomain') && { trustDomain: get<string>('targets.trustDomain') }),
    ...(v.has('targets.wfmId') && { wfmId: get<string>('targets.wfmId') }),
    ...(get<boolean>('targets.kitRegistry') && { kitRegistry: true }),
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

function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
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
