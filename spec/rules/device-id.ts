// §2.1.1 `id` and §4.1 path parameter `deviceId`: `<id>[/<id>...]`, each id RFC 3986 unreserved characters.

/** One segment: RFC 3986 unreserved characters only (ALPHA / DIGIT / "-" / "." / "_" / "~"). */
const SEGMENT = /^[A-Za-z0-9._~-]+$/;
/** `.` and `..` are unreserved, but URL clients normalise them away (RFC 3986 §5.2.4), so `a/../b` would address `b`. */
const DOT_SEGMENTS = new Set(['.', '..']);

export type DeviceIdParse = { ok: true; segments: string[] } | { ok: false; reason: string };

export function parseDeviceId(id: string): DeviceIdParse {
  if (id === '') return { ok: false, reason: '§4.1: the first id is required; the deviceId is empty' };
  const segments = id.split('/');
  for (const [i, segment] of segments.entries()) {
    const reason = segmentProblem(segment, i);
    if (reason) return { ok: false, reason };
  }
  return { ok: true, segments };
}

function segmentProblem(segment: string, index: number): string | undefined {
  if (segment === '') return `§4.1: segment ${index} is empty (leading, trailing or doubled "/")`;
  if (DOT_SEGMENTS.has(segment)) {
    return `§4.1: segment ${index} is "${segment}", a dot segment that URL normalisation removes, so the path would address another device`;
  }
  if (!SEGMENT.test(segment)) {
    return `§4.1: segment ${index} "${segment}" has characters outside RFC 3986 unreserved (A-Z a-z 0-9 - . _ ~)`;
  }
  return undefined;
}

export function isValidDeviceId(id: string): boolean {
  return parseDeviceId(id).ok;
}

function segmentsOf(id: string): string[] | undefined {
  const parsed = parseDeviceId(id);
  return parsed.ok ? parsed.segments : undefined;
}

/** The gateway one level up; undefined for a root id and for an invalid id. */
export function parentOf(id: string): string | undefined {
  const segments = segmentsOf(id);
  if (!segments || segments.length < 2) return undefined;
  return segments.slice(0, -1).join('/');
}

/** Every gateway above `id`, root first, `id` itself excluded; [] for a root id and for an invalid id. */
export function ancestorsOf(id: string): string[] {
  const segments = segmentsOf(id) ?? [];
  return segments.slice(0, -1).map((_, i) => segments.slice(0, i + 1).join('/'));
}

/** Number of gateways above `id` (root = 0); -1 for an invalid id. */
export function depthOf(id: string): number {
  const segments = segmentsOf(id);
  return segments ? segments.length - 1 : -1;
}

/** True when `ancestorId` is a strict, whole-segment prefix of `id` (`ab/c` is not below `a`). */
export function isDescendantOf(id: string, ancestorId: string): boolean {
  return ancestorsOf(id).includes(ancestorId) && isValidDeviceId(ancestorId);
}

/** The full-hierarchy id of a device behind `parentId`; throws when either part is not a valid id. */
export function childId(parentId: string, localId: string): string {
  const parent = parseDeviceId(parentId);
  if (!parent.ok) throw new RangeError(`childId: parent: ${parent.reason}`);
  const reason = segmentProblem(localId, parent.segments.length);
  if (reason) throw new RangeError(`childId: local id: ${reason}`);
  return `${parentId}/${localId}`;
}
