// What the reference WFM decides about the shape of its answers: RFC 9457 problem details (P10), the 429 of its
// polling budget, the HTTP version. A faulty variant replaces single decisions (reference/faults/miaf.ts).
import { PROBLEM_JSON, type ProblemName } from '../../../spec/rules/problem-types.ts';

export interface ProblemDecisions {
  /**
   * P10: the type of a problem, given the reserved condition it is (undefined: none): a reserved name, `about:blank`,
   * or `none` for a problem without a type member.
   */
  problemType(reserved: ProblemName | undefined): ProblemName | 'about:blank' | 'none';
  /** P10: the `retryable` a problem claims, given whether its status is one a client may retry. */
  claimsRetryable(retryable: boolean): boolean;
  /** P10: a 422 problem lists its field errors (`errors`). */
  listsFieldErrors: boolean;
  /** P10: the Content-Type of a problem. */
  problemContentType: string;
  /** P10: a 429 says when to come back (Retry-After). */
  sendsRetryAfter: boolean;
  /** P10: the HTTP version of every answer's status line. */
  statusLineVersion: 'HTTP/1.1' | 'HTTP/1.0';
}

export const cleanProblemDecisions: ProblemDecisions = {
  problemType: (reserved) => reserved ?? 'about:blank',
  claimsRetryable: (retryable) => retryable,
  listsFieldErrors: true,
  problemContentType: PROBLEM_JSON,
  sendsRetryAfter: true,
  statusLineVersion: 'HTTP/1.1',
};
