// `wfmck init`: writes wfmck.config.yaml from answers. On a terminal it asks for what no flag gave; without one
// (CI) it asks nothing. The file is checked by the same parser `wfmck run` uses before it is written.
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { createInterface, type Interface } from 'node:readline/promises';
import { stringify } from 'yaml';
import { CONFIG_FILE, resolveConfig, setting } from '../run/config.ts';
import { HOOK_NAMES, type HookName } from '../run/context.ts';
import { EXIT_OK, UsageError } from '../run/usage.ts';
import { helpText, optionsOf, parseArgv, parseChecked, type CommandSpec, type Option } from '../run/options.ts';

/** Where init says more, or less, than `wfmck run --help`. */
const INIT_DOCS: Record<string, string> = {
  persona: 'wfm (default; a WFM with its identity role and registry), identity, registry, device (the kit plays the WFM; give --hook startClient=CMD and --hook stopClient=CMD for your client, and where it can removeChild, disconnectChild and changeCapabilities; or --attend)',
  edition: 'seed (default, interfaces.md) or miaf (1.0.0-rc.3: mutual TLS with SVIDs)',
  'targets.wfm': 'WFM base URL (loopback only); no target = the embedded default',
  'tls.caFiles': "PEM file of the CA of your services' TLS certificates (repeat for more)",
};

/** The settings init asks for, as `wfmck run` reads them: flag, YAML key written, check; env plays no part here. */
const SETTINGS: readonly Option[] = [
  'persona', 'edition', 'targets.wfm', 'targets.identity', 'targets.registry', 'tls.caFiles', 'deviceCa.certFile', 'deviceCa.keyFile',
  'targets.trustDomain', 'targets.wfmId', 'profile.vendor', 'component.vendor', 'component.name', 'component.version', 'attend',
].map((key) => {
  const { env: _env, ...option } = setting(key);
  return { ...option, doc: INIT_DOCS[key] ?? option.doc };
});

export const SPEC: CommandSpec = {
  name: 'init',
  usage: ['[options]'],
  about: `Writes ${CONFIG_FILE} for \`wfmck run\`. On a terminal it asks for every answer no flag gave (Enter keeps the
shown default or leaves the setting out); without a terminal it asks nothing. Each flag and the whole file are
checked the way \`wfmck run\` reads them (files exist relative to the file's folder, URLs are loopback) before it is
written.`,
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

type Values = Partial<Record<string, string | string[] | true>>;

/** Answers come from flags first, then (on a terminal) from the user; undefined = leave the setting out. */
type Ask = (question: string, fallback?: string) => Promise<string | undefined>;

export async function run(argv: string[], io: { interactive?: boolean; ask?: Ask } = {}): Promise<number> {
  const parsed = parseArgv(argv, optionsOf(SPEC), false);
  if (parsed.help) return void process.stdout.write(helpText(SPEC)), EXIT_OK;
  const values: Values = Object.fromEntries(parsed.flags);
  const out = resolve(typeof values.out === 'string' ? values.out : CONFIG_FILE);
  // Each flag as `wfmck run` will read it from the file: relative paths from the file's folder.
  for (const o of SETTINGS) if (parsed.flags.has(o.flag!)) parseChecked(o.parse!, parsed.flags.get(o.flag!), dirname(out), parsed.spelling.get(o.flag!)!, false);
  if (existsSync(out) && values.force !== true) throw new UsageError(`--out: ${out} exists; --force overwrites it`);
  const interactive = io.interactive ?? (process.stdin.isTTY === true && process.stdout.isTTY === true);
  const rl: Interface | undefined = interactive && !io.ask ? createInterface({ input: process.stdin, output: process.stdout }) : undefined;
  const prompt: Ask = io.ask ?? (async (q, fallback) => {
    const answer = (await rl!.question(`${q}${fallback ? ` [${fallback}]` : ''}: `)).trim();
    return answer || fallback;
  });
  /** A flag's value, else (on a terminal) the answer; `null` asks without a flag (its flag is --hook NAME=CMD). */
  const value = async (flag: string | null, question: string, fallback?: string): Promise<string | undefined> => {
    const given = flag === null ? undefined : (values[flag] as string | undefined);
    if (given !== undefined) return given;
    return interactive ? prompt(question, fallback) : fallback;
  };
  try {
    const config = await answers(value, (values.hook as string[] | undefined) ?? [], values['ca-file'] as string[] | undefined, values.attend === true);
    await check(config, out);
    await writeFile(out, `# wfmck configuration, written by \`wfmck init\`; \`wfmck run --help\` lists every setting.\n${stringify(config)}`);
    process.stdout.write(`wrote ${relative(process.cwd(), out) || out}; run it with: npx wfmck run${out === resolve(CONFIG_FILE) ? '' : ` --config ${out}`}\n`);
    return EXIT_OK;
  } finally {
    rl?.close();
  }
}

async function answers(value: (flag: string | null, q: string, fallback?: string) => Promise<string | undefined>, given: string[], caFlags: string[] | undefined, attended: boolean): Promise<Record<string, unknown>> {
  let hooks = given;
  const persona = await value('persona', 'Persona your component plays (wfm, identity, registry, device)', 'wfm');
  const edition = await value('edition', 'Edition of the standard (seed, miaf)', 'seed');
  const targets: Record<string, string> = {};
  const wantsWfm = persona === 'wfm';
  for (const [flag, key, q, asked] of [
    ['wfm', 'wfm', 'WFM base URL (empty: the embedded default)', wantsWfm],
    ['identity', 'identity', 'Identity role origin (empty: none)', persona === 'wfm' || persona === 'identity'],
    ['registry', 'registry', 'OCI registry base URL (empty: none)', persona === 'wfm' || persona === 'registry'],
  ] as const) {
    const v = asked ? await value(flag, q) : undefined;
    if (v) targets[key] = v;
  }
  if (edition === 'miaf' && targets['wfm']) {
    const td = await value('trust-domain', 'SPIFFE trust domain of the WFM');
    const id = await value('wfm-id', '<wfm-id> of its SPIFFE ID');
    if (td) targets['trustDomain'] = td;
    if (id) targets['wfmId'] = id;
  }
  const asked = caFlags ? undefined : Object.keys(targets).length ? await value(null, 'PEM file of the CA of your services\' TLS certificates') : undefined;
  const caFiles = caFlags ?? (asked ? [asked] : []);
  const deviceCert = targets['wfm'] ? await value('device-ca-cert', edition === 'miaf' ? 'SVID CA certificate in the WFM\'s trust bundle (empty: hook issueClientSvid)' : 'Device CA certificate the WFM trusts (empty: hook trustClientCertificate)') : undefined;
  const deviceKey = deviceCert ? await value('device-ca-key', 'Its private key') : undefined;
  const vendor = await value('vendor', 'Vendor token of media types and paths (profile P1)', 'platform');
  const component = {
    vendor: await value('component-vendor', 'Your company (as the report names it)'),
    name: await value('component-name', 'Your component\'s name'),
    version: await value('component-version', 'Its version'),
  };
  // Persona device: the kit is the WFM; what it needs is how to start and stop the client under test.
  let attend = attended;
  if (persona === 'device' && !attend && !hooks.some((h) => h.startsWith('startClient='))) {
    const start = await value(null, 'Command that starts your client with the JSON it is given on stdin (hook startClient; "attend": you start it by hand for each check; empty: the kit\'s own client)');
    attend = start === 'attend';
    const stop = start && !attend ? await value(null, 'Command that stops it (hook stopClient)') : undefined;
    if (start && !attend) hooks = [...hooks, `startClient=${start}`, ...(stop ? [`stopClient=${stop}`] : [])];
  }
  const hookEntries = hooks.map((h) => {
    const at = h.indexOf('=');
    const name = h.slice(0, at) as HookName;
    if (at < 1 || !HOOK_NAMES.includes(name)) throw new UsageError(`--hook: "${h}" is not NAME=COMMAND with NAME one of ${HOOK_NAMES.join(', ')}`);
    return [name, h.slice(at + 1)] as const;
  });
  return strip({
    persona,
    edition,
    attend: attend || undefined,
    targets: Object.keys(targets).length ? targets : undefined,
    tls: caFiles.length ? { caFiles } : undefined,
    deviceCa: deviceCert ? { certFile: deviceCert, keyFile: deviceKey } : undefined,
    profile: vendor && vendor !== 'platform' ? { vendor } : undefined,
    component: Object.values(component).some(Boolean) ? strip(component) : undefined,
    hooks: hookEntries.length ? Object.fromEntries(hookEntries) : undefined,
  });
}

/** The configuration as `wfmck run` would read it: a usage error names the setting, and nothing is written. */
async function check(config: Record<string, unknown>, out: string): Promise<void> {
  const dir = dirname(out);
  // Beside the real file, so relative paths resolve as they will for `wfmck run`.
  const file = join(dir, `.wfmck-init-${process.pid}.yaml`);
  await writeFile(file, stringify(config));
  try {
    resolveConfig(['--config', file], {}, dir, { randomSeed: () => 1 });
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
