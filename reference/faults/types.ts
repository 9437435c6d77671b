// How a fault of a reference service is implemented: decisions it replaces, or a rewrite of the service's answers.
// Its id, service, breaks and description are data in faults/catalog.yaml; this is only what the faulty variant does.
import type { IdentityDecisions } from '../identity/decisions.ts';
import type { RegistryDecisions } from '../registry/decisions.ts';
import type { WfmDecisions } from '../wfm/decisions/index.ts';
import type { Rewrite } from './rewrite.ts';

/**
 * The decisions a fault replaces, given those it is built on (the clean ones, or an earlier fault's when several are
 * on). Called once per service instance, so whatever a faulty decision remembers belongs to that instance.
 */
export type Overrides<D> = (base: D) => Partial<D>;

/** One member per form: the decisions of its service, or a rewrite of the answers (when no decision can express it). */
export interface ServiceFaultImplementation {
  wfm?: Overrides<WfmDecisions>;
  identity?: Overrides<IdentityDecisions>;
  registry?: Overrides<RegistryDecisions>;
  /** A fresh rewrite per service instance (any state it keeps, such as swapped layers, is that instance's). */
  rewrite?: () => Rewrite;
}

/** Implementations by fault id (faults/catalog.yaml): one table per spec area, joined in reference/faults/index.ts. */
export type ServiceFaultTable = Readonly<Record<string, ServiceFaultImplementation>>;
