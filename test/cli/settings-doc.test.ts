// docs/reference.md's option tables are the settings' own entries (run/options/settings-doc.ts): a setting added,
// renamed or given another default without regenerating them fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DOC_FILE, settingsTables, withSettingsTables } from '../../run/options/settings-doc.ts';
import { FIELDS } from '../../run/options/config.ts';

test('docs/reference.md: the run and fleet settings tables are generated from the registry (node --import ./bin/typescript.mjs run/options/settings-doc.ts)', () => {
  const doc = readFileSync(DOC_FILE, 'utf8');
  assert.equal(
    doc,
    withSettingsTables(doc),
    'docs/reference.md settings tables are stale: run node --import ./bin/typescript.mjs run/options/settings-doc.ts',
  );
});

test('the run table has one row per setting, the fleet table shows --misbehaviour and its file key with their old spellings', () => {
  const { run, fleet } = settingsTables();
  for (const f of FIELDS) assert.ok(run.includes(`\`${f.key}\``), f.key);
  assert.match(fleet, /`--misbehaviour LIST` \(was `--faults`\) \| `misbehaviour` \|.*the file key faults, its old spelling/);
  assert.match(fleet, /`--devices N` \| `devices` \| plain devices \(default 10\) \|/);
});
