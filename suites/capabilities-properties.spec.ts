// interfaces.md §2.1, §2.2, §3, §4.1 and §4.2 as properties (fast-check): random valid documents are accepted, random
// invalid ones refused with 400 or 422 (P9) and never 5xx, and random PUT/DELETE sequences answer as a model predicts.
// Each run of a property is one or more HTTP exchanges, so each caps its runs at Math.min(ctx.runs, N) (N beside
// it) to keep the default `wfmck run` short on the embedded target.
import fc from 'fast-check';
import { test, expect } from '../fixtures/wfmck.ts';
import { req } from '../fixtures/req.ts';
import {
  INVALID_BODY_ANSWERS,
  invalidity,
  judgedInvalid,
  judgedShapes,
  nullsAsAbsent,
  reasons,
  withId,
  type Invalidity,
} from '../fixtures/capabilities.ts';
import { CapabilitiesModel, DeleteCommand, PutCommand } from '../models/capabilities.ts';
import { judgeAs } from '../fixtures/expect-each.ts';
import type { RunContext } from '../run/contract/context.ts';
import type { Profile } from '../spec/profile.ts';
import { isValidDeviceId } from '../spec/rules/device-id.ts';
import type { DeviceCapabilities } from '../spec/types.ts';
import type { DeviceApiClient } from '../simulators/device-api.ts';
import { deviceHierarchy, hierarchyIds, invalidCapabilities, validCapabilities, type DeviceTree } from '../simulators/data/arbitraries.ts';

/**
 * Seed and path from the run, so a failure prints both and `wfmck run --seed --path` replays it; the
 * assertion that failed (it names the rule) goes into the report's message, not only into the error's cause.
 */
const settings = (ctx: RunContext, cap: number) => ({
  seed: ctx.seed,
  numRuns: Math.min(ctx.runs, cap),
  path: ctx.path,
  includeErrorInReport: true,
});

/** Every node of a tree with its full id, gateways before the devices behind them. */
const nodes = (tree: DeviceTree): DeviceTree[] => [tree, ...tree.children.flatMap(nodes)];

test.describe('§2.1 and §4.1 as properties: random documents', () => {
  test(
    'CAP-PUT-201 CAP-PUT-200 random valid documents (every enum value, label value type, extension, gateway shape) are created (201), then updated (200)',
    req('CAP-PUT-201', 'CAP-PUT-200'),
    async ({ device, ctx, profile }) => {
      const client = await device();
      // Unknown enum values only where the edition makes their acceptance a MUST (P10 errata); quantities in the profile's form (P8).
      const doc = (kind: 'hosting' | 'any') =>
        validCapabilities({
          kind,
          id: fc.constant('x'),
          quantityFormat: profile.quantityFormat,
          unknownEnumValues: profile.edition === 'seed',
        }).map(judgedShapes);
      // A gateway with children hosts workloads: accepting the children of a non-hosting one is a MAY (GW-SEETHRU-HOSTING-OPTIONAL).
      const scenario = deviceHierarchy({ maxDepth: 2, maxChildren: 2 }).chain((tree) =>
        fc.tuple(...nodes(tree).map((n) => doc(n.children.length ? 'hosting' : 'any').map((d) => ({ local: n.id, doc: d })))),
      );
      // Up to 7 devices and 8 exchanges per run: at most 20 runs.
      await fc.assert(
        fc.asyncProperty(scenario, async (devices) => {
          // The tree's root segment is replaced by an id no other run uses; the paths below it stay.
          const root = client.deviceId('p');
          const sent = devices.map(({ local, doc: d }) => withId(d, root + local.slice(devices[0]!.local.length)));
          // Drawn from the edition's schema: the rc.3 closed root and enums in miaf (P10).
          for (const d of sent) fc.pre(reasons(invalidity(d, profile)) === '');
          for (const d of sent) {
            const status = (await client.api.putCapabilities(d.properties.id, d)).status;
            await judgeAs('CAP-PUT-201', () =>
              expect(status, `§3, §4.1: a valid document for a new deviceId (gateway first) is created: 201 (${d.properties.id})`).toBe(
                201,
              ),
            );
          }
          const last = sent[sent.length - 1]!;
          const updated = (await client.api.putCapabilities(last.properties.id, last)).status;
          await judgeAs('CAP-PUT-200', () => expect(updated, '§3, §4.1: PUT of an existing document is an update: 200').toBe(200));
        }),
        settings(ctx, 20),
      );
    },
  );

  test(
    'ERR-SCHEMA-INVALID-400-OR-422 random documents that break the schema (a required field removed, a type broken, a bad id) are refused with 400 or 422, never 5xx',
    req('ERR-SCHEMA-INVALID-400-OR-422'),
    async ({ device, ctx, profile }) => {
      const client = await device();
      await refusesInvalid(
        client.api,
        () => client.deviceId('s'),
        ctx,
        profile,
        (why) => why.schema.length > 0 && why.schema.every((e) => !isExtensionPath(e.path)),
      );
    },
  );

  test(
    'CAP-PUT-422 ERR-CAP-PUT-422 random documents with a semantic error (bad quantities, partial Y* fields in seed, custom without labels, ...) are refused with 400 or 422, never 5xx',
    req('CAP-PUT-422', 'ERR-CAP-PUT-422'),
    async ({ device, ctx, profile }) => {
      const client = await device();
      // ENUM-CUSTOM-NEEDS-LABELS errata: an unknown value without labels may be accepted, so that finding alone is not judged.
      await refusesInvalid(
        client.api,
        () => client.deviceId('m'),
        ctx,
        profile,
        (why) => why.schema.length === 0 && why.semantic.some((f) => f.rule !== 'defaulted-custom-needs-labels'),
      );
    },
  );
});

test.describe('§3, §4.1, §4.2 and §2.2 as a model: random PUT/DELETE sequences over a see-thru hierarchy', () => {
  test(
    'CAP-LIFE-CREATED CAP-LIFE-UPDATED CAP-LIFE-DELETED GW-SEETHRU-INFER-HIERARCHY GW-ORDER-DELETED-GATEWAY-404 random PUT/DELETE sequences over a gateway, children and grandchildren answer 201/200/204/404 as the model predicts',
    req('CAP-LIFE-CREATED', 'CAP-LIFE-UPDATED', 'CAP-LIFE-DELETED', 'GW-SEETHRU-INFER-HIERARCHY', 'GW-ORDER-DELETED-GATEWAY-404'),
    async ({ device, ctx }) => {
      const client = await device();
      const scenario = deviceHierarchy({ maxDepth: 2, maxChildren: 2 }).chain((tree) => {
        const ids = hierarchyIds(tree);
        const id = fc.constantFrom(...ids);
        const put = fc.tuple(id, fc.integer({ min: 1, max: 3 })).map(([i, gi]) => new PutCommand(i, gi));
        return fc.tuple(fc.constant(ids), fc.commands([put, put, id.map((i) => new DeleteCommand(i))], { maxCommands: 16 }));
      });
      // Up to 16 exchanges per run: at most 15 runs.
      await fc.assert(
        fc.asyncProperty(scenario, async ([ids, commands]) => {
          const prefix = `${client.deviceId('m')}-`;
          await fc.asyncModelRun(() => ({ model: new CapabilitiesModel(ids), real: { api: client.api, prefix } }), commands);
        }),
        settings(ctx, 15),
      );
    },
  );
});

/** §2.1: an extension member is arbitrary and never a reason to refuse (CAP-EXT-NOT-REJECTED), so it is not judged. */
function isExtensionPath(path: string): boolean {
  return /^\/x-/.test(path);
}

/** One PUT per run of an invalid document the spec/ oracle `judged` selects; 400 or 422, and the oracle's reasons in the message. */
async function refusesInvalid(
  api: DeviceApiClient,
  freshId: () => string,
  ctx: RunContext,
  profile: Profile,
  judged: (why: Invalidity) => boolean,
): Promise<void> {
  // Invalid under the open root of either edition: what only rc.3's closed root refuses is MIAF-CAP-ROOT-CLOSED's own check.
  const reading = { capabilitiesRoot: 'open' as const, edition: profile.edition };
  // Errata of ERR-SCHEMA-INVALID-400-OR-422: outside strict, a document judged must stay invalid with its null members
  // read as absent, so a null optional field (`"labels": null`) is never a defect the WFM must refuse.
  const nullTolerant = ctx.strictness !== 'strict';
  const isCase = (doc: unknown) =>
    judged(invalidity(doc, reading)) && (!nullTolerant || judgedInvalid(invalidity(nullsAsAbsent(doc), reading)));
  const cases = invalidCapabilities().filter(({ doc }) => isCase(doc));
  // One exchange per run: at most 40 runs.
  await fc.assert(
    fc.asyncProperty(cases, async ({ doc, defect }) => {
      const id = freshId();
      const body = bodyFor(doc, id);
      // Re-checked here, so a shrunk counterexample is reported only while the oracle still calls it invalid.
      const why = invalidity(body, reading);
      fc.pre(isCase(body));
      const status = (await api.putCapabilities(id, body as DeviceCapabilities)).status;
      expect(
        INVALID_BODY_ANSWERS,
        `P9: an invalid document (${defect}) is refused with 400 or 422, got ${status}; spec/ oracle: ${reasons(why)}`,
      ).toContain(status);
    }),
    settings(ctx, 40),
  );
}

/** The document sent for `id`: a valid body id becomes the path id; an id that is itself the defect stays. */
function bodyFor(doc: unknown, id: string): unknown {
  const properties = (doc as { properties?: unknown }).properties;
  if (typeof properties !== 'object' || properties === null) return doc;
  const bodyId = (properties as { id?: unknown }).id;
  if (typeof bodyId !== 'string' || !isValidDeviceId(bodyId)) return doc;
  return { ...(doc as object), properties: { ...properties, id } };
}
