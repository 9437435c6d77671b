// Persona device, profiles.md P10 (miaf): the client's side of the problem details a WFM answers. It honours
// Retry-After: a request answered 429 is not sent again before the time the answer names.
import { test, expect } from '../../fixtures/scripted-stage.ts';
import { req } from '../../fixtures/req.ts';
import { setup } from '../../fixtures/outcome.ts';
import { REPORTS_WHILE_APPLYING } from '../../fixtures/device-deployments.ts';

const RETRY_AFTER_S = 3;
/** Clock and scheduling noise between the WFM's two timestamps. */
const SLACK_MS = 150;

test.describe('P10 the client under test and the problem details of its WFM', () => {
  test(
    `MIAF-CLIENT-HONOURS-RETRY-AFTER after a 429 with Retry-After: ${RETRY_AFTER_S} the client does not poll its desired state again sooner`,
    req('MIAF-CLIENT-HONOURS-RETRY-AFTER'),
    async ({ stage }) => {
      const s = await stage(({ anchor }) => ({ spiffe_sequence: 1, keys: [anchor] }));
      const polls = () => s.wfm.requests.filter((r) => r.line === 'GET /api/v1/deployments');
      // A client that does not poll its desired state, or stops after a 429, follows no desired state at all.
      const polled = (message: string, timeout: number, condition: () => boolean) =>
        setup(REPORTS_WHILE_APPLYING, message, () => expect.poll(condition, { message, timeout }).toBe(true));
      await polled('the client polls its desired state', 20_000, () => polls().length > 0);
      s.wfm.throttleNextPoll(RETRY_AFTER_S);
      await polled('a poll answered 429', 10_000, () => polls().some((r) => r.throttled));
      await polled(
        'the client polled again after the 429',
        (RETRY_AFTER_S + 10) * 1000,
        () => polls().findIndex((r) => r.throttled) < polls().length - 1,
      );
      const all = polls();
      const at = all.findIndex((r) => r.throttled);
      const gap = all[at + 1]!.atMs - all[at]!.atMs;
      expect(gap, `P10: the next poll came ${gap} ms after the 429, which said Retry-After: ${RETRY_AFTER_S}`).toBeGreaterThanOrEqual(
        RETRY_AFTER_S * 1000 - SLACK_MS,
      );
    },
  );
});
