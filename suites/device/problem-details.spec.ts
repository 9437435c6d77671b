// Persona device, profiles.md P10 (miaf): the client's side of the problem details a WFM answers. It honours
// Retry-After: a request answered 429 is not sent again before the time the answer names.
import { test, expect } from '../../fixtures/wfmck.ts';
import { req } from '../../fixtures/req.ts';
import { stage, target } from '../../fixtures/scripted-stage.ts';

const RETRY_AFTER_S = 3;
/** Clock and scheduling noise between the WFM's two timestamps. */
const SLACK_MS = 150;

test.describe('P10 the client under test and the problem details of its WFM', () => {
  test(`MIAF-CLIENT-HONOURS-RETRY-AFTER after a 429 with Retry-After: ${RETRY_AFTER_S} the client does not poll its desired state again sooner`, req('MIAF-CLIENT-HONOURS-RETRY-AFTER'), async ({ clientUnderTest, ctx, profile, transcript }) => {
    const s = await stage(target(ctx, profile), transcript, clientUnderTest, ({ anchor }) => ({ spiffe_sequence: 1, keys: [anchor] }));
    const polls = () => s.wfm.requests.filter((r) => r.line === 'GET /api/v1/deployments');
    try {
      await expect.poll(() => polls().length, { message: 'setup: the client polls its desired state', timeout: 20_000 }).toBeGreaterThan(0);
      s.wfm.throttleNextPoll(RETRY_AFTER_S);
      await expect.poll(() => polls().some((r) => r.throttled), { message: 'setup: a poll answered 429', timeout: 10_000 }).toBe(true);
      await expect.poll(() => polls().findIndex((r) => r.throttled) < polls().length - 1, { message: 'setup: the client polled again after the 429', timeout: (RETRY_AFTER_S + 10) * 1000 }).toBe(true);
      const all = polls();
      const at = all.findIndex((r) => r.throttled);
      const gap = all[at + 1]!.atMs - all[at]!.atMs;
      expect(gap, `P10: the next poll came ${gap} ms after the 429, which said Retry-After: ${RETRY_AFTER_S}`).toBeGreaterThanOrEqual(RETRY_AFTER_S * 1000 - SLACK_MS);
    } finally {
      await s.close();
    }
  });
});
