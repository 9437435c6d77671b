// docs/reference.md's option tables, written from the settings themselves (run/options/run-settings.ts and
// fleet-settings.ts) between marker comments; test/cli/settings-doc.test.ts fails when the doc is stale.
// Regenerate: node --import ./bin/typescript.mjs run/options/settings-doc.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { docOf, type Option } from './options.ts';
import { CONFIG_OPTION, FIELDS, LAST_FAILED_OPTION, LIST_OPTION } from './config.ts';
import { FLEET_GROUPS } from './fleet-settings.ts';

export const DOC_FILE = fileURLToPath(new URL('../../docs/reference.md', import.meta.url));

const cell = (text: string) => text.replace(/\|/g, '\\|');
const code = (text: string | undefined) => (text ? `\`${text}\`` : '');
const flagOf = (o: Option) => (o.flag ? `--${o.flag}${o.value ? ` ${o.value}` : ''}` : undefined);

/** One table per command: `wfmck run` (flag, env, YAML key) and `wfmck fleet` (flag, --fleet-file key). */
export function settingsTables(): Record<'run' | 'fleet', string> {
  const run = [CONFIG_OPTION, ...FIELDS, LIST_OPTION, LAST_FAILED_OPTION].map(
    (o) => `| ${code(flagOf(o))} | ${code(o.env)} | ${code(o.key)} | ${cell(docOf(o))} |`,
  );
  const fleet = FLEET_GROUPS.flatMap((g) => g.options).map(
    (o) =>
      `| ${code(flagOf(o))}${o.aliases?.length ? ` (was ${o.aliases.map((a) => `\`--${a}\``).join(', ')})` : ''} | ${code(o.keyShown ?? o.key)} | ${cell(docOf(o))} |`,
  );
  return {
    run: ['| flag | env | YAML key | what it sets |', '|---|---|---|---|', ...run].join('\n'),
    fleet: ['| flag | --fleet-file key | what it sets |', '|---|---|---|', ...fleet].join('\n'),
  };
}

/** `text` with each table between `<!-- settings:NAME -->` and `<!-- /settings:NAME -->` replaced by the generated one. */
export function withSettingsTables(text: string): string {
  let out = text;
  for (const [name, table] of Object.entries(settingsTables())) {
    const re = new RegExp(`(<!-- settings:${name} -->\\n)[\\s\\S]*?(<!-- /settings:${name} -->)`);
    if (!re.test(out)) throw new Error(`${DOC_FILE}: no <!-- settings:${name} --> ... <!-- /settings:${name} --> block`);
    out = out.replace(re, (_m, open: string, close: string) => `${open}${table}\n${close}`);
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(DOC_FILE, withSettingsTables(readFileSync(DOC_FILE, 'utf8')));
  process.stdout.write(`wrote the settings tables of ${DOC_FILE}\n`);
}
