// A setting of `wfmck run`: ONE entry says everything about it (its flag, env name, YAML key, check, default and help),
// like the fields of OCI conformance's config struct. run/options/run-settings.ts lists them; the config, the run
// context, --help and docs/reference.md's tables are all read from that list.
import type { Option } from './options.ts';

export interface ResolveOptions {
  now?: Date;
  /** Draws the default seed; injectable so tests are deterministic. */
  randomSeed?: () => number;
}

/** What a default that depends on the run sees: the other settings as given, and the run's clock and dice. */
export interface DefaultInputs {
  get(key: string): unknown;
  opts: ResolveOptions;
  cwd: string;
}

export interface Setting<T = unknown> extends Option {
  /** Dotted YAML key, also the name in error messages and, for a carried setting, its name in the run context. */
  key: string;
  env: string;
  parse: (raw: unknown, base: string, label: string) => T;
  /** The value when none is given (help shows it); a function when it depends on others, with `defaultDoc` for help. */
  default?: T | ((inputs: DefaultInputs) => T);
}

/** A setting of run's configuration whose value the build step reads by key (composite: targets, profile, hooks...). */
export type Field = Setting;

/** A shared option (run/options/option-sets.ts) as a setting of run: its YAML key and env name, and what run says otherwise. */
export const field = (option: Option, key: string, env: string, own: Partial<Field> = {}): Field =>
  ({ ...option, key, env, ...own }) as Field;

/** One entry, its type kept (the value type comes from its check; whether it has a default, from the entry). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any value type: each entry keeps its own
export type AnySetting = Setting<any>;
export const def = <const S extends AnySetting>(s: S): S => s;

export type ValueOf<S> = S extends { parse: (raw: unknown, base: string, label: string) => infer T } ? T : never;

/** The values of a record of settings: those with a default always present, the others optional. */
export type ValuesOf<R extends Record<string, AnySetting>> = {
  -readonly [K in keyof R as R[K] extends { default: unknown } ? K : never]: ValueOf<R[K]>;
} & {
  -readonly [K in keyof R as R[K] extends { default: unknown } ? never : K]?: ValueOf<R[K]>;
};
