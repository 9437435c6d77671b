// How a fault of the kit's own device client is implemented: the client decisions it replaces. Its id, breaks,
// description, edition and kind are data in faults/catalog.yaml; this is only what the faulty client does.
import type { ClientDecisions } from '../device/decisions/index.ts';
import type { MachineState } from '../device/machine.ts';

/** What a client knows when it starts: the state its disk kept (a restart), and the one a `lose-state` restart wiped. */
export interface ClientStart {
  restored?: MachineState;
  lost?: MachineState;
}

/**
 * The decisions a fault replaces, given those it is built on (the clean ones, or an earlier fault's when several are
 * on). Called once per start of the client, so whatever a faulty decision remembers belongs to that run of the client.
 */
export type ClientFaultImplementation = (base: ClientDecisions, start: ClientStart) => Partial<ClientDecisions>;

/** Implementations by fault id (faults/catalog.yaml): one table per area, joined in simulators/faults/index.ts. */
export type ClientFaultTable = Readonly<Record<string, ClientFaultImplementation>>;
