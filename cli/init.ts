// `wfmck init`: writes wfmck.config.yaml from answers. On a terminal it asks for what no flag gave, checking each
// answer as it is given (asked again, with the reason, until it passes); without one (CI) it asks nothing. Paths are
// read from the current folder and written so `wfmck run --config FILE` finds them from the file's folder.
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { createInterface, type Interface } from 'node:readline/promises';
import { stringify } from 'yaml';
import { CONFIG_FILE, resolveConfig, setting, type Config } from '../run/options/config.ts';
import { HOOK_NAMES, type HookName } from '../run/contract/context.ts';
import { checked } from '../run/options/args.ts';
import { EXIT_OK, UsageError } from '../run/options/usage.ts';
import { helpText, optionsOf, parseArgv, type CommandSpec, type Option } from '../run/options/options.ts';
import { checkConfiguration, hookProblem } from './preflight.ts';
import { ATTEND_ANSWER, HOOK_DOCS, hooksToAsk } from './init-hooks.ts';

/** Where init says more, or less, than `wfmck run --help`. */
const INIT_DOCS: Record<string, string> = {
  persona:
    'wfm (default; a WFM with its identity role and registry), identity, registry, device (the kit plays the WFM; give --hook startClient=CMD and --hook stopClient=CMD for your client, and where it can removeChild, disconnectChild and changeCapabilities; or --attend)',
  edition: 'seed (default, interfaces.md) or miaf (1.0.0-rc.3: mutual TLS with SVIDs)',
  'targets.wfm': 'WFM base URL; no target = the embedded default',
  'tls.caFiles': "PEM file of the CA of your services' TLS certificates (repeat for more)",
};

/** The settings init asks for, as `wfmck run` reads them: flag, YAML key written, check; env plays no part here. */
const SETTINGS: readonly Option[] = [
  'persona',
  'edition',
  'targets.wfm',
  'targets.identity',
  'targets.registry',
  'tls.caFiles',
  'deviceCa.certFile',
  'deviceCa.keyFile',
  'targets.trustDomain',
  'targets.wfmId',
  'profile.vendor',
  'component.vendor',
  'component.name',
  'component.version',
  'attend',
].map((key) => {
  const { env: _env, ...option } = setting(key);
  return { ...option, doc: INIT_DOCS[key] ?? option.doc };
});

export const SPEC: CommandSpec = {
  name: 'init',
  usage: ['[options]'],
  about: `Writes ${CONFIG_FILE} for \`wfmck run\`. On a terminal it asks for every answer no flag gave (Enter keeps the
shown default, or leaves the setting or hook out), checks each answer as it is given the way \`wfmck run\` reads the
file, and asks again with the reason when it does not pass; without a terminal it asks nothing. It asks for the hooks
(P5) your persona and edition use, saying what each does; a hook command must resolve to an executable. Paths, in
flags and answers, are read from the current folder and written relative to the file's folder (absolute when they
lie outside it); a hook named from another folder than the file's gets that folder as its cwd.`,
  groups: [
    { title: 'settings (each flag writes the YAML key beside it)', options: SETTINGS },
    {
      options: [
        { flag: 'hook', value: 'NAME=COMMAND', multiple: true, doc: `a hook of P5/P10 (repeat): ${HOOK_NAMES.join(', ')}` },
        { flag: 'out', value: 'FILE', doc: `where to write (default ./${CONFIG_FILE}); an existing file needs --force` },
        { flag: 'force', doc: 'overwrite' },
      ],
    },
  ],
};

/** Asks one question; `problem` is why the previous answer was not taken. Undefined = leave the setting out. */
export type Ask = (question: string, fallback?: string, problem?: string) => Promise<string | undefined>;

/** A question's answer as the YAML will hold it, or an Error saying why it cannot be taken. */
type Check = (raw: string) => unknown;

interface Answers {
  /**
   * The answer to a setting (by YAML key): a flag's checked value, else (on a terminal) the user's; `also` checks it
   * further against earlier answers (a key against its certificate).
   */
  setting(key: string, question: string, fallback?: string, also?: (value: unknown) => void): Promise<unknown>;
  /** A flag's checked value alone: what was given for a setting this persona is not asked for. */
  flag(key: string): unknown;
  /** The answer to a question with its own check (no flag of its own). */
  ask(question: string, check: Check): Promise<unknown>;
}

export async function run(argv: string[], io: { interactive?: boolean; ask?: Ask; cwd?: string } = {}): Promise<number> {
  const parsed = parseArgv(argv, optionsOf(SPEC), false);
  if (parsed.help) return (void process.stdout.write(helpText(SPEC)), EXIT_OK);
  const cwd = io.cwd ?? process.cwd();
  const out = resolve(cwd, typeof parsed.flags.get('out') === 'string' ? (parsed.flags.get('out') as string) : CONFIG_FILE);
  const place = placer(cwd, dirname(out));
  // Every flag checked before anything is asked: a typo in CI costs nothing, and on a terminal no answer is lost.
  const fromFlags = new Map<string, unknown>();
  for (const o of SETTINGS) {
    const raw = parsed.flags.get(o.flag!);
    if (raw === undefined) continue;
    const check = settingCheck(o.key!, cwd, place, parsed.spelling.get(o.flag!)!);
    try {
      fromFlags.set(o.key!, Array.isArray(raw) ? raw.flatMap((r) => check(r) as string[]) : check(raw as string));
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  }
  const hookFlags = hookFlagValues((parsed.flags.get('hook') as string[] | undefined) ?? [], cwd, place);
  if (existsSync(out) && parsed.flags.get('force') !== true) throw new UsageError(`--out: ${out} exists; --force overwrites it`);
  const interactive = io.interactive ?? (process.stdin.isTTY === true && process.stdout.isTTY === true);
  const rl: Interface | undefined = interactive && !io.ask ? createInterface({ input: process.stdin, output: process.stdout }) : undefined;
  const prompt: Ask =
    io.ask ??
    (async (q, fallback, problem) => {
      if (problem) process.stdout.write(`  not taken: ${problem}\n`);
      const answer = (await rl!.question(`${q}${fallback ? ` [${fallback}]` : ''}: `)).trim();
      return answer || fallback;
    });
  const ask = async (question: string, check: Check, fallback?: string): Promise<unknown> => {
    if (!interactive) return fallback === undefined ? undefined : check(fallback);
    let problem: string | undefined;
    for (;;) {
      const answer = await prompt(question, fallback, problem);
      if (answer === undefined || answer === '') return undefined;
      try {
        return check(answer);
      } catch (e) {
        problem = (e as Error).message;
      }
    }
  };
  const answers: Answers = {
    async setting(key, question, fallback, also) {
      if (fromFlags.has(key)) {
        const value = fromFlags.get(key);
        try {
          also?.(value);
        } catch (e) {
          throw new UsageError(`--${setting(key).flag}: ${(e as Error).message}`);
        }
        return value;
      }
      const check = settingCheck(key, cwd, place, key);
      return ask(
        question,
        (raw) => {
          const value = check(raw);
          also?.(value);
          return value;
        },
        fallback,
      );
    },
    flag: (key) => fromFlags.get(key),
    ask: (question, check) => ask(question, check),
  };
  try {
    const config = await questions(answers, { hooks: hookFlags, attend: fromFlags.get('attend') === true, cwd, place });
    await mkdir(dirname(out), { recursive: true });
    await check(config, out);
    await writeFile(
      out,
      `# wfmck configuration, written by \`wfmck init\`; \`wfmck run --help\` lists every setting.\n${stringify(config)}`,
    );
    const shown = relative(cwd, out) || out;
    process.stdout.write(`wrote ${shown}; run it with: npx wfmck run${out === resolve(cwd, CONFIG_FILE) ? '' : ` --config ${shown}`}\n`);
    return EXIT_OK;
  } finally {
    rl?.close();
  }
}

/** Where files and hooks stand in the YAML: read from `cwd`, written for the file's folder `dir`. */
interface Placer {
  /** An absolute path as the YAML holds it: relative to `dir` when it lies inside, else absolute. */
  path(abs: string): string;
  /** The absolute path of a path as the YAML holds it. */
  abs(placed: string): string;
  /** A hook command as the YAML holds it: it runs where it was named (`wfmck run` runs it in the YAML's folder). */
  hook(command: string): string | { command: string; cwd: string };
}

function placer(cwd: string, dir: string): Placer {
  const path = (abs: string) => {
    const rel = relative(dir, abs);
    return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? abs : rel;
  };
  return { path, abs: (placed) => resolve(dir, placed), hook: (command) => (cwd === dir ? command : { command, cwd: path(cwd) }) };
}

/** A setting's check as `wfmck run` applies it reading the YAML, with paths read from `cwd`; files also parse. */
function settingCheck(key: string, cwd: string, place: Placer, label: string): Check {
  const field = setting(key);
  return (raw) => {
    const value = checked(field.parse, raw, cwd, label);
    if (key === 'tls.caFiles') {
      preflight({ tls: { caFiles: value as string[] } });
      return (value as string[]).map(place.path);
    }
    if (key.startsWith('deviceCa.')) return place.path(value as string);
    return value;
  };
}

/** `wfmck run`'s own check of configuration material (cli/preflight.ts) on part of a configuration. */
function preflight(part: Partial<Pick<Config, 'tls' | 'deviceCa' | 'hooks'>>): void {
  try {
    checkConfiguration({ hooks: {}, tls: { caFiles: [] }, ...part } as Config);
  } catch (e) {
    throw new Error((e as Error).message.replace(/^[\w.]+: /, ''));
  }
}

/** A hook command that resolves to an executable from `cwd`, as the YAML will hold it. */
function hookCheck(cwd: string, place: Placer): Check {
  return (raw) => {
    const why = hookProblem(raw, cwd);
    if (why !== undefined) throw new Error(`"${raw}" ${why}`);
    return place.hook(raw);
  };
}

function hookFlagValues(given: string[], cwd: string, place: Placer): Map<HookName, unknown> {
  const hooks = new Map<HookName, unknown>();
  for (const h of given) {
    const at = h.indexOf('=');
    const name = h.slice(0, at) as HookName;
    if (at < 1 || !HOOK_NAMES.includes(name))
      throw new UsageError(`--hook: "${h}" is not NAME=COMMAND with NAME one of ${HOOK_NAMES.join(', ')}`);
    try {
      hooks.set(name, hookCheck(cwd, place)(h.slice(at + 1)));
    } catch (e) {
      throw new UsageError(`--hook: ${name}: ${(e as Error).message}`);
    }
  }
  return hooks;
}

interface Given {
  hooks: Map<HookName, unknown>;
  attend: boolean;
  cwd: string;
  place: Placer;
}

async function questions(a: Answers, given: Given): Promise<Record<string, unknown>> {
  const hooks = new Map(given.hooks);
  const persona = (await a.setting('persona', 'Persona your component plays (wfm, identity, registry, device)', 'wfm')) as string;
  const edition = (await a.setting('edition', 'Edition of the standard (seed, miaf)', 'seed')) as string;
  const targets: Record<string, unknown> = {};
  for (const [key, q, asked] of [
    ['wfm', 'WFM base URL (empty: the embedded default)', persona === 'wfm'],
    ['identity', 'Identity role origin (empty: none)', persona === 'wfm' || persona === 'identity'],
    ['registry', 'OCI registry base URL (empty: none)', persona === 'wfm' || persona === 'registry'],
  ] as const) {
    const v = asked ? await a.setting(`targets.${key}`, q) : a.flag(`targets.${key}`);
    if (v) targets[key] = v;
  }
  const spiffe = edition === 'miaf' && targets['wfm'] !== undefined;
  const td = spiffe ? await a.setting('targets.trustDomain', 'SPIFFE trust domain of the WFM') : a.flag('targets.trustDomain');
  const id = spiffe ? await a.setting('targets.wfmId', '<wfm-id> of its SPIFFE ID') : a.flag('targets.wfmId');
  if (td) targets['trustDomain'] = td;
  if (id) targets['wfmId'] = id;
  const caFiles = Object.keys(targets).length
    ? await a.setting('tls.caFiles', "PEM file of the CA of your services' TLS certificates (empty: none)")
    : a.flag('tls.caFiles');
  const viaHook: HookName = edition === 'miaf' ? 'issueClientSvid' : 'trustClientCertificate';
  const deviceCert = targets['wfm']
    ? await a.setting(
        'deviceCa.certFile',
        edition === 'miaf'
          ? `SVID CA certificate in the WFM's trust bundle (empty: the hook ${viaHook} instead)`
          : `Device CA certificate the WFM trusts (empty: the hook ${viaHook} instead)`,
      )
    : a.flag('deviceCa.certFile');
  // A key that is not the certificate's is asked again now, not found by `wfmck run` later.
  const deviceKey = deviceCert
    ? await a.setting('deviceCa.keyFile', 'Its private key', undefined, (key) =>
        preflight({ deviceCa: { certFile: given.place.abs(deviceCert as string), keyFile: given.place.abs(key as string) } }),
      )
    : a.flag('deviceCa.keyFile');
  let attend = given.attend;
  if (persona === 'device' && !attend && !hooks.has('startClient')) {
    const start = await a.ask(
      `Command that starts your client (hook startClient: gets its certificate, key and the kit's URLs as JSON on stdin, answers {handle}; "${ATTEND_ANSWER}": you start it by hand for each check; empty: the kit's own client)`,
      (raw) => (raw === ATTEND_ANSWER ? raw : hookCheck(given.cwd, given.place)(raw)),
    );
    attend = start === ATTEND_ANSWER;
    if (start !== undefined && !attend) hooks.set('startClient', start);
  }
  const asked = hooksToAsk({
    persona,
    edition,
    wfm: targets['wfm'] !== undefined,
    identity: targets['identity'] !== undefined,
    deviceCa: deviceCert !== undefined,
    startClient: hooks.has('startClient'),
  });
  for (const name of asked.filter((n) => !hooks.has(n))) {
    const h = await a.ask(
      `Command of the hook ${name}: ${HOOK_DOCS[name]} (empty: skip it; its checks are reported skipped)`,
      hookCheck(given.cwd, given.place),
    );
    if (h !== undefined) hooks.set(name, h);
  }
  const vendor = await a.setting('profile.vendor', 'Vendor token of media types and paths (profile P1)', 'platform');
  const component = {
    vendor: await a.setting('component.vendor', 'Your company (as the report names it)'),
    name: await a.setting('component.name', "Your component's name"),
    version: await a.setting('component.version', 'Its version'),
  };
  return strip({
    persona,
    edition,
    attend: attend || undefined,
    targets: Object.keys(targets).length ? targets : undefined,
    tls: caFiles ? { caFiles } : undefined,
    deviceCa: deviceCert || deviceKey ? strip({ certFile: deviceCert, keyFile: deviceKey }) : undefined,
    profile: vendor && vendor !== 'platform' ? { vendor } : undefined,
    component: Object.values(component).some(Boolean) ? strip(component) : undefined,
    hooks: hooks.size ? Object.fromEntries([...hooks].sort(([x], [y]) => HOOK_NAMES.indexOf(x) - HOOK_NAMES.indexOf(y))) : undefined,
  });
}

/** The configuration as `wfmck run` reads and checks it: a usage error names the setting, and nothing is written. */
async function check(config: Record<string, unknown>, out: string): Promise<void> {
  const dir = dirname(out);
  // Beside the real file, so relative paths and hooks resolve as they will for `wfmck run`.
  const file = join(dir, `.wfmck-init-${process.pid}.yaml`);
  await writeFile(file, stringify(config));
  try {
    checkConfiguration(resolveConfig(['--config', file], {}, dir, { randomSeed: () => 1 }));
  } catch (e) {
    // Name the file the user asked for, not the scratch copy.
    throw e instanceof UsageError ? new UsageError(`${e.message.replaceAll(file, out)} (nothing written)`) : e;
  } finally {
    await rm(file, { force: true });
  }
}

function strip<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '')) as T;
}
