// Listing tags: GET /v2/<name>/tags/list[?n=<int>][&last=<tag>] (end-8a, end-8b).
import { ociError } from './errors.ts';
import { requireRepository, type Route } from './context.ts';

/** `n` is a non-negative integer; the spec's code list has nothing closer than UNSUPPORTED for a bad one. */
function pageSize(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (!/^\d+$/.test(value)) throw ociError(400, 'UNSUPPORTED', 'n must be a non-negative integer', { n: value });
  return Math.min(Number(value), Number.MAX_SAFE_INTEGER);
}

export function nextLink(name: string, next: { n: number; last: string }): string {
  return `</v2/${name}/tags/list?n=${next.n}&last=${encodeURIComponent(next.last)}>; rel="next"`;
}

export const listTags: Route = ({ store, decisions }, req) => {
  const n = pageSize(req.query.get('n'));
  const last = req.query.get('last') ?? undefined;
  requireRepository(store, req.name);
  const page = decisions.pageTags(store.tags(req.name) ?? [], n, last);
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (page.next) headers.Link = nextLink(req.name, page.next);
  return { status: 200, headers, body: JSON.stringify({ name: req.name, tags: page.tags }) };
};
