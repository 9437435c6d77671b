// Every client fault's implementation, by its id in faults/catalog.yaml, and the decisions of the kit's own client
// with some of them switched on: the clean decisions, each fault replacing its own.
import { cleanClientDecisions, type ClientDecisions } from '../device/decisions/index.ts';
import { implementations as capabilities } from './capabilities.ts';
import { implementations as compose } from './compose.ts';
import { implementations as connection } from './connection.ts';
import { implementations as desiredState } from './desired-state.ts';
import { implementations as documents } from './documents.ts';
import { implementations as gateways } from './gateways.ts';
import { implementations as status } from './status.ts';
import { implementations as trustBundle } from './trust-bundle.ts';
import type { ClientFaultImplementation, ClientFaultTable, ClientStart } from './types.ts';

/** The implementation tables of simulators/faults/, one per area. */
export const CLIENT_FAULT_AREAS: Readonly<Record<string, ClientFaultTable>> = {
  documents,
  capabilities,
  gateways,
  connection,
  compose,
  status,
  desiredState,
  trustBundle,
};

/** One table of every area's; an id implemented in two areas is a bug, named at load. */
function joined(areas: Readonly<Record<string, ClientFaultTable>>): ClientFaultTable {
  const all: Record<string, ClientFaultImplementation> = {};
  const where = new Map<string, string>();
  for (const [area, table] of Object.entries(areas)) {
    for (const [id, implementation] of Object.entries(table)) {
      if (where.has(id)) throw new Error(`client fault ${id} is implemented twice: in simulators/faults/ ${where.get(id)} and ${area}`);
      where.set(id, area);
      all[id] = implementation;
    }
  }
  return Object.freeze(all);
}

export const CLIENT_FAULTS: ClientFaultTable = joined(CLIENT_FAULT_AREAS);

/**
 * The decisions of the kit's client with faults `ids` on (client faults of faults/catalog.yaml), built at each start:
 * what a faulty decision remembers belongs to that run of the client. An unknown id is an error.
 */
export function clientVariant(ids: readonly string[], start: ClientStart = {}): ClientDecisions {
  let decisions = cleanClientDecisions;
  for (const id of ids) {
    const implementation = CLIENT_FAULTS[id];
    if (implementation === undefined) throw new Error(`unknown client fault "${id}" (known: ${Object.keys(CLIENT_FAULTS).join(', ')})`);
    decisions = { ...decisions, ...implementation(decisions, start) };
  }
  return decisions;
}
