// The option registry's machinery: an option is one definition (flag, placeholder, env name, YAML key, check, doc);
// commands compose them (run/options/option-sets.ts) and get their argv parsed and their --help written from the same list.
// Every bad option or value is a UsageError `<option>: <what is wrong>`; no Node error code reaches the user.
import { checked, type Parse } from './args.ts';
import { UsageError } from './usage.ts';
import { didYouMean } from './suggest.ts';

export interface Option {
  /** The long flag without its dashes; absent for a setting read from env and YAML only. */
  flag?: string;
  /** The placeholder of its value in help (URL, FILE, N); absent for a switch (--sign). */
  value?: string;
  /** One line (help wraps it): what it sets, its default. */
  doc: string;
  /** Env variable read when the flag is not given. */
  env?: string;
  /** Its key in the command's YAML file (wfmck.config.yaml for run, the --fleet-file of fleet). */
  key?: string;
  /** The key the file's readers are told, when the file takes a newer name for it than `key` (`key` still works). */
  keyShown?: string;
  /** Repeatable: every value kept, in order. */
  multiple?: true;
  /** Earlier spellings, still accepted and never documented. */
  aliases?: readonly string[];
  /** Checks a value and returns what the command uses; raw strings when absent. */
  parse?: Parse;
  /** The value when none is given: help adds "(default <it>)" to the doc, so no doc repeats a default by hand. */
  default?: unknown;
  /** How help names a default that is no literal value (random, by strictness, a timestamped folder). */
  defaultDoc?: string;
}

export interface OptionGroup {
  title?: string;
  /** The column header of `key` (default "YAML key"). */
  keyTitle?: string;
  options: readonly Option[];
  /** Text printed after the group's rows. */
  note?: string;
}

export interface CommandSpec {
  name: string;
  /** What follows `wfmck <name> ` in the usage lines, one per form. */
  usage: readonly string[];
  /** Paragraphs between the usage lines and the options. */
  about: string;
  groups: readonly OptionGroup[];
  /** Whether arguments that are no option are taken (files, folders, METHOD URL). */
  positionals?: boolean;
  /** Text after the options. */
  after?: string;
}

export const HELP_OPTION: Option = { flag: 'help', doc: 'print this help and exit (the same as wfmck help <command>)' };

export type Raw = string | true | string[];

export interface ParsedArgv {
  help: boolean;
  /** Raw values by canonical flag. */
  flags: Map<string, Raw>;
  /** The spelling each flag was given as, for error messages (an alias stays an alias). */
  spelling: Map<string, string>;
  positionals: string[];
}

export function optionsOf(spec: CommandSpec): Option[] {
  return spec.groups.flatMap((g) => g.options);
}

/** Splits argv by the options given: `--flag value`, `--flag=value`, switches, `--` before positionals. */
export function parseArgv(argv: readonly string[], options: readonly Option[], allowPositionals: boolean): ParsedArgv {
  const end = argv.indexOf('--');
  const parsed: ParsedArgv = {
    help: (end === -1 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h'),
    flags: new Map(),
    spelling: new Map(),
    positionals: [],
  };
  if (parsed.help) return parsed;
  const byName = new Map<string, Option>();
  for (const o of options) for (const name of [o.flag, ...(o.aliases ?? [])]) if (name) byName.set(name, o);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      parsed.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      if (!allowPositionals) throw new UsageError(`${arg}: unexpected argument (this command takes options only)`);
      parsed.positionals.push(arg);
      continue;
    }
    const at = arg.indexOf('=');
    const given = at === -1 ? arg : arg.slice(0, at);
    const option = given.startsWith('--') ? byName.get(given.slice(2)) : undefined;
    if (!option?.flag) throw new UsageError(`${given}: unknown option${didYouMean(given.replace(/^--?/, ''), flagNames(options), dashed)}`);
    let value: string | true;
    if (option.value === undefined) {
      if (at !== -1) throw new UsageError(`${given}: takes no value`);
      value = true;
    } else if (at !== -1) {
      value = arg.slice(at + 1);
    } else {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('--') && next.length > 2))
        throw new UsageError(`${given}: needs a value (${given} ${option.value})`);
      value = next;
      i += 1;
    }
    const previous = parsed.flags.get(option.flag);
    parsed.flags.set(option.flag, option.multiple ? [...((previous as string[] | undefined) ?? []), value as string] : value);
    parsed.spelling.set(option.flag, given);
  }
  return parsed;
}

const dashed = (flag: string) => `--${flag}`;

/** The documented flags a command takes (aliases are never offered), --help among them. */
function flagNames(options: readonly Option[]): string[] {
  return [...options.flatMap((o) => (o.flag ? [o.flag] : [])), 'help'];
}

export interface CommandArgs {
  help: boolean;
  /** Checked values by canonical flag (an option's env variable fills in for its flag). */
  values: Record<string, unknown>;
  /** How each flag given was spelled (an alias stays an alias in what the command says of it). */
  spelling: Map<string, string>;
  positionals: string[];
}

/** A command's argv checked against its options: each value through its option's check, relative to `cwd`. */
export function parseCommand(
  spec: CommandSpec,
  argv: readonly string[],
  env: Record<string, string | undefined> = process.env,
  cwd = process.cwd(),
): CommandArgs {
  const options = optionsOf(spec);
  const parsed = parseArgv(argv, options, spec.positionals === true);
  const values: Record<string, unknown> = {};
  if (parsed.help) return { help: true, values, spelling: parsed.spelling, positionals: [] };
  for (const o of options) {
    if (!o.flag) continue;
    const flag = parsed.flags.get(o.flag);
    const fromEnv = flag === undefined && o.env !== undefined && env[o.env] ? env[o.env] : undefined;
    const raw = flag ?? fromEnv;
    if (raw === undefined) continue;
    const label = flag === undefined ? o.env! : parsed.spelling.get(o.flag)!;
    values[o.flag] = o.parse ? parseChecked(o.parse, raw, cwd, label, o.multiple === true) : raw;
  }
  return { help: false, values, spelling: parsed.spelling, positionals: parsed.positionals };
}

/** One option's check, each value of a repeated one on its own; a failure is the usage error `label: what`. */
export function parseChecked(parse: Parse, raw: unknown, base: string, label: string, each: boolean): unknown {
  try {
    return each && Array.isArray(raw) ? raw.map((r) => checked(parse, r, base, label)) : checked(parse, raw, base, label);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

const WIDTH = 118;

/** The command's --help, from its options: usage, about, a row per option with its flag (and env and YAML key). */
export function helpText(spec: CommandSpec): string {
  const usage = spec.usage.map((u, i) => `${i === 0 ? 'usage:' : '      '} wfmck ${spec.name}${u ? ` ${u}` : ''}`);
  const groups = [...spec.groups, { options: [HELP_OPTION] }].map(groupText);
  return [usage.join('\n'), spec.about.trim(), ...groups, ...(spec.after ? [spec.after.trim()] : [])].join('\n\n') + '\n';
}

function groupText(group: OptionGroup): string {
  const lines = group.title ? [`${group.title}:`] : [];
  const documented = group.options.filter((o) => o.flag !== undefined || o.env !== undefined || o.key !== undefined);
  const flagWidth = Math.min(28, Math.max(...documented.map((o) => flagCell(o).length)) + 2);
  const hasEnv = documented.some((o) => o.env);
  const hasKey = documented.some((o) => o.key);
  if (!hasEnv && !hasKey) {
    for (const o of documented) {
      const cell = flagCell(o);
      const doc = wrap(docOf(o), WIDTH - 2 - flagWidth);
      if (cell.length >= flagWidth) lines.push(`  ${cell}`, ...doc.map((d) => `  ${' '.repeat(flagWidth)}${d}`));
      else lines.push(...doc.map((d, i) => `  ${(i === 0 ? cell : '').padEnd(flagWidth)}${d}`));
    }
  } else {
    const envWidth = hasEnv ? Math.max(...documented.map((o) => (o.env ?? '').length)) + 2 : 0;
    const row = (flag: string, env: string, key: string) =>
      `  ${flag.padEnd(flagWidth)}${hasEnv ? env.padEnd(envWidth) : ''}${hasKey ? key : ''}`.trimEnd();
    lines.push(row('flag', 'env', group.keyTitle ?? 'YAML key'));
    for (const o of documented)
      lines.push(row(flagCell(o), o.env ?? '-', o.keyShown ?? o.key ?? '-'), ...wrap(docOf(o), WIDTH - 6).map((d) => `      ${d}`));
  }
  if (group.note) lines.push(group.note.trimEnd());
  return lines.join('\n');
}

/** An option's help line: its doc, then its default as the entry declares it. */
export function docOf(o: Option): string {
  const shown = o.defaultDoc ?? (o.default === undefined ? undefined : defaultText(o.default));
  return shown === undefined ? o.doc : `${o.doc} (default ${shown})`;
}

function defaultText(value: unknown): string {
  if (Array.isArray(value)) return value.length ? value.join(',') : 'none';
  if (typeof value === 'object' && value !== null) return Object.keys(value).length ? JSON.stringify(value) : 'none';
  return String(value);
}

function flagCell(o: Option): string {
  if (!o.flag) return '-';
  const names = o.flag === 'help' ? '-h, --help' : `--${o.flag}`;
  return `${names}${o.value ? ` ${o.value}` : ''}${o.multiple ? ' ...' : ''}`;
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  return line ? [...lines, line] : [''];
}
