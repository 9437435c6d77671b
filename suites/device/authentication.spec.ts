// Persona device, interfaces.md §5 (Authentication): what the client under test does once the WFM's local policy no
// longer authorizes it (a retired relationship answers 403).
import { test, expect } from '../../fixtures/wfmck.ts';
import { req } from '../../fixtures/req.ts';
import { isCapabilitiesPut } from '../../fixtures/client-under-test.ts';
import { REPEAT_LIMIT, REPEAT_WINDOW_MS, repeatedAutomatically, repeatsAfterRefusal } from '../../spec/rules/refusal.ts';

/** How long the check waits for the client to send anything after its retirement. */
const AFTER_RETIREMENT_MS = 30_000;

test.describe('§5 a client the WFM no longer authorizes', () => {
  test(
    'CLIENT-403-NOT-REPEATED once its relationship is retired (hook retireClient) and a request is answered 403, the client does not repeat it automatically',
    req('CLIENT-403-NOT-REPEATED'),
    async ({ clientUnderTest, hooks }) => {
      hooks.require('retireClient');
      const client = await clientUnderTest();
      const { clientId, after } = await client.waitFor(
        'its capabilities accepted, and a clientId',
        (xs, id) => {
          const accepted = xs.find((x) => isCapabilitiesPut(x) && x.status < 300);
          return accepted && id ? { clientId: id, after: Math.max(...xs.map((x) => x.seq)) } : undefined;
        },
        undefined,
        client.unaccepted,
      );
      await hooks.run('retireClient', { clientId });
      // A client that sends nothing more repeats nothing: the wait ends without a 403, and the check holds.
      const deadline = Date.now() + AFTER_RETIREMENT_MS;
      let refused = repeatsAfterRefusal([]).refused;
      while (!refused && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 500));
        refused = repeatsAfterRefusal((await client.observe()).exchanges.filter((x) => x.seq > after)).refused;
      }
      if (!refused) {
        test.info().annotations.push({
          type: 'note',
          description: `the client sent no request within ${AFTER_RETIREMENT_MS / 1000} s of its retirement: nothing was repeated`,
        });
        expect(refused, 'no 403, so no repetition of one').toBeUndefined();
        return;
      }
      await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(refused!.at) + REPEAT_WINDOW_MS - Date.now()) + 500));
      const { repeats } = repeatsAfterRefusal((await client.observe()).exchanges.filter((x) => x.seq > after));
      expect(
        repeatedAutomatically(repeats),
        `§5, RFC 9110 §15.5.4: ${refused.method} ${refused.target.split('?')[0]} answered 403 (#${refused.seq}) and was sent ${repeats.length} more times within ${REPEAT_WINDOW_MS / 1000} s (errata: more than ${REPEAT_LIMIT} is automatic repetition)`,
      ).toBe(false);
    },
  );
});
