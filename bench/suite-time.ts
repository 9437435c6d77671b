// Figure 4: wall time of `wfmck run` on the embedded default, as a user starts it (a child process, its own
// embedded services, Playwright workers), from spawn to exit.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface SuiteMeasurement {
  seconds: number;
  exitCode: number | null;
  /** The `--grep` of a quick run; absent for the default suite. */
  grep?: string;
  tests: { passed: number; failed: number; skipped: number } | undefined;
  /** The run's own verdict line. */
  verdict: string;
}

const bin = fileURLToPath(new URL('../bin/wfmck.mjs', import.meta.url));

export async function measureSuite(out: string, grep?: string): Promise<SuiteMeasurement> {
  const args = [bin, 'run', '--out', out, ...(grep ? ['--grep', grep] : [])];
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d));
  child.stderr.on('data', (d: Buffer) => (output += d));
  const [exitCode] = (await once(child, 'exit')) as [number | null];
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  const verdict =
    /wfmck run: (no MUST failed.*|NOT CONFORMANT.*|kit error.*|no verdict.*)/.exec(output)?.[1] ?? `no verdict line (exit ${exitCode})`;
  return { seconds, exitCode, ...(grep ? { grep } : {}), tests: await testCounts(join(out, 'junit.xml')), verdict };
}

/** Counted from the JUnit file the run wrote (its root `<testsuites>` totals). */
async function testCounts(file: string): Promise<SuiteMeasurement['tests']> {
  const xml = await readFile(file, 'utf8').catch(() => undefined);
  const root = xml && /<testsuites\b[^>]*>/.exec(xml)?.[0];
  if (!root) return undefined;
  const attr = (name: string) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(root)?.[1] ?? 0);
  const tests = attr('tests');
  const failed = attr('failures') + attr('errors');
  const skipped = attr('skipped');
  return { passed: tests - failed - skipped, failed, skipped };
}
