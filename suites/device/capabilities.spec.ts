// Persona device, interfaces.md §2.1 and §2.1.1: every capabilities document the client under test sends, judged by
// the rules `wfmck lint` applies (one test per requirement, so the matrix names exactly what a client breaks).
import { test, expect } from '../../fixtures/wfmck.ts';
import { req } from '../../fixtures/req.ts';
import { isCapabilitiesPut, pathOf } from '../../fixtures/client-under-test.ts';
import { warnUnlessStrict } from '../../fixtures/errata.ts';
import { lintCapabilities } from '../../spec/lint/capabilities.ts';
import { fails, toLintFinding, type LintFinding } from '../../spec/lint/findings.ts';

/** The client duties a capabilities document shows, each judged on every document the client sent. */
const DOCUMENT_REQUIREMENTS = [
  'CAP-PROPERTIES-REQUIRED',
  'PROPS-IDENTITY-REQUIRED',
  'PROPS-ID-CHARSET',
  'PROPS-HOSTING-FIELDS',
  'PROPS-MEMORY-FORMAT',
  'PROPS-STORAGE-FORMAT',
  'PROPS-OTEL-HOSTING-TRUE',
  'PROPS-RUNTIMES-NONEMPTY',
  'PROPS-DEPLOYTYPES-NONEMPTY',
  'CPU-CORES-REQUIRED',
  'ENUM-CPU-ARCH',
  'ENUM-PERIPHERAL-TYPE',
  'ENUM-INTERFACE-TYPE',
  'PROPS-PERIPHERAL-TYPE-REQUIRED',
  'PROPS-INTERFACE-TYPE-REQUIRED',
  'ENUM-CUSTOM-NEEDS-LABELS',
  'ENUM-RUNTIME-VALUES',
  'ENUM-DEPLOYTYPE-VALUES',
  'CAP-LABELS-VALUE-TYPES',
  'CAP-LABELS-DOMAIN-PREFIX',
  'CAP-EXT-AT-ROOT',
  'MIAF-CLIENT-CAP-ROOT-CLOSED',
] as const;

test.describe('§2.1, §2.1.1 the capabilities documents the client sends', () => {
  for (const id of DOCUMENT_REQUIREMENTS) {
    test(`${id} every capabilities document the client sent meets it`, req(id), async ({ clientUnderTest, ctx, profile }) => {
      const client = await clientUnderTest();
      const puts = await client.waitFor(
        'its capabilities',
        (xs) => {
          const p = xs.filter(isCapabilitiesPut);
          return p.length ? p : undefined;
        },
        undefined,
        'CAP-FIRST-EXCHANGE',
      );
      const findings: LintFinding[] = puts
        .flatMap((x) => {
          try {
            return lintCapabilities(x.body ?? '', pathOf(x), profile.edition).findings.map(toLintFinding);
          } catch (e) {
            return [{ requirement: 'API-JSON-REQUESTS', level: 'MUST' as const, rule: 'not-json', message: (e as Error).message }];
          }
        })
        .filter((f) => f.requirement === id);
      const failing = findings.filter((f) => fails(f, ctx.strictness));
      // A SHOULD, or a reading the errata call ambiguous, warns unless strict (P9).
      warnUnlessStrict(
        ctx.strictness,
        findings.length > failing.length,
        findings
          .filter((f) => !failing.includes(f))
          .map((f) => `${f.file}: ${f.message}`)
          .join('; '),
      );
      expect(
        failing.map((f) => `${f.file}${f.path ?? ''}: ${f.message}`),
        `§2.1: ${id}`,
      ).toEqual([]);
    });
  }
});

test.describe('§2.1 the client sends its capabilities again when they change', () => {
  test(
    'CAP-UPDATE-ON-CHANGE after what the client reports changes (hook changeCapabilities), it PUTs its own capabilities again with a changed document',
    req('CAP-UPDATE-ON-CHANGE'),
    async ({ clientUnderTest }) => {
      const client = await clientUnderTest();
      const first = await client.waitFor(
        'its first capabilities, accepted',
        (xs) => xs.find((x) => isCapabilitiesPut(x) && x.status < 300),
        undefined,
        client.unaccepted,
      );
      const own = pathOf(first);
      const before = (await client.observe()).exchanges.filter((x) => isCapabilitiesPut(x) && pathOf(x) === own).at(-1)!;
      await client.changeCapabilities();
      const again = await client.waitFor(`a PUT of ${own} after the change, with another document than ${before.seq}'s`, (xs) =>
        xs.find((x) => x.seq > before.seq && isCapabilitiesPut(x) && pathOf(x) === own && x.body !== before.body),
      );
      expect(again.body, '§2.1: updated capabilities whenever reported information changes').not.toEqual(before.body);
    },
  );
});
