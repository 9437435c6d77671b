// Which faults prove a requirement's checks (they make them fail), and which checked requirements no fault proves. Pure.
import type { FaultProof, RequirementResult } from './matrix.ts';
import type { FaultEntry } from '../faults/catalog.ts';

/** The faults whose `breaks` names this requirement, in catalog order. */
export function faultsProving(id: string, faults: readonly FaultEntry[]): FaultProof[] {
  return [...(proofIndex(faults).get(id) ?? [])];
}

/** Requirement id -> the faults that break it, built once per catalog (a report asks for each of ~370 requirements). */
const indexes = new WeakMap<readonly FaultEntry[], Map<string, FaultProof[]>>();
function proofIndex(faults: readonly FaultEntry[]): Map<string, FaultProof[]> {
  let index = indexes.get(faults);
  if (index) return index;
  index = new Map();
  for (const f of faults)
    for (const id of new Set(f.breaks)) index.set(id, [...(index.get(id) ?? []), { id: f.id, description: f.description }]);
  indexes.set(faults, index);
  return index;
}

/**
 * Each requirement with the faults that prove its checks; one that tests check but no fault proves is `unproven`
 * (STYLE: a check never shown to fail against a faulty service is not trusted).
 */
export function withFaultProof(results: readonly RequirementResult[], faults: readonly FaultEntry[]): RequirementResult[] {
  return results.map(({ faults: _old, unproven: _was, ...r }) => {
    const proof = faultsProving(r.id, faults);
    return { ...r, faults: proof, ...(r.tests.length > 0 && proof.length === 0 && { unproven: true as const }) };
  });
}

/** Requirements with a check in the suites and no fault whose `breaks` names them, in id order. */
export function unprovenRequirements(checked: Iterable<string>, faults: readonly FaultEntry[]): string[] {
  const proven = new Set(faults.flatMap((f) => f.breaks));
  return [...new Set(checked)].filter((id) => !proven.has(id)).sort();
}
