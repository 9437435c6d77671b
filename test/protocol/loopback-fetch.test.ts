// protocol/loopback-fetch.ts: the reference services' own requests hold to the network policy at every hop (they name
// no targets, so to loopback).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { loopbackFetch, MAX_REDIRECTS } from '../../protocol/loopback-fetch.ts';

async function server(t: { after(fn: () => void): void }) {
  let hops = 0;
  const s = createServer((req, res) => {
    if (req.url === '/away') return void res.writeHead(302, { location: 'http://refused.invalid/x' }).end();
    if (req.url === '/here') return void res.writeHead(307, { location: '/blob' }).end();
    if (req.url === '/loop') return void (hops++, res.writeHead(302, { location: '/loop' }).end());
    res.writeHead(200).end(`${req.method} ${req.url}`);
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  t.after(() => s.close());
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, hops: () => hops };
}

test('a redirect within loopback is followed; one to another host is refused before any connection', async (t) => {
  const { url } = await server(t);
  assert.equal(await (await loopbackFetch(`${url}/here`)).text(), 'GET /blob');
  const connects: string[] = [];
  const watch = (m: unknown) => void connects.push(String((m as { connectParams?: { hostname?: string } }).connectParams?.hostname));
  subscribe('undici:client:beforeConnect', watch);
  t.after(() => unsubscribe('undici:client:beforeConnect', watch));
  await assert.rejects(loopbackFetch(`${url}/away`), {
    code: 'WFMCK_E_UNNAMED_HOST',
    message:
      /redirect from .*\/away: http:\/\/refused\.invalid\/x: refused\.invalid is neither a named target nor on loopback; the kit sends traffic only to the hosts you name and to loopback$/,
  });
  await assert.rejects(loopbackFetch('http://refused.invalid/'), { code: 'WFMCK_E_UNNAMED_HOST' });
  assert.deepEqual(
    connects.filter((h) => h !== '127.0.0.1'),
    [],
  );
});

test('a POST is never redirected (its body would follow), and a loop stops after MAX_REDIRECTS', async (t) => {
  const { url, hops } = await server(t);
  assert.equal((await loopbackFetch(`${url}/here`, { method: 'POST', body: 'x' })).status, 307);
  assert.equal((await loopbackFetch(`${url}/loop`)).status, 302);
  assert.equal(hops(), MAX_REDIRECTS + 1);
});
