// What the component under test plays, and for each persona the one table of what its run judges: the catalog
// observers (every other requirement is another persona's: skipped, never a gap) and the suites Playwright runs.
import type { Observer } from '../../spec/requirements.ts';

/**
 * `wfm` (the default) judges a WFM with its identity role and registry; `identity` and `registry` judge those alone;
 * `device` judges a device client (the kit plays the services).
 */
export const PERSONAS = ['wfm', 'device', 'identity', 'registry'] as const;
export type Persona = (typeof PERSONAS)[number];
export const PERSONA: Persona = 'wfm';

export interface PersonaRun {
  /** The catalog observers the persona's run judges. */
  observers: readonly Observer[];
  /** Playwright testMatch globs under suites/ (a device client is no service: only suites/device judges it). */
  suites: readonly string[];
  /** Playwright testIgnore globs under suites/. */
  ignore?: readonly string[];
}

export const PERSONA_RUNS: Readonly<Record<Persona, PersonaRun>> = {
  wfm: { observers: ['wfm', 'identity', 'registry'], suites: ['**/*.spec.ts'], ignore: ['device/**'] },
  identity: { observers: ['identity'], suites: ['identity*.spec.ts'], ignore: ['device/**'] },
  registry: { observers: ['registry'], suites: ['registry*.spec.ts', 'compose-artifacts.spec.ts'], ignore: ['device/**'] },
  device: { observers: ['client'], suites: ['device/**/*.spec.ts'] },
};

/** The catalog observers a persona's run judges. */
export function observersOf(persona: Persona): readonly Observer[] {
  return PERSONA_RUNS[persona].observers;
}

/** The persona that judges an observer's requirements (wfm for the services it bundles). */
export function personaOf(observer: Observer): Persona {
  return (Object.keys(PERSONA_RUNS) as Persona[]).find((p) => p !== 'wfm' && PERSONA_RUNS[p].observers.includes(observer)) ?? 'wfm';
}

/** Playwright's file selection for a persona's run; `all` lists every suite (the faults harness names unproven checks). */
export function suiteSelection(persona: Persona, all = false): { testMatch: string[]; testIgnore: string[] } {
  if (all) return { testMatch: ['**/*.spec.ts'], testIgnore: [] };
  const run = PERSONA_RUNS[persona];
  return { testMatch: [...run.suites], testIgnore: [...(run.ignore ?? [])] };
}
