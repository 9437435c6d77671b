// The unit test files in the order `npm run test:unit` hands them to Node's runner, which runs two at a time: the
// longest first (each takes minutes, CPU-bound), so the two lanes end together instead of one waiting on the
// other's last long file; then every other file, sorted. The list is of durations measured in CI; a file not in it
// only runs later, and a name on it that is no test file is said on stderr.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const LONGEST_FIRST = [
  'test/real-registry/repeat-verdict.test.ts',
  'test/cli/run-cli.test.ts',
  'test/ci/action.test.ts',
  'test/cli/serve-targets.test.ts',
  'test/bench/bench-quick.test.ts',
  'test/faults/harness-cli.test.ts',
  'test/cli/outage.test.ts',
  'test/cli/client-hooks.test.ts',
  'test/cli/options.test.ts',
  'test/scale/container-image.test.ts',
];

const root = fileURLToPath(new URL('../..', import.meta.url));
const all = readdirSync(join(root, 'test'), { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith('.test.ts'))
  .map((e) => relative(root, join(e.parentPath, e.name)))
  .sort();
const first = LONGEST_FIRST.filter((f) => all.includes(f));
for (const gone of LONGEST_FIRST.filter((f) => !all.includes(f)))
  process.stderr.write(`test/support/unit-files.mjs: ${gone} is no test file now; take it off LONGEST_FIRST\n`);
process.stdout.write([...first, ...all.filter((f) => !first.includes(f))].join('\n') + '\n');
