// The catalog against its source: every section, response code and lifecycle row of interfaces.md is covered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import {
  ID_PATTERN,
  appliesTo,
  isMandatory,
  loadRequirements,
  parseRequirements,
  requirementById,
  type Requirement,
} from '../../spec/requirements.ts';

const interfacesMd = readFileSync(new URL('../../spec/source/interfaces.md', import.meta.url), 'utf8');
const profilesMd = readFileSync(new URL('../../spec/source/profiles.md', import.meta.url), 'utf8');

// Sections whose own text states nothing normative, so no entry can point at them.
const NO_NORMATIVE_TEXT: Record<string, string> = {
  '2': 'container heading: its content is subsections 2.1 to 2.7, it has no text of its own',
  '6': 'Events are entirely "not shown"',
};

// Known ambiguities recorded as errata; pinned so a reading cannot be dropped without this test noticing.
const MUST_CARRY_ERRATA = [
  'STATUS-PRECEDENCE', // precedence repeats removing and omits removed (P7)
  'STATUS-OBJECT', // status typed as a list, shaped as one object
  'STATUS-ERROR-EMPTY-ACCEPTED', // empty-string error vs absent error
  'CAP-PUT-400', // 400 vs 422 (P9)
  'CAP-PUT-422',
  'STATUS-POST-400',
  'STATUS-POST-422',
  'GW-NONHOSTING-ACCEPTED', // identity-only gateway document
  'PROPS-QUANTITY-UNSPACED-ACCEPTED', // quantities with or without space (P8)
  'BUNDLE-REFRESH-HINT', // spiffe_refresh_hint unit
  'CAP-DELETE-204', // DELETE of a gateway with children
  'ENUM-CUSTOM-NEEDS-LABELS', // unknown runtime vs custom needs labels
  'CAP-ONE-DEVICE-PER-REQUEST', // missing intermediate gateway
  'REG-TAGS-LAST', // tag ordering
  'DISC-ONE-TRUST-DOMAIN', // exactly one trust domain
];

const PROFILES_CHECKED = ['P2', 'P3', 'P4', 'P7', 'P8', 'P9'];

const NORMATIVE = /\b(MUST|SHOULD|MAY|SHALL|REQUIRED|RECOMMENDED|OPTIONAL)\b/g;

interface Section {
  number: string;
  title: string;
  /** The section's own text: up to its next numbered heading, including unnumbered subheadings it owns. */
  body: string;
}

/** Numbered sections of a markdown file. An unnumbered heading (#### CPU) belongs to its nearest numbered
 *  ancestor by heading level, so CPU, a sibling of 2.1.1, counts towards 2.1. */
function numberedSections(md: string): Section[] {
  const sections: Section[] = [];
  const stack: { level: number; owner: Section | undefined }[] = [];
  for (const line of md.split('\n')) {
    const h = /^(#{1,6})\s+(.*)$/.exec(line);
    if (h) {
      const level = h[1]!.length;
      while (stack.length > 0 && stack[stack.length - 1]!.level >= level) stack.pop();
      const numbered = /^(\d+(?:\.\d+)*)\.?\s+(.*)$/.exec(h[2]!);
      if (numbered && level >= 2 && level <= 4) {
        const section: Section = { number: numbered[1]!, title: numbered[2]!, body: '' };
        sections.push(section);
        stack.push({ level, owner: section });
      } else {
        stack.push({ level, owner: stack[stack.length - 1]?.owner });
      }
      continue;
    }
    const owner = stack[stack.length - 1]?.owner;
    if (owner) owner.body += `${line}\n`;
  }
  return sections;
}

function tableRows(body: string): string[][] {
  return body
    .split('\n')
    .filter((l) => l.startsWith('|') && !/^\|[\s|:-]+\|$/.test(l))
    .map((l) =>
      l
        .slice(1, -1)
        .split('|')
        .map((c) => c.trim()),
    );
}

const namesCode = (text: string, code: string): boolean => new RegExp(`\\b${code}\\b`).test(text);

const sections = numberedSections(interfacesMd);
const sectionOf = (n: string): Section => {
  const s = sections.find((x) => x.number === n);
  assert.ok(s, `interfaces.md has no section ${n}`);
  return s;
};
const entriesIn = (n: string): Requirement[] => loadRequirements().filter((r) => r.section === n);

test('the catalog loads, has more than 100 entries, with unique well-formed ids', () => {
  const all = loadRequirements();
  assert.ok(all.length > 100, `only ${all.length} entries`);
  const ids = all.map((r) => r.id);
  assert.equal(new Set(ids).size, ids.length, 'duplicate ids');
  for (const id of ids) assert.match(id, ID_PATTERN);
  for (const id of ids) assert.match(id, /^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$/);
});

test('the section heading parser finds the sections the spec has', () => {
  const numbers = sections.map((s) => s.number);
  for (const n of ['1', '2.1', '2.1.1', '2.4.1', '4.8', '6', '9']) assert.ok(numbers.includes(n), n);
  assert.match(sectionOf('2.1').body, /Cores of separate entries MUST NOT be summed/);
  assert.doesNotMatch(sectionOf('2.1.1').body, /MUST NOT be summed/);
});

test('every numbered section of interfaces.md has an entry, unless exempted for having no normative text', () => {
  const missing = sections
    .filter((s) => !(s.number in NO_NORMATIVE_TEXT) && entriesIn(s.number).length === 0)
    .map((s) => `${s.number} ${s.title}`);
  assert.deepEqual(missing, []);
});

test('exempted sections still have no normative words and no entries', () => {
  for (const [n, why] of Object.entries(NO_NORMATIVE_TEXT)) {
    const words = sectionOf(n).body.match(NORMATIVE) ?? [];
    assert.deepEqual(words, [], `section ${n} was exempted (${why}) but now says ${words.join(', ')}`);
    assert.deepEqual(
      entriesIn(n).map((r) => r.id),
      [],
      `section ${n} is exempted yet has entries`,
    );
  }
});

test('each section has at least as many entries as normative keywords in its text', () => {
  // A cheap guard for a spec edit that adds a MUST without a catalog entry.
  for (const s of sections) {
    const words = (s.body.match(/\b(MUST NOT|MUST|SHOULD NOT|SHOULD|MAY|SHALL|REQUIRED|RECOMMENDED)\b/g) ?? []).length;
    const entries = entriesIn(s.number).length;
    assert.ok(entries >= words, `section ${s.number}: ${words} normative keywords, ${entries} entries`);
  }
});

test('every entry points at a section or profile that exists', () => {
  const numbers = new Set(sections.map((s) => s.number));
  const profileIds = new Set([...profilesMd.matchAll(/^##\s+(P\d+)\./gm)].map((m) => m[1]!));
  for (const r of loadRequirements()) {
    if (r.source === 'profiles') assert.ok(profileIds.has(r.section), `${r.id}: no profile ${r.section}`);
    else assert.ok(numbers.has(r.section), `${r.id}: no section ${r.section}`);
  }
});

test('every row of the section 7 error table has an entry naming its endpoint and status', () => {
  const rows = tableRows(sectionOf('7').body).filter((c) => /^\d{3}$/.test(c[1] ?? ''));
  assert.ok(rows.length >= 13, `parsed only ${rows.length} rows`);
  const all = loadRequirements();
  for (const [endpoint, status] of rows) {
    const hit = all.find((r) => r.text.toLowerCase().includes(endpoint!.toLowerCase()) && namesCode(r.text, status!));
    assert.ok(hit, `no entry names "${endpoint} ${status}"`);
  }
});

test('every response code of the section 4 endpoints has an entry in that section naming it', () => {
  let seen = 0;
  for (const s of sections.filter((x) => x.number.startsWith('4.'))) {
    for (const line of s.body.split('\n').filter((l) => /^- Response\b/.test(l))) {
      for (const code of line.match(/\b[1-5]\d\d\b/g) ?? []) {
        seen++;
        const hit = entriesIn(s.number).find((r) => namesCode(r.text, code));
        assert.ok(hit, `section ${s.number}: no entry names response ${code}`);
      }
    }
  }
  assert.ok(seen >= 23, `parsed only ${seen} response codes`);
});

test('every lifecycle row of section 3 has an entry naming its result', () => {
  const rows = tableRows(sectionOf('3').body).filter((c) => c.length === 4 && c[0] !== 'Subject');
  assert.equal(rows.length, 4);
  for (const [subject, , , result] of rows) {
    const code = /\((\d{3})\)/.exec(result!)?.[1];
    const term = /`([^`]+)`/.exec(result!)?.[1];
    const wanted = code ?? term;
    assert.ok(wanted, `cannot read the result of the row "${subject}: ${result}"`);
    const hit = entriesIn('3').find((r) => (code ? namesCode(r.text, code) : r.text.includes(wanted)));
    assert.ok(hit, `no section 3 entry names "${wanted}"`);
  }
});

test('untestable entries give a reason and errata notes are not empty', () => {
  for (const r of loadRequirements()) {
    if (r.observer === 'untestable') assert.ok(r.reason && r.reason.trim().length > 20, `${r.id}: reason`);
    if (r.errata !== undefined) assert.ok(r.errata.trim().length > 20, `${r.id}: errata`);
  }
});

test('unseen: only client duties, each with a reason, none named by a device suite test (a test would contradict it)', () => {
  const suites = readdirSync(new URL('../../suites/device/', import.meta.url))
    .map((f) => readFileSync(new URL(`../../suites/device/${f}`, import.meta.url), 'utf8'))
    .join('\n');
  const unseen = loadRequirements().filter((r) => r.unseen !== undefined);
  assert.ok(unseen.length > 0, "the catalog names the device persona's blind spots");
  for (const r of unseen) {
    assert.equal(r.observer, 'client', r.id);
    assert.ok(r.unseen!.trim().length > 40, `${r.id}: unseen says why`);
    assert.doesNotMatch(suites, new RegExp(`['\` ]${r.id}['\`:, ]`), `${r.id} is unseen yet a device test names it`);
  }
  assert.throws(
    () => parseRequirements('- {id: X-ONE, section: "1", level: MUST, text: t, observer: wfm, unseen: "inside the device"}'),
    /unseen and unseenIn are only for observer client/,
  );
});

test('unseenIn: client duties blind in some editions only, each with a reason; a device test names them (it judges the other editions)', () => {
  const suites = readdirSync(new URL('../../suites/device/', import.meta.url))
    .map((f) => readFileSync(new URL(`../../suites/device/${f}`, import.meta.url), 'utf8'))
    .join('\n');
  const partial = loadRequirements().filter((r) => r.unseenIn !== undefined);
  assert.ok(partial.length > 0);
  for (const r of partial) {
    assert.equal(r.observer, 'client', r.id);
    assert.ok(Object.keys(r.unseenIn!).length < r.editions.length, `${r.id}: blind in every edition it applies to is unseen, not unseenIn`);
    for (const why of Object.values(r.unseenIn!)) assert.ok(why!.trim().length > 40, `${r.id}: unseenIn says why`);
    assert.match(suites, new RegExp(`['\` ]${r.id}['\`:, ]`), `${r.id} is judged in some edition, so a device test names it`);
  }
  assert.throws(
    () => parseRequirements('- {id: X-ONE, section: "1", level: MUST, text: t, observer: client, unseenIn: {gold: "no"}}'),
    /unseenIn maps editions/,
  );
  assert.throws(
    () => parseRequirements('- {id: X-ONE, section: "1", level: MUST, text: t, observer: client, unseen: a, unseenIn: {seed: b}}'),
    /exclude each other/,
  );
});

test('the known ambiguities carry errata', () => {
  for (const id of MUST_CARRY_ERRATA) assert.ok(requirementById(id).errata, `${id} has no errata`);
});

test('the profile readings the kit checks have entries marked source profiles', () => {
  for (const p of PROFILES_CHECKED) {
    const entries = loadRequirements().filter((r) => r.section === p);
    assert.ok(entries.length > 0, `no entry for ${p}`);
    for (const r of entries) assert.equal(r.source, 'profiles', r.id);
  }
});

test('requirementById finds an entry and throws on an unknown id', () => {
  assert.equal(requirementById('CAP-PUT-201').section, '4.1');
  assert.throws(() => requirementById('CAP-PUT-299'), /unknown requirement id CAP-PUT-299/);
});

test('loadRequirements is cached but hands out a fresh array', () => {
  const a = loadRequirements();
  const b = loadRequirements();
  assert.notEqual(a, b);
  assert.equal(a[0], b[0]);
  a.reverse();
  assert.equal(loadRequirements()[0], b[0]);
  assert.throws(() => Object.assign(b[0]!, { level: 'MAY' }), TypeError);
});

test('isMandatory holds for MUST and MUST NOT only', () => {
  assert.deepEqual((['MUST', 'MUST NOT', 'SHOULD', 'SHOULD NOT', 'MAY'] as const).map(isMandatory), [true, true, false, false, false]);
});

test('the validator reports every problem of a bad catalog at once', () => {
  const bad = `
- id: CAP-PUT-201
  section: "4.1"
  level: MUST
  text: "ok"
  observer: wfm
- id: CAP-PUT-201
  section: "4.1"
  level: MUST
  text: "duplicate"
  observer: wfm
- id: bad_id
  section: "4.1"
  level: OUGHT
  text: "bad level"
  observer: someone
  colour: red
- id: X-UNSEEN
  section: "4.1"
  level: MUST
  text: "no reason"
  observer: untestable
- id: X-MISSING
  section: P4
  level: MAY
- id: X-REASONED
  section: "4.1"
  level: MAY
  text: "reason on a testable rule"
  observer: wfm
  reason: "should not be here"
  errata: ""
`;
  const err = (() => {
    try {
      parseRequirements(bad, 'bad.yaml');
    } catch (e) {
      return e as Error;
    }
    assert.fail('a bad catalog was accepted');
  })();
  for (const expected of [
    /entry 2 \(CAP-PUT-201\): duplicate id/,
    /entry 3 \(bad_id\): unknown key colour/,
    /entry 3 \(bad_id\): id must be UPPER-KEBAB/,
    /entry 3 \(bad_id\): level must be one of/,
    /entry 3 \(bad_id\): observer must be one of/,
    /entry 4 \(X-UNSEEN\): observer untestable needs a reason/,
    /entry 5 \(X-MISSING\): missing text/,
    /entry 5 \(X-MISSING\): missing observer/,
    /entry 5 \(X-MISSING\): section P4 does not fit source interfaces/,
    /entry 6 \(X-REASONED\): reason is only for observer untestable/,
    /entry 6 \(X-REASONED\): errata must be a non-empty string/,
  ]) {
    assert.match(err.message, expected);
  }
  assert.throws(() => parseRequirements('id: X-Y', 'map.yaml'), /top level must be a list/);
  assert.throws(() => parseRequirements('- id: [', 'broken.yaml'), /not valid YAML/);
});

test('P10 editions: absent means both; a list names some; a bad list is a problem', () => {
  const entry = (extra: string) => `- id: X-ED\n  section: P10\n  source: profiles\n  level: MUST\n  text: "t"\n  observer: wfm\n${extra}`;
  assert.deepEqual(parseRequirements(entry(''))[0]!.editions, ['seed', 'miaf']);
  assert.deepEqual(parseRequirements(entry('  editions: [miaf]\n'))[0]!.editions, ['miaf']);
  assert.deepEqual(parseRequirements(entry('  editions: [miaf, seed]\n'))[0]!.editions, ['seed', 'miaf'], 'kept in a fixed order');
  for (const bad of ['[]', '[rc3]', 'miaf', '[seed, seed]']) {
    assert.throws(
      () => parseRequirements(entry(`  editions: ${bad}\n`)),
      /editions must be a non-empty list of distinct values from seed, miaf/,
      bad,
    );
  }
  assert.equal(appliesTo({ editions: ['miaf'] }, 'seed'), false);
  assert.equal(appliesTo({ editions: ['seed', 'miaf'] }, 'miaf'), true);
});

test('P10 editions: each miaf-only entry is a P10 profile reading, and every P10 entry names the editions it binds', () => {
  const all = loadRequirements();
  const miafOnly = all.filter((r) => !r.editions.includes('seed'));
  assert.ok(miafOnly.length >= 20, `only ${miafOnly.length} miaf-only entries`);
  for (const r of miafOnly) assert.deepEqual([r.section, r.source], ['P10', 'profiles'], r.id);
  for (const r of all.filter((x) => x.section === 'P10')) assert.deepEqual(r.editions, ['miaf'], r.id);
  assert.ok(Object.isFrozen(all[0]!.editions));
});
