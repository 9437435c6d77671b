// Persona device, interfaces.md §2.2: a see-thru gateway client registers itself, then each device behind it under
// a hierarchical id, one PUT per device. Judged only when the client presents a see-thru gateway.
import { test, expect } from '../../fixtures/wfmck.ts';
import { req } from '../../fixtures/req.ts';
import { jsonBody, pathOf } from '../../fixtures/client-under-test.ts';
import type { RecordedExchange } from '../../reference/wfm/recorder.ts';

const capabilitiesPuts = (xs: RecordedExchange[]) => xs.filter((x) => x.method === 'PUT' && pathOf(x).startsWith('/api/v1/capabilities/'));
const deviceIdOf = (x: RecordedExchange) => pathOf(x).slice('/api/v1/capabilities/'.length).split('/').map(decodeURIComponent).join('/');

/** The see-thru registrations of a client asked to be a gateway: every PUT once some id has a child. */
async function gatewayPuts(clientUnderTest: (o: { kind: 'see-thru-gateway' }) => Promise<{ waitFor: <T>(what: string, pick: (xs: RecordedExchange[]) => T | undefined, ms?: number) => Promise<T> }>): Promise<RecordedExchange[]> {
  const client = await clientUnderTest({ kind: 'see-thru-gateway' });
  // Settled: no new capabilities for a while after the first polls of the desired state.
  return client.waitFor('its see-thru registrations and two polls of the desired state', (xs) => {
    const polls = xs.filter((x) => x.method === 'GET' && pathOf(x).endsWith('/deployments')).length;
    return polls >= 2 ? capabilitiesPuts(xs) : undefined;
  });
}

test.describe('§2.2 see-thru gateways', () => {
  test('GW-ORDER-GATEWAY-FIRST GW-SEETHRU-PATH-HIERARCHY the gateway registers itself before any device behind it, and each of those under <gateway>/<child>', req('GW-ORDER-GATEWAY-FIRST', 'GW-SEETHRU-PATH-HIERARCHY'), async ({ clientUnderTest }) => {
    const puts = await gatewayPuts(clientUnderTest);
    const ids = puts.map(deviceIdOf);
    const children = ids.filter((id) => id.includes('/'));
    test.skip(children.length === 0, 'the client under test presents no see-thru gateway (no hierarchical deviceId): the gateway checks need one');
    const gateway = children[0]!.split('/')[0]!;
    const firstOwn = ids.indexOf(gateway);
    const firstChild = ids.findIndex((id) => id.startsWith(`${gateway}/`));
    expect(firstOwn, `§2.2: the gateway ${gateway} registers itself (order: ${ids.join(', ')})`).toBeGreaterThanOrEqual(0);
    expect(firstOwn, `§2.2: before any device behind it (order: ${ids.join(', ')})`).toBeLessThan(firstChild);
    for (const id of children) expect(id.split('/').slice(0, -1).every((_, i, a) => ids.includes(a.slice(0, i + 1).join('/'))), `§2.2: ${id} sits under registered gateways`).toBe(true);
  });

  test('GW-SEETHRU-ONE-PUT-PER-DEVICE one capabilities document per device, each for the device its path names', req('GW-SEETHRU-ONE-PUT-PER-DEVICE'), async ({ clientUnderTest }) => {
    const puts = await gatewayPuts(clientUnderTest);
    test.skip(!puts.some((x) => deviceIdOf(x).includes('/')), 'the client under test presents no see-thru gateway (no hierarchical deviceId)');
    const mismatched = puts.filter((x) => (jsonBody(x) as { properties?: { id?: unknown } } | undefined)?.properties?.id !== deviceIdOf(x)).map(deviceIdOf);
    expect(mismatched, '§2.2: each PUT carries the document of the device its path names (one device per request)').toEqual([]);
  });
});
