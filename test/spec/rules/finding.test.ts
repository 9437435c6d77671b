import { test } from 'node:test';
import assert from 'node:assert/strict';
import { finding } from '../../../spec/rules/finding.ts';

test('finding carries rule and message, and a path only when one is given', () => {
  assert.deepEqual(finding('custom-needs-labels', '§2.1.1: x'), { rule: 'custom-needs-labels', message: '§2.1.1: x' });
  assert.equal('path' in finding('r', 'm'), false);
  assert.deepEqual(finding('r', 'm', '/properties/id'), { rule: 'r', message: 'm', path: '/properties/id' });
});
