// A fault: a reference service that breaks exactly one rule, so the kit can prove the check of that rule fails.
import type { OutgoingHttpHeaders } from 'node:http';
import type { RegistryDecisions } from '../registry/decisions.ts';
import type { Edition } from '../../spec/profile.ts';

/** `client`: a fault of the kit's own device client (simulators/faults/), run with persona device. */
export type ServiceName = 'wfm' | 'identity' | 'registry' | 'client';

/** What a response-level fault sees and may change: the request line and the whole answer. */
export interface AnswerView {
  method: string;
  /** Path and query as received. */
  url: string;
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
  /** Never send the answer: the request hangs until the client gives up or the service closes (an endpoint that hangs). */
  hang?: true;
}

export interface FaultDefinition {
  /** The requirement id it breaks (`CAP-PUT-201`), or `<ID>:<variant>` when several faults break one requirement. */
  id: string;
  service: ServiceName;
  /** The edition of the reference services it runs against (P10); default seed. */
  edition?: Edition;
  /** Requirement ids whose checks must fail against this fault (the first is the one named by `id`). */
  breaks: string[];
  /** One line: what the faulty service does, in the spec's words. */
  description: string;
  /** A response-level fault: rewrite the answer. Return undefined to leave it as is. */
  rewrite?: (answer: AnswerView) => AnswerView | undefined;
  /** A registry fault: replace single decisions of the reference registry. */
  registry?: Partial<RegistryDecisions>;
  /**
   * A behaviour-level fault carries neither: the service consults `faults.has(id)` at one named seam in its code
   * (search the service for the id). Use that only when no rewrite of the answer can express the defect.
   */
}

/** The faults switched on for one service instance. */
export type ActiveFaults = ReadonlySet<string>;

export const NO_FAULTS: ActiveFaults = new Set();
