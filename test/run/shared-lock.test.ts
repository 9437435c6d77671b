// The shared-state lock across processes (Playwright's workers are processes): writers exclusive, readers shared, a
// waiting writer not starved, no deadlock whatever order checks ask in, a dead holder's lock broken, a bounded wait.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireAll, LockTimeout } from '../../run/processes/shared-lock.ts';
import { TYPESCRIPT } from '../support/wfmck-cli.ts';

const CHILD = join(import.meta.dirname, 'shared-lock-child.ts');

function fresh(): { dir: string; log: string } {
  const dir = mkdtempSync(join(tmpdir(), 'wfmck-lock-'));
  return { dir, log: join(dir, 'events.log') };
}

function child(dir: string, spec: string, holdMs: number, log: string, name: string, times = 1, die = false) {
  const args = [...TYPESCRIPT, CHILD, dir, spec, String(holdMs), log, name, String(times), ...(die ? ['die'] : [])];
  return spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
}

const done = (p: ReturnType<typeof child>) => new Promise<number | null>((resolve) => p.on('exit', resolve));
/** Resolves once the child holds its locks for the first time. */
const holding = (p: ReturnType<typeof child>) => new Promise<void>((resolve) => p.stdout!.once('data', () => resolve()));

/** Each name's hold intervals, from the log. */
function intervals(log: string): { name: string; start: number; end: number }[] {
  const open = new Map<string, number>();
  const out: { name: string; start: number; end: number }[] = [];
  for (const line of readFileSync(log, 'utf8').trim().split('\n')) {
    const [name, what, at] = line.split(' ') as [string, string, string];
    if (what === 'start') open.set(name, Number(at));
    else out.push({ name, start: open.get(name)!, end: Number(at) });
  }
  return out;
}

function overlaps(a: { start: number; end: number }, b: { start: number; end: number }): boolean {
  return a.start < b.end && b.start < a.end;
}

function anyOverlap(list: { name: string; start: number; end: number }[]): boolean {
  return list.some((a, i) => list.some((b, j) => i < j && a.name !== b.name && overlaps(a, b)));
}

test('two processes writing one resource never hold it at once', async () => {
  const { dir, log } = fresh();
  await Promise.all([child(dir, 'write:trust-anchor', 40, log, 'A', 5), child(dir, 'write:trust-anchor', 40, log, 'B', 5)].map(done));
  const list = intervals(log);
  assert.equal(list.length, 10);
  assert.equal(anyOverlap(list), false, JSON.stringify(list));
});

test('two readers share the resource; a writer holds it alone', async () => {
  const { dir, log } = fresh();
  await Promise.all(
    [child(dir, 'read:identity-documents', 1500, log, 'R1'), child(dir, 'read:identity-documents', 1500, log, 'R2')].map(done),
  );
  const readers = intervals(log);
  assert.equal(overlaps(readers[0]!, readers[1]!), true, `readers were serialized: ${JSON.stringify(readers)}`);

  // The writer (this process) asks while the reader (a child) holds: it gets the lock only once the reader let go.
  const second = fresh();
  const reader = child(second.dir, 'read:identity-documents', 800, second.log, 'R');
  await holding(reader);
  const release = await acquireAll([{ resource: 'identity-documents', mode: 'write' }], {
    dir: second.dir,
    owner: 'W',
    timeoutMs: 5000,
    pollMs: 5,
  });
  const acquiredAt = Date.now();
  release();
  await done(reader);
  assert.ok(acquiredAt >= intervals(second.log)[0]!.end, 'the writer held the resource while the reader did');
});

test('checks asking for two resources in opposite orders never deadlock (one fixed order)', async () => {
  const { dir, log } = fresh();
  const codes = await Promise.all(
    [
      child(dir, 'write:trust-anchor,write:identity-documents', 10, log, 'A', 15),
      child(dir, 'write:identity-documents,write:trust-anchor', 10, log, 'B', 15),
      child(dir, 'read:trust-anchor,read:identity-documents', 10, log, 'C', 15),
    ].map(done),
  );
  assert.deepEqual(codes, [0, 0, 0]);
  const writers = intervals(log).filter((i) => i.name !== 'C');
  assert.equal(writers.length, 30);
  assert.equal(anyOverlap(intervals(log)), false);
});

test('a lock whose holder died (a killed worker) is broken: the next check gets it', async () => {
  const { dir, log } = fresh();
  const holder = child(dir, 'write:trust-anchor', 0, log, 'dying', 1, true);
  await holding(holder);
  // Alive: the wait is bounded, and the timeout names the lock and who holds it.
  await assert.rejects(
    acquireAll([{ resource: 'trust-anchor', mode: 'read' }], { dir, owner: 'me', timeoutMs: 300, pollMs: 10 }),
    (e: unknown) => e instanceof LockTimeout && /"trust-anchor" \(read\).*writer pid \d+ "dying"/.test(e.message),
  );
  holder.kill('SIGKILL');
  await done(holder);
  const release = await acquireAll([{ resource: 'trust-anchor', mode: 'write' }], { dir, owner: 'me', timeoutMs: 2000, pollMs: 10 });
  release();
});

test('a mutex left by a dead process is broken; a live one is waited for', async () => {
  const { dir } = fresh();
  const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
  writeFileSync(join(dir, 'identity-documents.mutex'), dead);
  const release = await acquireAll([{ resource: 'identity-documents', mode: 'write' }], { dir, owner: 'me', timeoutMs: 2000 });
  release();
  assert.equal(existsSync(join(dir, 'identity-documents.mutex')), false);

  writeFileSync(join(dir, 'identity-documents.mutex'), String(process.pid));
  await assert.rejects(acquireAll([{ resource: 'identity-documents', mode: 'read' }], { dir, owner: 'me', timeoutMs: 200 }), LockTimeout);
});

test('a waiting writer bars new readers, so a stream of readers cannot starve it', async () => {
  const { dir } = fresh();
  const first = await acquireAll([{ resource: 'identity-documents', mode: 'read' }], { dir, owner: 'r1', timeoutMs: 1000 });
  const writer = acquireAll([{ resource: 'identity-documents', mode: 'write' }], { dir, owner: 'w', timeoutMs: 2000, pollMs: 5 });
  await new Promise((r) => setTimeout(r, 50));
  await assert.rejects(
    acquireAll([{ resource: 'identity-documents', mode: 'read' }], { dir, owner: 'r2', timeoutMs: 150 }),
    /waiting writer/,
  );
  first();
  (await writer)();
});
