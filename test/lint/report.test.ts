// The lint report: P9 strictness decides which findings fail; human lines are `LEVEL  ID  message` grouped by file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fails, toLintFinding, type LintFinding } from '../../spec/lint/findings.ts';
import { exitCodeOf, lintReport } from '../../spec/lint/report.ts';
import { humanReport } from '../../reports/lint-text.ts';
import type { Strictness } from '../../spec/profile.ts';

const f = (rule: string, file?: string): LintFinding => toLintFinding({ rule, message: `msg ${rule}`, ...(file ? { file } : {}) });
const STRICTNESS: Strictness[] = ['strict', 'default', 'lenient'];

test('P9: which findings fail at strict, default and lenient', () => {
  const rows: [string, boolean[]][] = [
    ['no-dotdot', [true, true, true]], // MUST NOT, no known ambiguity
    ['no-setuid-setgid-sticky', [true, true, false]], // kit reading
    ['runtime-value-known', [true, false, false]], // ambiguous in the catalog
    ['defaulted-custom-needs-labels', [false, false, false]], // errata: never judged
    ['label-domain-prefix', [true, false, false]], // SHOULD
  ];
  for (const [rule, expected] of rows)
    assert.deepEqual(
      STRICTNESS.map((s) => fails(f(rule), s)),
      expected,
      rule,
    );
});

test('human output: one line per finding grouped by file, notes, then a summary with the verdict', () => {
  const result = {
    kind: 'compose-archive' as const,
    findings: [
      { rule: 'no-dotdot', message: 'dots', path: 'a/../b', file: 'x.tgz' },
      { rule: 'compose-spec-conformance', message: 'bad key', file: 'x.tgz: a/compose.yaml' },
      { rule: 'no-setuid-setgid-sticky', message: 'bits', file: 'x.tgz' },
    ],
    notes: ['read in memory'],
  };
  const text = humanReport(lintReport('x.tgz', result, 'lenient'));
  assert.equal(
    text,
    [
      'x.tgz',
      '  MUST NOT  COMPOSE-NO-DOTDOT  dots (a/../b)',
      '  MUST NOT  COMPOSE-NO-SETUID  bits [kit reading: warns in lenient]',
      'x.tgz: a/compose.yaml',
      '  MUST      COMPOSE-SPEC-CONFORMANT  bad key',
      'note: read in memory',
      'x.tgz (compose archive): 3 MUST, 0 SHOULD, 0 MAY: FAIL (2 failing at strictness lenient)',
      '',
    ].join('\n'),
  );
});

test('JSON report: summary counts by level, and the exit code follows the failing count', () => {
  const report = lintReport(
    'c.json',
    { kind: 'capabilities', findings: [{ rule: 'label-domain-prefix', message: 'm' }], notes: [] },
    'default',
  );
  assert.deepEqual(report.summary, { must: 0, should: 1, may: 0, failing: 0 });
  assert.equal(exitCodeOf(report), 0);
  assert.equal(
    exitCodeOf(
      lintReport('c.json', { kind: 'capabilities', findings: [{ rule: 'label-domain-prefix', message: 'm' }], notes: [] }, 'strict'),
    ),
    1,
  );
  assert.deepEqual(Object.keys(report), ['input', 'kind', 'strictness', 'findings', 'notes', 'summary']);
});
