// P10 (miaf): the reserved RFC 9457 problem types, their statuses and URIs, and how an answer is judged against them.
import type { Profile } from '../profile.ts';

/** Reserved problem type names and the one status each is answered with (P10). */
export const RESERVED_PROBLEMS = {
  'invalid-request': 400,
  'semantic-error': 422,
  'not-authorized': 403,
  'gateway-not-found': 404,
  'device-not-found': 404,
  'invalid-bundle': 404,
  'deployment-not-found': 404,
  'server-cannot-generate-response': 406,
} as const;

export type ProblemName = keyof typeof RESERVED_PROBLEMS;
export const ABOUT_BLANK = 'about:blank';
export const PROBLEM_JSON = 'application/problem+json';

/**
 * The standard's two registries disagree on the namespace; profile `problemTypeBase` picks one, `either` takes both.
 * `management-interface` is what the server writes by default (P10 names it first).
 */
export function problemTypeBases(vendor: string, base: Profile['problemTypeBase']): string[] {
  const managementInterface = `https://docs.${vendor}.org/specification/${vendor}-management-interface/problem-types#`;
  const specification = `https://docs.${vendor}.org/specification/problem-types#`;
  if (base === 'management-interface') return [managementInterface];
  if (base === 'specification') return [specification];
  return [managementInterface, specification];
}

/** The type URI a server writes for a reserved problem. */
export function problemTypeUri(name: ProblemName, vendor: string, base: Profile['problemTypeBase']): string {
  return problemTypeBases(vendor, base)[0]! + name;
}

/** The reserved name a type URI carries under the profile's namespaces, or undefined (about:blank, foreign, malformed). */
export function reservedNameOf(type: unknown, vendor: string, base: Profile['problemTypeBase']): ProblemName | undefined {
  if (typeof type !== 'string') return undefined;
  for (const prefix of problemTypeBases(vendor, base)) {
    if (!type.startsWith(prefix)) continue;
    const name = type.slice(prefix.length);
    if (Object.hasOwn(RESERVED_PROBLEMS, name)) return name as ProblemName;
  }
  return undefined;
}

/** P10: 429 and 503 are retryable (with Retry-After and exponential backoff); every other error is not. */
export function retryableStatus(status: number): boolean {
  return status === 429 || status === 503;
}
