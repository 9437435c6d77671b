// "Did you mean": one edit-distance helper for flags, commands and YAML keys; it offers a name only when it is close.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closest, didYouMean, didYouMeanKey, editDistance } from '../../run/options/suggest.ts';
import { FIELDS } from '../../run/options/config.ts';

test('editDistance: insertions, deletions, substitutions, and a swap of neighbours as one edit', () => {
  assert.equal(editDistance('wfm', 'wfm'), 0);
  assert.equal(editDistance('wfn', 'wfm'), 1);
  assert.equal(editDistance('rnu', 'run'), 1, 'a swap (Damerau)');
  assert.equal(editDistance('target', 'targets'), 1);
  assert.equal(editDistance('', 'abc'), 3);
  assert.equal(editDistance('kitten', 'sitting'), 3);
});

test('closest: only within max(2, a third of the length), never a name that shares nothing with what was typed', () => {
  assert.equal(closest('wfn', ['wfm', 'identity', 'registry']), 'wfm');
  assert.equal(closest('WFM', ['wfm']), 'wfm', 'case aside');
  assert.equal(closest('frobnicate', ['run', 'serve', 'faults', 'fleet']), undefined);
  assert.equal(closest('xy', ['ab', 'run']), undefined, 'two edits of a two-letter word is a different word');
  assert.equal(closest('assignDeploy', ['assignDeployment', 'retireClient']), 'assignDeployment');
  assert.equal(
    didYouMean('wfn', ['wfm'], (n) => `--${n}`),
    '; did you mean --wfm?',
  );
  assert.equal(didYouMean('zzz', ['wfm']), '');
});

test('didYouMeanKey: the sibling key, else a known key that ends like it (a key at the wrong level)', () => {
  const keys = FIELDS.map((f) => f.key);
  assert.equal(didYouMeanKey('target', keys), '; did you mean "targets"?');
  assert.equal(didYouMeanKey('targets.wfmm', keys), '; did you mean "targets.wfm"?');
  assert.equal(didYouMeanKey('profile.vender', keys), '; did you mean "profile.vendor"?');
  assert.equal(didYouMeanKey('wfm', keys), '; did you mean "targets.wfm"?');
  assert.equal(didYouMeanKey('colour', keys), '');
});
