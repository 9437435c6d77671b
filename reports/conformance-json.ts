// conformance.json: what a vendor publishes. The run's metadata, the summary and one entry per catalog requirement.
import type { Requirement } from '../spec/requirements.ts';
import { SEED_PROFILE, type Edition, type Profile, type Strictness } from '../spec/profile.ts';
import type { RunContext } from '../run/contract/context.ts';
import { PERSONA, type Persona } from '../run/contract/personas.ts';
import { buildMatrix, summarize, type RequirementResult, type RootCause, type Summary, type TestRecord } from './matrix.ts';
import { rootCauses } from './causes.ts';
import { withFaultProof } from './fault-proof.ts';
import { faultCatalog, type FaultEntry } from '../faults/catalog.ts';
import { unclaimedReason } from '../run/contract/claims.ts';
import { outages, type Outage } from './outages.ts';
import { OUTAGE_CAUSE, blockByOutage, blockByServerIdentity, declaredOutage, type DeclaredOutage } from './outage-declared.ts';

/** What the report echoes about the run (from the RunContext; never a secret). */
export interface RunMeta {
  kit: { name: string; version: string };
  /** What the component under test plays: wfm (with its identity role and registry), identity, registry or device. */
  persona: Persona;
  /** The edition of the standard the run judges against: the P10 profile value, echoed here so a reader needs no profile. */
  edition: Edition;
  /** The component under test as configured (component.vendor|name|version); empty when not configured. */
  component: { vendor?: string; name?: string; version?: string };
  /** The areas it claims (run/contract/claims.ts); null = every area of its persona. */
  claims: string[] | null;
  /** Present when the run is signed: the envelope file written after the reports (it cannot sit inside them). */
  signing: { envelope: string } | null;
  /** True when the targets were the embedded reference services; null when no run context was given. */
  embedded: boolean | null;
  targets: Partial<RunContext['targets']>;
  /** Paths of the CA files the targets' certificates chain to: a reproduction's `curl --cacert` (paths, never contents). */
  caFiles: string[];
  profile: Profile;
  strictness: Strictness;
  seed: number | null;
  runs: number | null;
  /** Names of the P5 hooks configured for the run (a check needing another one is skipped with its name). */
  hooks: string[];
  /**
   * Persona device: who started the client under test. `kit`: the kit's own simulated client (a self-check of the
   * kit, not a vendor's client); `hook`: the configured startClient command; `operator`: by hand (attended mode).
   */
  clientUnderTest?: ClientStarter;
  startedAt: string;
}

export type ClientStarter = 'kit' | 'hook' | 'operator';

export interface ConformanceReport extends RunMeta {
  endedAt: string;
  interrupted: boolean;
  summary: Summary;
  /**
   * Each failed requirement (those that failed on the same exchange as one, `alsoFailed`) and each that blocked others,
   * with those it blocked, most blocking first: "CAP-PUT-201 failed; 19 blocked by it" (reports/causes.ts).
   */
  rootCauses: RootCause[];
  /** A target that stopped answering: its failures on no answer, grouped as one finding per origin (reports/outages.ts). */
  outages: Outage[];
  requirements: RequirementResult[];
  /** Problems of the run itself: global errors, tests naming no or unknown requirements. Never findings. */
  problems: string[];
}

export function metaFromContext(ctx: RunContext): RunMeta {
  return {
    kit: { name: ctx.kit.name, version: ctx.kit.version },
    persona: ctx.persona ?? PERSONA,
    edition: ctx.profile.edition,
    component: { ...ctx.component },
    claims: ctx.claims ? [...ctx.claims] : null,
    signing: ctx.signing ? { ...ctx.signing } : null,
    embedded: ctx.embedded,
    targets: { ...ctx.targets },
    caFiles: [...(ctx.tls?.caFiles ?? [])],
    profile: { ...ctx.profile },
    strictness: ctx.strictness,
    seed: ctx.seed,
    runs: ctx.runs,
    hooks: Object.keys(ctx.hooks).sort(),
    ...(ctx.persona === 'device' && { clientUnderTest: clientStarter(ctx) }),
    startedAt: ctx.startedAt,
  };
}

/** A startClient bound to the embedded admin API runs the kit's own client; a configured one is a command. */
function clientStarter(ctx: RunContext): ClientStarter {
  if (ctx.attend) return 'operator';
  return ctx.hooks.startClient?.kind === 'command' ? 'hook' : 'kit';
}

/** Minimal metadata when Playwright runs without `wfmck run` (no WFMCK_CONTEXT). */
export function fallbackMeta(version: string, startedAt: string, env: Record<string, string | undefined>): RunMeta {
  const seed = env.WFMCK_SEED !== undefined && /^-?\d+$/.test(env.WFMCK_SEED) ? Number(env.WFMCK_SEED) : null;
  const strictness = (['strict', 'default', 'lenient'] as const).find((s) => s === env.WFMCK_STRICTNESS) ?? 'default';
  return {
    kit: { name: 'wfmck', version },
    persona: PERSONA,
    edition: SEED_PROFILE.edition,
    component: {},
    claims: null,
    signing: null,
    embedded: null,
    targets: {},
    caFiles: [],
    profile: { ...SEED_PROFILE, strictness },
    strictness,
    seed,
    runs: null,
    hooks: [],
    startedAt,
  };
}

export interface ReportInput {
  meta: RunMeta;
  catalog: readonly Requirement[];
  records: readonly TestRecord[];
  endedAt: string;
  interrupted: boolean;
  /** True when --grep (or a project filter) left tests out, so "not covered" may mean "not selected". */
  filtered?: boolean;
  problems?: readonly string[];
  /** The faults that prove the checks; default the kit's catalog (faults/catalog.yaml). */
  faults?: readonly FaultEntry[];
  /** A target that stopped answering during the run (cli/outage-watch.ts): what it cut short or kept from running is blocked by it. */
  outage?: DeclaredOutage;
}

export function buildReport(input: ReportInput): ConformanceReport {
  const known = new Set(input.catalog.map((r) => r.id));
  const problems = [...(input.problems ?? [])];
  const reached = blockByServerIdentity(input.records);
  const records = input.outage ? blockByOutage(reached, input.outage) : reached;
  for (const r of records) {
    if (r.requirementIds.length === 0) problems.push(`test "${r.title}" (${r.file}:${r.line}) names no requirement`);
    for (const id of r.requirementIds) {
      if (!known.has(id)) problems.push(`test "${r.title}" (${r.file}:${r.line}) names ${id}, which is not in spec/requirements.yaml`);
    }
    if (r.blockedBy !== undefined && r.blockedBy !== OUTAGE_CAUSE && !known.has(r.blockedBy))
      problems.push(`test "${r.title}" (${r.file}:${r.line}) is blocked by ${r.blockedBy}, which is not in spec/requirements.yaml`);
  }
  const claims = input.meta.claims ?? undefined;
  const requirements = withFaultProof(
    buildMatrix(input.catalog, records, input.meta.strictness, input.filtered ?? false, input.meta.edition, input.meta.persona, (req) =>
      unclaimedReason(claims, req),
    ),
    input.faults ?? faultCatalog(),
  );
  return {
    ...input.meta,
    endedAt: input.endedAt,
    interrupted: input.interrupted,
    summary: summarize(requirements, input.meta.strictness),
    rootCauses: rootCauses(requirements, records).filter((c) => c.id !== OUTAGE_CAUSE),
    outages: [
      ...(input.outage ? [declaredOutage(input.outage, input.records, requirements)] : []),
      ...outages(requirements).filter((o) => !input.outage?.origins.includes(o.origin)),
    ],
    requirements,
    problems,
  };
}
