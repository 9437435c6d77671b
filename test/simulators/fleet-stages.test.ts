// Ramping stages: the grammar, the linear ramp within a stage, a shard's share, and the end of the ramp.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseStages, startsAllowed } from '../../simulators/fleet/stages.ts';

test('stages parse from the flag and from a fleet file; targets never go down', () => {
  assert.deepEqual(parseStages('30s:100,2m:1000'), [
    { seconds: 30, target: 100 },
    { seconds: 120, target: 1000 },
  ]);
  assert.deepEqual(parseStages([{ duration: '500ms', target: 5 }, '1h:9']), [
    { seconds: 0.5, target: 5 },
    { seconds: 3600, target: 9 },
  ]);
  assert.throws(() => parseStages('30s:100,1m:50'), /goes down from 100/);
  for (const bad of ['30:100', '30s', 's:1', '30s:x', '30d:1']) assert.throws(() => parseStages(bad), /is not a stage/, bad);
});

test('within a stage the ramp is linear from the previous target; a shard starts its share; after the last stage, all', () => {
  const stages = parseStages('10s:100,10s:300');
  assert.equal(startsAllowed(stages, 0), 0);
  assert.equal(startsAllowed(stages, 5_000), 50);
  assert.equal(startsAllowed(stages, 10_000), 100);
  assert.equal(startsAllowed(stages, 15_000), 200);
  assert.equal(startsAllowed(stages, 15_000, 0.5), 100);
  assert.equal(startsAllowed(stages, 20_000), Infinity);
  assert.equal(startsAllowed([], 0), Infinity);
});
