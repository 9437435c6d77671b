// §2.4 overall state = the most severe component state, with the kit's reading of the precedence list (P7).

import type { DeploymentState } from '../types.ts';

/** P7, most severe first. The spec writes failed > removing > installing > pending > removing > installed. */
export const PRECEDENCE = [
  'failed',
  'removing',
  'installing',
  'pending',
  'installed',
  'removed',
] as const satisfies readonly DeploymentState[];

/** The list as written, `removed` left out, read with the first `removing` (the kit) or the second one. */
const WRITTEN_FIRST_REMOVING: readonly DeploymentState[] = ['failed', 'removing', 'installing', 'pending', 'installed'];
const WRITTEN_SECOND_REMOVING: readonly DeploymentState[] = ['failed', 'installing', 'pending', 'removing', 'installed'];

function mostSevere(order: readonly DeploymentState[], components: readonly DeploymentState[]): DeploymentState {
  return components.reduce((worst, s) => (order.indexOf(s) < order.indexOf(worst) ? s : worst));
}

/**
 * The overall state under the kit's reading. With no component there is nothing to rank: `pending`, the state of
 * a deployment nothing has been done for yet (judgeOverallState calls any other answer ambiguous).
 */
export function overallState(components: readonly DeploymentState[]): DeploymentState {
  return components.length === 0 ? 'pending' : mostSevere(PRECEDENCE, components);
}

export interface JudgeOptions {
  /** `first` (default): only where `removed` sits is open. `either`: the second `removing` is a reading too. */
  repeatedRemoving?: 'first' | 'either';
}

export interface OverallJudgement {
  verdict: 'consistent' | 'inconsistent' | 'ambiguous';
  expected: DeploymentState;
  reason?: string;
}

/**
 * Every total order the written list allows: each base reading with `removed` inserted at each rank below
 * `failed`, which heads the list (a failed component never yields a report that is not failed).
 */
function writtenOrders(bases: readonly (readonly DeploymentState[])[]): DeploymentState[][] {
  return bases.flatMap((base) =>
    Array.from({ length: base.length }, (_, i) => [...base.slice(0, i + 1), 'removed' as const, ...base.slice(i + 1)]),
  );
}

function answers(bases: readonly (readonly DeploymentState[])[], components: readonly DeploymentState[]): Set<DeploymentState> {
  return new Set(writtenOrders(bases).map((order) => mostSevere(order, components)));
}

/**
 * Consistent when `reported` is the kit's answer; ambiguous when some other reading of the written list gives
 * `reported`; inconsistent when no reading does.
 */
export function judgeOverallState(
  reported: DeploymentState,
  components: readonly DeploymentState[],
  opts: JudgeOptions = {},
): OverallJudgement {
  const expected = overallState(components);
  if (reported === expected) return { verdict: 'consistent', expected };
  if (components.length === 0) {
    return {
      verdict: 'ambiguous',
      expected,
      reason: `§2.4: no component to rank; the kit expects "${expected}", the spec gives no rule (reported "${reported}")`,
    };
  }
  if (answers([WRITTEN_FIRST_REMOVING], components).has(reported)) {
    return {
      verdict: 'ambiguous',
      expected,
      reason: `§2.4: "${reported}" is the most severe state if "removed" ranks elsewhere; the precedence list omits "removed" (P7 reading gives "${expected}")`,
    };
  }
  if (opts.repeatedRemoving === 'either' && answers([WRITTEN_FIRST_REMOVING, WRITTEN_SECOND_REMOVING], components).has(reported)) {
    return {
      verdict: 'ambiguous',
      expected,
      reason: `§2.4: "${reported}" is the most severe state if the second "removing" of the precedence list counts (P7 reading gives "${expected}")`,
    };
  }
  return {
    verdict: 'inconsistent',
    expected,
    reason: `§2.4: status.state "${reported}" is not the most severe component state "${expected}" under any reading of the precedence list`,
  };
}
