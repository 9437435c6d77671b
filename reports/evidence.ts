// Evidence as a report keeps it: the `evidence` attachment of a test (a JSON array of Exchange), checked field by
// field, since a hostile target shaped its contents and a broken attachment must not break the report.
import type { Exchange } from '../protocol/exchange.ts';
import { MAX_EVIDENCE } from './matrix.ts';

export const EVIDENCE_ATTACHMENT = 'evidence';
/** Bodies are trimmed by the transport already; this bound only stops an oversized attachment bloating the report. */
export const MAX_BODY_CHARS = 16 * 1024;
const MAX_HEADER_CHARS = 2 * 1024;

/** Exchanges parsed from attachment texts, in order, at most MAX_EVIDENCE; malformed entries are counted, not thrown. */
export function parseEvidence(texts: readonly string[]): { exchanges: Exchange[]; malformed: number } {
  const exchanges: Exchange[] = [];
  let malformed = 0;
  for (const text of texts) {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      malformed += 1;
      continue;
    }
    for (const item of Array.isArray(doc) ? doc : [doc]) {
      const x = exchangeOf(item);
      if (x === undefined) malformed += 1;
      else if (exchanges.length < MAX_EVIDENCE) exchanges.push(x);
    }
  }
  return { exchanges, malformed };
}

function exchangeOf(raw: unknown): Exchange | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const o = raw as Record<string, unknown>;
  if (typeof o.method !== 'string' || typeof o.url !== 'string') return undefined;
  const error = o.error as { code?: unknown; message?: unknown } | undefined;
  return {
    id: str(o.id) ?? '',
    ...(str(o.testId) !== undefined && { testId: str(o.testId) }),
    method: trim(o.method, 32),
    url: trim(o.url, MAX_HEADER_CHARS),
    requestHeaders: headers(o.requestHeaders),
    ...(str(o.requestBody) !== undefined && { requestBody: trim(str(o.requestBody)!, MAX_BODY_CHARS) }),
    ...(typeof o.status === 'number' && { status: o.status }),
    ...(o.responseHeaders !== undefined && { responseHeaders: headers(o.responseHeaders) }),
    ...(str(o.responseBody) !== undefined && { responseBody: trim(str(o.responseBody)!, MAX_BODY_CHARS) }),
    startedAt: str(o.startedAt) ?? '',
    durationMs: typeof o.durationMs === 'number' ? o.durationMs : 0,
    attempt: typeof o.attempt === 'number' ? o.attempt : 1,
    ...(typeof (o.awaiting as { deadlineMs?: unknown } | undefined)?.deadlineMs === 'number' && {
      awaiting: { deadlineMs: (o.awaiting as { deadlineMs: number }).deadlineMs },
    }),
    ...(error &&
      typeof error.message === 'string' && {
        error: {
          code: String(error.code ?? 'WFMCK_E_PROTOCOL') as NonNullable<Exchange['error']>['code'],
          message: trim(error.message, MAX_HEADER_CHARS),
        },
      }),
  };
}

function headers(raw: unknown): Record<string, string> {
  if (typeof raw !== 'object' || raw === null) return {};
  return Object.fromEntries(
    Object.entries(raw as Record<string, unknown>).map(([k, v]) => [trim(k, 256), trim(String(v), MAX_HEADER_CHARS)]),
  );
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function trim(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}... (${s.length - max} more characters)` : s;
}
