// Registry credentials from flags, shared by the commands that talk to an OCI registry (publish, lint).
import type { RegistryAuth } from '../simulators/registry-client.ts';
import { UsageError } from '../run/usage.ts';

/** --token (bearer), or --username with --password / WFMCK_REGISTRY_PASSWORD (basic), else anonymous. */
export function registryCredentials(values: Record<string, unknown>): RegistryAuth {
  const username = values.username as string | undefined;
  const token = values.token as string | undefined;
  if (token !== undefined && username !== undefined) throw new UsageError('give --token or --username, not both');
  if (token !== undefined) return { kind: 'bearer', token };
  if (username === undefined) return { kind: 'anonymous' };
  const password = (values.password as string | undefined) ?? process.env.WFMCK_REGISTRY_PASSWORD;
  if (password === undefined) throw new UsageError('--username needs --password or WFMCK_REGISTRY_PASSWORD');
  return { kind: 'basic', username, password };
}
