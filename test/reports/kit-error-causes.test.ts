// One hook that is not wired is one cause on the console and the page, however many checks needed it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequirementResult, TestEntry } from '../../reports/matrix.ts';
import { kitErrorCauses, kitErrorHeadline } from '../../reports/kit-error-causes.ts';
import { findingLines } from '../../reports/console.ts';
import { causesHtml } from '../../reports/html/causes.ts';

const STDERR = 'serve-admin.sh: line 6: WFMCK_ADMIN: the admin URL wfmck serve printed';

function errored(id: string, title: string, extra: Partial<TestEntry>): RequirementResult {
  const t: TestEntry = { title, file: 'suites/x.spec.ts', line: 1, status: 'error', durationMs: 5, ...extra };
  return { id, level: 'MUST', section: '4.1', text: id, status: 'error', tests: [t], reason: t.reason } as unknown as RequirementResult;
}

const hookError = (id: string, title: string) =>
  errored(id, title, {
    errorCode: 'WFMCK_E_HOOK',
    hook: 'retireClient',
    reason: `WFMCK_E_HOOK: hook retireClient: exited with code 1: ${STDERR}`,
  });

const requirements = [
  hookError('CAP-PUT-403', 'CAP-PUT-403 ERR-CAP-PUT-403 retired'),
  hookError('ERR-CAP-PUT-403', 'CAP-PUT-403 ERR-CAP-PUT-403 retired'),
  hookError('CAP-DELETE-403', 'CAP-DELETE-403 retired'),
  hookError('AUTH-RETIRED-CLIENT-403', 'AUTH-RETIRED-CLIENT-403 retired'),
  errored('CAP-DELETE-204', 'CAP-DELETE-204 delete', { errorCode: 'WFMCK_E_TEST', reason: 'WFMCK_E_TEST: TypeError: x is not a function' }),
];

test('kit errors group by the hook that failed, counted in checks, most first; other codes apart', () => {
  const causes = kitErrorCauses(requirements);
  assert.deepEqual(
    causes.map((c) => [c.what, c.checks, c.requirements.length]),
    [
      ['hook retireClient', 3, 4],
      ['WFMCK_E_TEST', 1, 1],
    ],
  );
  assert.equal(kitErrorHeadline(causes[0]!), `hook retireClient failed 3 checks: exited with code 1: ${STDERR}`);
});

test("the console and the page say the hook once, with its stderr, as the kit's error", () => {
  const report = { requirements, rootCauses: [] };
  const lines = findingLines(report);
  assert.equal(lines.filter((l) => l.includes('hook retireClient')).length, 1, lines.join('\n'));
  assert.ok(lines.some((l) => l.includes(`kit error, not the target's: hook retireClient failed 3 checks: exited with code 1: ${STDERR}`)));
  const html = causesHtml(report);
  assert.equal(html.split('hook retireClient failed').length - 1, 1);
});
