// `wfmck fleet --heap-growth`: the V8 flag it sets at run time takes effect (a flag read only at start-up, like
// --max-old-space-size, would not). A child keeps ~60 MB live and churns garbage; its heap's peak is compared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { heapGrowthPercent } from '../../simulators/fleet/heap-growth.ts';
import { TYPESCRIPT } from '../support/wfmck-cli.ts';

const run = promisify(execFile);
const module = fileURLToPath(new URL('../../simulators/fleet/heap-growth.ts', import.meta.url));

const CHILD = `
const { boundHeapGrowth } = await import(${JSON.stringify(module)});
boundHeapGrowth(Number(process.argv[1]));
const live = Array.from({ length: 60 }, () => Array.from({ length: 25_000 }, (_, i) => ({ i, s: 'x' + i })).slice(0, 12_500));
let peak = 0;
let sink = [];
for (let round = 0; round < 400; round++) {
  sink = Array.from({ length: 20_000 }, (_, i) => ({ round, i, t: 'garbage ' + i }));
  peak = Math.max(peak, process.memoryUsage().heapTotal);
}
process.stdout.write(JSON.stringify({ peak, live: live.length, sink: sink.length }));
`;

async function peakHeap(percent: number): Promise<number> {
  const { stdout } = await run(process.execPath, [...TYPESCRIPT, '--input-type=module', '-e', CHILD, String(percent)], {
    maxBuffer: 1 << 20,
  });
  return (JSON.parse(stdout) as { peak: number }).peak;
}

test('a heap growth bound set at run time keeps the heap nearer what is live than V8 left alone', { timeout: 120_000 }, async () => {
  const own = await peakHeap(0);
  const bounded = await peakHeap(20);
  assert.ok(bounded < own, `peak heap with 20% growth ${bounded} B, with V8's own ${own} B`);
});

test('--heap-growth takes a whole percent from 0 to 1000', () => {
  assert.equal(heapGrowthPercent('50'), 50);
  assert.equal(heapGrowthPercent('0'), 0);
  for (const bad of ['-1', '1001', '12.5', 'half', ''])
    assert.throws(() => heapGrowthPercent(bad), /whole number of percent from 0 to 1000/, bad);
});
