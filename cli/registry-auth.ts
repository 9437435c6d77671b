// Registry credentials from the options of run/options/option-sets.ts REGISTRY_AUTH, shared by publish and lint.
import type { RegistryAuth } from '../simulators/registry-client.ts';
import { UsageError } from '../run/options/usage.ts';

/** --token (bearer), or --username with --password (or WFMCK_REGISTRY_PASSWORD, which fills in for it), else anonymous. */
export function registryCredentials(values: Record<string, unknown>): RegistryAuth {
  const username = values.username as string | undefined;
  const token = values.token as string | undefined;
  if (token !== undefined && username !== undefined) throw new UsageError('--token: give it or --username, not both');
  if (token !== undefined) return { kind: 'bearer', token };
  if (username === undefined) return { kind: 'anonymous' };
  const password = values.password as string | undefined;
  if (password === undefined) throw new UsageError('--username: needs --password or WFMCK_REGISTRY_PASSWORD');
  return { kind: 'basic', username, password };
}
