// profiles.md P10, edition miaf: errors are RFC 9457 problem details, with the reserved type of each condition the
// standard names, about:blank for any other, and retryable false except for 429 and 503.
import { test, expect, type SimulatedClient } from '../fixtures/wfmck.ts';
import { req } from '../fixtures/req.ts';
import { capabilities } from '../fixtures/capabilities.ts';
import { assign, currentManifest, entryOf, hostingDevice } from '../fixtures/desired-state.ts';
import { problemName, problemOf } from '../fixtures/problems.ts';
import type { Hooks } from '../fixtures/wfmck.ts';
import { RESERVED_PROBLEMS, type ProblemName } from '../spec/rules/problem-types.ts';
import { validate } from '../spec/schemas/index.ts';
import { digestOf } from '../spec/rules/desired-state.ts';
import type { HttpResponse } from '../simulators/transport/types.ts';
import type { Profile } from '../spec/profile.ts';
import { requireThat, skipIf } from '../fixtures/outcome.ts';
import { expectEach, type TaggedFinding } from '../fixtures/expect-each.ts';

/** Polls fired at once from one client to meet a WFM's rate limit (the reference WFM's is 50 in 10 s). */
const BURST = 120;

test.beforeEach(({ profile }) => {
  skipIf(profile.errors !== 'problem-details', 'disabled', 'P10: the profile answers errors as P6 {"error"} bodies, not problem details');
});

/** The requirement whose own check sees each condition provoked at all (an answer that is no error). */
const CONDITION_CHECK: Record<ProblemName, string> = {
  'invalid-request': 'ERR-NOT-JSON-400',
  'semantic-error': 'CAP-PUT-422',
  'not-authorized': 'MIAF-NOT-ADMITTED-403',
  'gateway-not-found': 'CAP-PUT-404',
  'device-not-found': 'CAP-DELETE-404',
  'deployment-not-found': 'MIAF-DEPLOYMENT-404',
  'invalid-bundle': 'MIAF-BUNDLE-GET',
  'server-cannot-generate-response': 'MIAF-DS-406-PROBLEM',
};

/** One request per reserved condition the Device API can be driven into, with the problem it must carry. */
async function provoke(
  device: (o?: { onboard?: boolean }) => Promise<SimulatedClient>,
  hooks: Hooks,
): Promise<[ProblemName, HttpResponse][]> {
  const client = await device();
  const id = client.deviceId();
  const a = await assign(client, hooks, await hostingDevice(client));
  const { manifest } = await currentManifest(client);
  const wrongDigest = digestOf(Buffer.from('no such thing'));
  const stranger = await device({ onboard: false });
  return [
    ['invalid-request', await client.api.putCapabilities(id, '{"properties": ')],
    ['semantic-error', await client.api.putCapabilities(id, capabilities(id, { supportedRuntimes: ['custom'] }, { labels: {} }))],
    ['not-authorized', await stranger.api.putCapabilities(id, capabilities(id))],
    ['gateway-not-found', await client.api.putCapabilities(`${id}-gw/child`, capabilities(`${id}-gw/child`))],
    ['device-not-found', await client.api.deleteCapabilities(`${id}-never`)],
    ['deployment-not-found', await client.api.getDeploymentYaml(entryOf(manifest, a.deploymentId).url.replace(/[^/]+$/, wrongDigest))],
    ['invalid-bundle', await client.api.getBundle((manifest.bundle?.url ?? '/api/v1/bundles/x').replace(/[^/]+$/, wrongDigest))],
    ['server-cannot-generate-response', await client.api.getDesiredState(client.clientId, { accept: 'text/html' })],
  ];
}

/** What each provoked error answer breaks: its status, its media type, the problem shape, its type, retryable. */
function problemFindings(errors: [ProblemName, HttpResponse][], profile: Profile): TaggedFinding[] {
  return errors.flatMap(([name, res]): TaggedFinding[] => {
    const body = problemOf(res);
    const checked = validate('ProblemDetails', body);
    return [
      ...(res.status !== RESERVED_PROBLEMS[name]
        ? [{ id: 'PROBLEM-RESERVED-TYPE', message: `${name}: HTTP ${res.status}, not ${RESERVED_PROBLEMS[name]}` }]
        : []),
      ...(!/^application\/problem\+json\b/i.test(res.headers['content-type'] ?? '')
        ? [{ id: 'PROBLEM-JSON', message: `${name}: Content-Type ${res.headers['content-type']}` }]
        : []),
      ...(!checked.ok
        ? [{ id: 'PROBLEM-JSON', message: `${name}: not a problem: ${checked.errors.map((e) => `${e.path} ${e.message}`).join(', ')}` }]
        : body!['status'] !== res.status
          ? [{ id: 'PROBLEM-JSON', message: `${name}: status member ${String(body!['status'])} differs from HTTP ${res.status}` }]
          : []),
      ...(problemName(res, profile) !== name
        ? [{ id: 'PROBLEM-RESERVED-TYPE', message: `${name}: type ${JSON.stringify(body?.['type'])}` }]
        : []),
      ...(body?.['retryable'] !== false
        ? [{ id: 'PROBLEM-NOT-RETRYABLE', message: `${name}: retryable ${JSON.stringify(body?.['retryable'])}, not false` }]
        : []),
    ];
  });
}

test.describe('P10 problem details (RFC 9457)', () => {
  test(
    'PROBLEM-JSON PROBLEM-RESERVED-TYPE PROBLEM-NOT-RETRYABLE each reserved condition answers application/problem+json with its status, its type, retryable false',
    req('PROBLEM-JSON', 'PROBLEM-RESERVED-TYPE', 'PROBLEM-NOT-RETRYABLE'),
    async ({ device, hooks, profile }) => {
      hooks.require('admitClient');
      const answers = await provoke(device, hooks);
      // A condition the WFM did not answer with an error has no problem to judge: its own check finds that.
      const errors = answers.filter(([, res]) => res.status >= 400);
      const missed = answers.filter(([, res]) => res.status < 400);
      if (missed.length)
        test.info().annotations.push({
          type: 'note',
          description: `not judged here, no error answered: ${missed.map(([n, r]) => `${n} (HTTP ${r.status}; ${CONDITION_CHECK[n]} judges it)`).join(', ')}`,
        });
      requireThat(
        CONDITION_CHECK[missed[0]?.[0] ?? 'invalid-request'],
        errors.length > 0,
        'no reserved condition was answered with an error',
      );
      expectEach(problemFindings(errors, profile), 'P10: every reserved condition carries its problem');
    },
  );

  test(
    'PROBLEM-ABOUT-BLANK a path the Device API does not have (404) and a method it does not take (405, or 404) answer type about:blank',
    req('PROBLEM-ABOUT-BLANK'),
    async ({ device, profile }) => {
      const client = await device();
      const unknownPath = await client.api.raw({ method: 'GET', url: '/api/v1/no-such-resource' });
      const wrongMethod = await client.api.raw({ method: 'POST', url: `/api/v1/capabilities/${client.deviceId()}`, json: {} });
      expect([unknownPath.status, problemName(unknownPath, profile)], 'P10: no reserved condition: about:blank').toEqual([
        404,
        'about:blank',
      ]);
      // Errata of PROBLEM-ABOUT-BLANK: a method the path does not take is 405 (RFC 9110), or 404 from a WFM that routes by
      // method and path together; neither is a reserved condition.
      expect([404, 405], `P10: POST on a capabilities path is refused with 405 or 404, got ${wrongMethod.status}`).toContain(
        wrongMethod.status,
      );
      expect(problemName(wrongMethod, profile), 'P10: no reserved condition: about:blank').toBe('about:blank');
    },
  );

  test('PROBLEM-422-ERRORS a 422 problem lists errors as {field, message}', req('PROBLEM-422-ERRORS'), async ({ device }) => {
    const client = await device();
    const id = client.deviceId();
    const res = await client.api.putCapabilities(id, capabilities(id, { supportedRuntimes: ['custom'] }, { labels: {} }));
    // P9 lets a WFM refuse a semantic error with 400: then it never answers this 422, and there is nothing to judge.
    skipIf(res.status === 400, 'unsupported', 'the WFM refuses custom without labels with 400 (P9 allows it), so no 422 shows its errors');
    requireThat('CAP-PUT-422', res.status === 422, `custom without labels is a semantic error (§2.1.1), answered ${res.status}`);
    const errors = problemOf(res)?.['errors'];
    expect(
      Array.isArray(errors) && errors.length > 0 && errors.every((e) => typeof e?.field === 'string' && typeof e?.message === 'string'),
      `P10 SHOULD: errors [{field, message}], got ${JSON.stringify(errors)}`,
    ).toBe(true);
  });

  test(
    'PROBLEM-RETRY-AFTER a 429 or 503 carries Retry-After, retryable true and backoffStrategy exponential',
    req('PROBLEM-RETRY-AFTER'),
    async ({ device }) => {
      // No hook makes a WFM shed load: a burst from one client is the only lever, and a WFM without a limit skips.
      const client = await device();
      const answers = await Promise.all(Array.from({ length: BURST }, () => client.api.raw({ method: 'GET', url: '/api/v1/deployments' })));
      const busy = answers.find((r) => r.status === 429 || r.status === 503);
      skipIf(
        busy === undefined,
        'unsupported',
        `P10: the WFM answered no 429 or 503 to a burst of ${BURST} requests, and no hook can provoke one`,
      );
      const body = problemOf(busy!);
      expect(
        [busy!.headers['retry-after'] !== undefined, body?.['retryable'], body?.['backoffStrategy']],
        'P10: Retry-After, retryable true, exponential',
      ).toEqual([true, true, 'exponential']);
    },
  );
});
