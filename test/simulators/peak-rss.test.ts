// A fleet's peak RSS is its own: a process spawned by a large parent does not inherit the parent's high-water mark.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { peakRssBytes } from '../../simulators/fleet/peak-rss.ts';
import { TYPESCRIPT } from '../support/wfmck-cli.ts';

const run = promisify(execFile);
const module = fileURLToPath(new URL('../../simulators/fleet/peak-rss.ts', import.meta.url));
const MiB = 1024 * 1024;

test('peakRssBytes is at least the RSS now, and at least what the caller sampled off Linux', () => {
  assert.ok(peakRssBytes() >= process.memoryUsage.rss() - MiB);
});

test(
  "a child of a 400 MB parent reads its own peak, where ru_maxrss carries the parent's",
  { skip: process.platform !== 'linux' && 'VmHWM is Linux only' },
  async () => {
    const ballast = Buffer.alloc(400 * MiB, 1);
    try {
      const { stdout } = await run(process.execPath, [
        ...TYPESCRIPT,
        '--input-type=module',
        '-e',
        `const { peakRssBytes } = await import(${JSON.stringify(module)}); process.stdout.write(JSON.stringify({ own: peakRssBytes(), inherited: process.resourceUsage().maxRSS * 1024 }));`,
      ]);
      const { own, inherited } = JSON.parse(stdout) as { own: number; inherited: number };
      assert.ok(inherited > 400 * MiB, `ru_maxrss of the child carries the parent's ${Math.round(inherited / MiB)} MiB (Linux)`);
      assert.ok(own < 250 * MiB, `the child's own peak: ${Math.round(own / MiB)} MiB`);
    } finally {
      assert.equal(ballast[ballast.length - 1], 1);
    }
  },
);
