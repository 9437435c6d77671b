// §5 with RFC 9110 §15.5.4: a client does not automatically repeat a request the WFM refused with 403. The catalog
// errata of CLIENT-403-NOT-REPEATED fix the reading: more than REPEAT_LIMIT of the same request (method and path,
// query ignored) within REPEAT_WINDOW_MS of the first 403 is automatic repetition; fewer is a client's own cadence.

export const REPEAT_LIMIT = 5;
export const REPEAT_WINDOW_MS = 10_000;

export interface SentRequest {
  seq: number;
  /** ISO time the WFM received it. */
  at: string;
  method: string;
  target: string;
  status: number;
}

const requestOf = (x: SentRequest) => `${x.method} ${x.target.split('?')[0]}`;

/** The first request answered 403, and each later one that repeats it within the window. */
export function repeatsAfterRefusal(sent: readonly SentRequest[]): { refused?: SentRequest; repeats: SentRequest[] } {
  const refused = sent.find((x) => x.status === 403);
  if (!refused) return { repeats: [] };
  const until = Date.parse(refused.at) + REPEAT_WINDOW_MS;
  const repeats = sent.filter((x) => x.seq > refused.seq && requestOf(x) === requestOf(refused) && Date.parse(x.at) <= until);
  return { refused, repeats };
}

/** Whether the repeats are automatic repetition by the errata's reading. */
export function repeatedAutomatically(repeats: readonly SentRequest[]): boolean {
  return repeats.length > REPEAT_LIMIT;
}
