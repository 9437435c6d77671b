// `wfmck serve` under abuse, with its RSS sampled: 20 concurrent 70 MB chunked pushes and 500 abandoned upload
// sessions holding data. The registry's quota (128 MiB: blobs, open sessions and bodies in flight together) bounds
// what it holds; the ceiling below is that quota plus what the process needs at rest, stated in docs/reference.md (Commands).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Agent, fetch } from 'undici';

const bin = fileURLToPath(new URL('../../bin/wfmck.mjs', import.meta.url));
const MIB = 1024 * 1024;
/** docs/reference.md's stated ceiling for `wfmck serve` under this abuse. */
const RSS_CEILING_MB = 640;

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

test(
  'wfmck serve: 20 concurrent 70 MB pushes and 500 abandoned sessions stay under the RSS ceiling, and past the quota pushes get 507',
  { timeout: 300_000 },
  async () => {
    const serve = spawn(process.execPath, [bin, 'serve'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const agent = new Agent({ connections: 64 });
    try {
      const [line] = (await once(createInterface({ input: serve.stdout }), 'line')) as [string];
      const served = JSON.parse(line) as { registry: string; caFile: string };
      const dispatcher = new Agent({ connect: { ca: readFileSync(served.caFile, 'utf8') }, connections: 64 });
      let peak = rssMb(serve.pid!);
      const atRest = peak;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(serve.pid!))), 50);
      const open = async () => {
        const res = await fetch(`${served.registry}/v2/abuse/app/blobs/uploads/`, { method: 'POST', dispatcher });
        await res.arrayBuffer();
        return new URL(res.headers.get('location')!, served.registry);
      };
      // A chunked body (no Content-Length) of `mib` MiB, so the registry cannot refuse it up front.
      const body = (mib: number) =>
        new ReadableStream<Uint8Array>({
          pull(c) {
            if (mib-- > 0) c.enqueue(new Uint8Array(MIB).fill(mib & 0xff));
            else c.close();
          },
        });
      const statuses = await Promise.all(
        Array.from({ length: 20 }, async () => {
          const location = await open();
          const res = await fetch(location, { method: 'PATCH', body: body(70), duplex: 'half', dispatcher }).catch((e: Error) => ({
            status: `error ${e.message}`,
            arrayBuffer: async () => undefined,
          }));
          await res.arrayBuffer();
          return res.status;
        }),
      );
      // 70 MB is past the 64 MiB blob limit (413) or the quota runs out first (507); nothing is taken whole.
      assert.ok(
        statuses.every((s) => s === 413 || s === 507),
        `statuses: ${statuses.join(' ')}`,
      );
      assert.ok(statuses.includes(507), 'the quota refused some');
      for (let i = 0; i < 500; i++) {
        const location = await open();
        const res = await fetch(location, { method: 'PATCH', body: Buffer.alloc(512 * 1024, i & 0xff), dispatcher });
        await res.arrayBuffer();
        assert.ok(res.status === 202 || res.status === 507, `session ${i}: ${res.status}`);
      }
      clearInterval(sampler);
      peak = Math.max(peak, rssMb(serve.pid!));
      process.stdout.write(
        `# wfmck serve RSS: ${atRest.toFixed(0)} MB at rest, ${peak.toFixed(0)} MB peak (ceiling ${RSS_CEILING_MB} MB)\n`,
      );
      assert.ok(peak < RSS_CEILING_MB, `RSS peaked at ${peak.toFixed(0)} MB, over the ${RSS_CEILING_MB} MB ceiling`);
      // It still serves: a small push goes through once sessions are cancelled... the quota is full of abandoned ones,
      // so a new push is refused with a JSON 507, not a crash or a hang.
      const res = await fetch((await open()).href, { method: 'PATCH', body: Buffer.alloc(MIB), dispatcher });
      assert.ok(res.status === 202 || res.status === 507);
      assert.match(res.headers.get('content-type') ?? 'application/json', /json/);
      await res.arrayBuffer();
      await dispatcher.close();
    } finally {
      await agent.close();
      serve.kill('SIGTERM');
    }
  },
);
