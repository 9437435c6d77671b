// Every fault the kit proves its checks with: the reference services' (reference/faults/), then its own client's
// (simulators/faults/, persona device). The harness runs them; the reports name them beside the requirements.
import { FAULTS } from '../../reference/faults/catalog.ts';
import { CLIENT_FAULT_ENTRIES } from '../../simulators/faults/client-faults.ts';
import type { FaultEntry } from './plan.ts';

export const ALL_FAULTS: readonly FaultEntry[] = Object.freeze([...FAULTS, ...CLIENT_FAULT_ENTRIES]);
