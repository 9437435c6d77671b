// The one rule -> requirement table is complete: every rule spec/rules and spec/lint can emit maps to a catalog ID.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { requirementById } from '../../spec/requirements.ts';
import { RULE_REQUIREMENTS, requirementOfRule } from '../../spec/lint/rule-requirements.ts';

const dir = (d: string) => new URL(`../../spec/${d}/`, import.meta.url);
const sources = (d: string) =>
  readdirSync(dir(d))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ file: `spec/${d}/${f}`, text: readFileSync(new URL(f, dir(d)), 'utf8') }));
/** Template rule names (`${field}-quantity`) take each field they are built from. */
const FIELDS = ['memory', 'storage'];
const expand = (name: string) => (name.includes('${') ? FIELDS.map((f) => name.replace(/\$\{[^}]+\}/g, f)) : [name]);

/** Rule names the pure rules emit: finding('x'), finding(`x-${field}`), { rule: 'x' }, setFindings('x'). */
function emittedBySpecRules(): Map<string, string> {
  const out = new Map<string, string>();
  const patterns = [
    /finding\(\s*'([a-z0-9-]+)'/g,
    /finding\(\s*`([a-z0-9${}-]+)`/g,
    /\brule: '([a-z0-9-]+)'/g,
    /setFindings\(\s*'([a-z0-9-]+)'/g,
  ];
  for (const { file, text } of sources('rules')) {
    for (const p of patterns) for (const m of text.matchAll(p)) for (const name of expand(m[1]!)) out.set(name, file);
  }
  return out;
}

/** Kebab-case words in spec/lint that are not rule names: input kinds, readings, document kinds, variants. */
const NOT_RULES = new Set([
  'package-folder',
  'compose-archive',
  'compose-component',
  'not-judged',
  'identity-only',
  'status-report',
  'status.error',
]);

function literalsOfSpecLint(): Map<string, string> {
  const out = new Map<string, string>();
  for (const { file, text } of sources('lint')) {
    if (file.endsWith('rule-requirements.ts')) continue;
    for (const m of text.matchAll(/'([a-z][a-z0-9]*(?:-[a-z0-9]+)+)'/g)) if (!NOT_RULES.has(m[1]!)) out.set(m[1]!, file);
  }
  return out;
}

test('every requirement (and variant) in the table is a catalog entry', () => {
  for (const [rule, entry] of Object.entries(RULE_REQUIREMENTS)) {
    for (const id of [entry.requirement, ...Object.values(entry.variants ?? {})])
      assert.doesNotThrow(() => requirementById(id), `${rule} -> ${id}`);
  }
});

test('every rule name spec/rules can emit maps to a catalog requirement', () => {
  const emitted = emittedBySpecRules();
  assert.ok(emitted.size >= 60, `found only ${emitted.size} rule names; has the finding() call shape changed?`);
  for (const [rule, file] of emitted)
    assert.ok(rule in RULE_REQUIREMENTS, `${file} emits ${rule}, which spec/lint/rule-requirements.ts does not map`);
});

test('every kebab-case rule name written in spec/lint maps to a catalog requirement', () => {
  for (const [rule, file] of literalsOfSpecLint())
    assert.ok(rule in RULE_REQUIREMENTS, `${file} writes ${rule}, which spec/lint/rule-requirements.ts does not map`);
});

test('the table has no rule nobody emits', () => {
  const known = new Set([...emittedBySpecRules().keys(), ...literalsOfSpecLint().keys()]);
  for (const rule of Object.keys(RULE_REQUIREMENTS)) assert.ok(known.has(rule), `${rule} is in the table but no rule emits it`);
});

test('a variant picks its own requirement; an unknown rule is a kit error, never a silent pass', () => {
  assert.equal(requirementOfRule('link-out-of-top').requirement, 'COMPOSE-NO-SYMLINK-OUT');
  assert.equal(requirementOfRule('link-out-of-top', 'link').requirement, 'COMPOSE-NO-HARDLINK-OUT');
  assert.equal(requirementOfRule('link-out-of-top', 'no-such-variant').requirement, 'COMPOSE-NO-SYMLINK-OUT');
  assert.deepEqual(requirementOfRule('runtime-value-known'), { requirement: 'ENUM-RUNTIME-VALUES', reading: 'ambiguous' });
  assert.throws(() => requirementOfRule('no-such-rule'), /no catalog requirement/);
});
