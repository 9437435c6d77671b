// Spec order of sections and their headings, read from the source documents themselves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareSections, parseSectionTitles } from '../../reports/sections.ts';
import { specSectionTitles } from '../../reports/requirement-reporter.ts';
import { loadRequirements } from '../../spec/requirements.ts';

test('compareSections: numeric, deeper after its parent, profiles last', () => {
  const shuffled = ['P10', '4.1', '2.1.1', 'P2', '10', '2', '9', '2.10', '2.2', '1', '2.1'];
  assert.deepEqual([...shuffled].sort(compareSections), ['1', '2', '2.1', '2.1.1', '2.2', '2.10', '4.1', '9', '10', 'P2', 'P10']);
});

test('parseSectionTitles reads numbered headings of both documents', () => {
  const t = parseSectionTitles(
    '# Title\n## 1. What the service does\n### 2.1 DeviceCapabilities (body)\n#### CPU\n## P4. Desired state: how\n',
  );
  assert.deepEqual(
    [...t],
    [
      ['1', 'What the service does'],
      ['2.1', 'DeviceCapabilities (body)'],
      ['P4', 'Desired state: how'],
    ],
  );
});

test('every section the catalog names has a heading in the source documents', () => {
  const titles = specSectionTitles();
  const missing = [...new Set(loadRequirements().map((r) => r.section))].filter((s) => !titles.has(s));
  assert.deepEqual(missing, []);
});
