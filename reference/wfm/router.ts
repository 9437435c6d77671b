// The Device API routes of the reference WFM (interfaces.md §4.1-§4.4, P2-P4) and path matching: 404, 405, 400.
import { parseDeviceId } from '../../spec/rules/device-id.ts';
import type { Profile } from '../../spec/profile.ts';
import { cleanWfmDecisions, type CapabilitiesDecisions } from './decisions/index.ts';
import { deleteCapabilities, putCapabilities } from './capabilities.ts';
import type { WfmContext, WfmRequest } from './context.ts';
import { getBundle, getDeployment, getManifest } from './desired-state.ts';
import { WfmError, type Reply } from './http.ts';
import { certificateApi, onboard } from './onboarding.ts';
import { postStatus } from './status.ts';

export type RouteHandler = (ctx: WfmContext, req: WfmRequest) => Reply | Promise<Reply>;

interface Route {
  /** Literal segments, `:name` for one segment, `*deviceId` for the rest of the path (one or more segments). */
  pattern: string[];
  methods: Record<string, RouteHandler>;
}

export type RouteMatch =
  | { kind: 'found'; handler: RouteHandler; rawParams: Record<string, string> }
  | { kind: 'not-found' }
  | { kind: 'method-not-allowed'; allow: string[] };

export function routesFor(profile: Profile, decisions: Pick<CapabilitiesDecisions, 'takesPostAsPut'> = cleanWfmDecisions): Route[] {
  const capabilities =
    profile.paths === 'client-scoped' ? '/api/v1/clients/:clientId/capabilities/*deviceId' : '/api/v1/capabilities/*deviceId';
  const states = profile.deploymentsPath === 'caller' ? '/api/v1' : '/api/v1/clients/:clientId';
  const table: [string, Record<string, RouteHandler>][] = [
    // P10: with mutual TLS there is no Certificate API and no onboarding call; the SVID is the client.
    ...(profile.deviceAuth === 'mtls'
      ? []
      : ([
          [profile.certificatePath, { GET: certificateApi }],
          ['/api/v1/onboarding', { POST: onboard }],
        ] as [string, Record<string, RouteHandler>][])),
    [capabilities, { PUT: putCapabilities, DELETE: deleteCapabilities, ...(decisions.takesPostAsPut && { POST: putCapabilities }) }],
    ['/api/v1/deployments/:deploymentId/status', { POST: postStatus }],
    [`${states}/deployments`, { GET: getManifest }],
    [`${states}/deployments/:deploymentId/:digest`, { GET: getDeployment }],
    [`${states}/bundles/:digest`, { GET: getBundle }],
  ];
  return table.map(([path, methods]) => ({ pattern: path.split('/'), methods: withHead(methods) }));
}

function withHead(methods: Record<string, RouteHandler>): Record<string, RouteHandler> {
  return methods['GET'] ? { ...methods, HEAD: methods['GET'] } : methods;
}

/** Matches the raw (still percent-encoded) path; the first route whose shape fits decides 405 versus 404. */
export function matchRoute(routes: Route[], method: string, rawPath: string): RouteMatch {
  const segments = rawPath.split('/');
  for (const route of routes) {
    const rawParams = matchPattern(route.pattern, segments);
    if (!rawParams) continue;
    const handler = route.methods[method];
    return handler ? { kind: 'found', handler, rawParams } : { kind: 'method-not-allowed', allow: Object.keys(route.methods) };
  }
  return { kind: 'not-found' };
}

function matchPattern(pattern: string[], segments: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]!;
    if (p.startsWith('*')) {
      if (segments.length <= i) return undefined;
      params[p.slice(1)] = segments.slice(i).join('/');
      return params;
    }
    const s = segments[i];
    if (s === undefined) return undefined;
    if (p.startsWith(':')) {
      if (s === '') return undefined;
      params[p.slice(1)] = s;
    } else if (p !== s) return undefined;
  }
  return segments.length === pattern.length ? params : undefined;
}

/** Percent-decodes path parameters (400 when malformed); a deviceId is decoded segment by segment, then checked. */
export function decodeParams(raw: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    const segments = name === 'deviceId' ? value.split('/') : [value];
    const decoded = segments.map((s) => decodeSegment(name, s));
    if (name === 'deviceId') {
      // A decoded "/" inside one segment (%2F) is not a separator, and no unreserved character.
      const bad = decoded.find((s) => s.includes('/'));
      const parsed =
        bad === undefined ? parseDeviceId(decoded.join('/')) : { ok: false as const, reason: `segment "${bad}" contains an encoded "/"` };
      if (!parsed.ok) throw new WfmError(400, `malformed deviceId in the path: ${parsed.reason}`);
    }
    out[name] = decoded.join('/');
  }
  return out;
}

function decodeSegment(name: string, segment: string): string {
  // Without a "%" there is nothing to decode, and decodeURIComponent would return the segment as it is.
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new WfmError(400, `malformed path parameter ${name}: bad percent-encoding in "${segment.slice(0, 100)}"`);
  }
}
