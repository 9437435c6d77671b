// replay.yaml: the run's whole resolved configuration (flags, env and YAML, defaults filled in) as a configuration file,
// so `npx wfmck run --config <out>/replay.yaml --seed N --grep '<id>'` tests the same target the same way. Secrets
// travel by path only (key files, CA files); hook commands are kept as given. What only names this one run (its
// output folder, a filter, a shard, a signature) is left out: a replay writes its own.
import { stringify } from 'yaml';
import type { Config } from './config.ts';
import { pinText } from '../../protocol/pinned-lookup.ts';
import { CARRIED } from './run-settings.ts';

/** Carried settings that only name this run (a path filter): a replay writes its own. */
const THIS_RUN_ONLY = new Set<keyof typeof CARRIED>(['path']);

/** Every carried setting but those, by its YAML key: a setting added to CARRIED is replayed with no line here. */
function carriedKeys(config: Config): Record<string, unknown> {
  const names = Object.keys(CARRIED) as (keyof typeof CARRIED)[];
  return Object.fromEntries(names.filter((n) => !THIS_RUN_ONLY.has(n)).map((n) => [CARRIED[n].key, config[n]]));
}

export const REPLAY_FILE = 'replay.yaml';

function defined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0))) as Partial<T>;
}

/** The replay configuration of `config`, as the keys of run/options/config.ts FIELDS read it back. */
export function replayConfig(config: Config): Record<string, unknown> {
  const { strictness: _s, edition, ...profile } = config.profile;
  const hooks = Object.fromEntries(
    Object.entries(config.hooks).map(([name, h]) => [name, { command: h.command, timeoutMs: h.timeoutMs, ...(h.cwd && { cwd: h.cwd }) }]),
  );
  return defined({
    persona: config.persona,
    edition,
    ...carriedKeys(config),
    workers: config.workers,
    targets: defined({ ...config.targets }),
    tls: config.tls.caFiles.length ? { caFiles: config.tls.caFiles } : undefined,
    // In curl's form, so the replay file reads as the command line did.
    resolve: config.resolve?.map(pinText),
    deviceCa: config.deviceCa,
    profile,
    hooks: Object.keys(hooks).length ? hooks : undefined,
    faults: config.faults,
    component: Object.keys(config.component).length ? config.component : undefined,
    claims: config.claims,
    ...(config.attend && {
      attend: true,
      attendTimeoutSeconds: Math.round(config.attend.timeoutMs / 1000),
      ...(config.attend.exec !== undefined && { attendExec: config.attend.exec }),
    }),
    listen: defined({ ...config.listen }),
  });
}

export function replayYaml(config: Config): string {
  return `# wfmck run's resolved configuration, written for replay commands: npx wfmck run --config <this file> --seed N --grep ID\n${stringify(replayConfig(config))}`;
}
