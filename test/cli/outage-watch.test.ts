// The watcher of `wfmck run` (cli/outage-watch.ts): a named target whose probes fail a few times in a row is an
// outage, declared once, in the out folder; one failed probe between answers is not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { watchTargets, type Probe } from '../../cli/outage-watch.ts';
import { OUTAGE_FILE, type DeclaredOutage } from '../../reports/outage-declared.ts';
import { RECORDS_FILE } from '../../reports/write-report.ts';

const TIMING = { intervalMs: 20, timeoutMs: 50, failures: 3 };
const WFM = 'https://127.0.0.1:8443';
const REGISTRY = 'http://127.0.0.1:5000';

function config() {
  const out = mkdtempSync(join(tmpdir(), 'wfmck-watch-'));
  return { targets: { wfm: WFM, registry: REGISTRY }, tls: { caFiles: [] }, out } as never as Parameters<typeof watchTargets>[0];
}

/** A probe whose answer for each origin and call (1-based) comes from `script`. */
function scripted(script: (origin: string, call: number) => string | undefined): Probe {
  const calls = new Map<string, number>();
  return async (url) => {
    const n = (calls.get(url.origin) ?? 0) + 1;
    calls.set(url.origin, n);
    return script(url.origin, n);
  };
}

test('three failed probes in a row: one outage, written to the out folder, with the checks ended before it', async () => {
  const c = config();
  writeFileSync(join(c.out, OUTAGE_FILE), '{"stale": true}');
  const declared: DeclaredOutage[] = [];
  const watch = watchTargets(
    c,
    (o) => declared.push(o),
    TIMING,
    scripted((_origin, n) => {
      if (n === 3) writeFileSync(join(c.out, RECORDS_FILE), '{}\n{}\n');
      return n <= 2 ? undefined : 'connection refused';
    }),
  );
  await new Promise((r) => setTimeout(r, 400));
  watch.stop();
  assert.equal(declared.length, 1);
  const o = declared[0]!;
  assert.deepEqual([o.target, o.origin, o.origins, o.afterCheck], ['WFM', WFM, [WFM, REGISTRY], 2]);
  assert.ok(o.lastAnswerAt! < o.firstFailureAt && o.firstFailureAt <= o.declaredAt);
  assert.equal(o.probes.length, 6);
  assert.deepEqual(JSON.parse(readFileSync(join(c.out, OUTAGE_FILE), 'utf8')), o);
  assert.deepEqual(watch.outage, o);
});

test('a failed probe between answers is no outage; a stale outage file of a reused out folder is removed', async () => {
  const c = config();
  writeFileSync(join(c.out, OUTAGE_FILE), '{"stale": true}');
  const declared: DeclaredOutage[] = [];
  const watch = watchTargets(
    c,
    (o) => declared.push(o),
    TIMING,
    scripted((_o, n) => (n % 3 === 0 ? 'no connection within 3 s' : undefined)),
  );
  await new Promise((r) => setTimeout(r, 400));
  watch.stop();
  assert.deepEqual(declared, []);
  assert.throws(() => readFileSync(join(c.out, OUTAGE_FILE)));
});
