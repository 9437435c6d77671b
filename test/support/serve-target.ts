// The kit's own reference services as a target, the way a vendor's WFM is one: `wfmck serve` in a child process, and a
// wfmck.config.yaml naming its URLs, CA files and hooks (examples/hooks/serve-admin.sh forwards each to its admin API).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { WFMCK_BIN } from './wfmck-cli.ts';

export const SERVE_ADMIN_HOOK = fileURLToPath(new URL('../../examples/hooks/serve-admin.sh', import.meta.url));

export interface Served {
  info: Record<string, string | string[]>;
  /** What the hook script needs: the admin API and its token. */
  env: Record<string, string>;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function startServe(args: string[]): Promise<Served> {
  const child = spawn(process.execPath, [WFMCK_BIN, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const line = await Promise.race([
    once(createInterface({ input: child.stdout! }), 'line').then(([l]) => l as string),
    once(child, 'exit').then(([code]) => Promise.reject(new Error(`wfmck serve exited ${code}: ${stderr}`))),
  ]);
  const info = JSON.parse(line) as Served['info'];
  return {
    info,
    env: { WFMCK_ADMIN: String(info.admin), WFMCK_ADMIN_TOKEN: String(info.adminToken) },
    child,
    stop: async () => {
      // Gone already (it exited, or a test killed it).
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** A configuration that certifies `served` as a target, every hook its admin API offers bound to the forwarding script. */
export function targetConfig(served: Served, dir: string, extra: Record<string, unknown> = {}): string {
  const i = served.info;
  const miaf = i.edition === 'miaf';
  const hooks = [
    'assignDeployment',
    'removeDeployment',
    'retireClient',
    'rotateTrustAnchor',
    'withdrawIdentityDocument',
    ...(miaf ? ['admitClient', 'issueClientSvid'] : []),
  ];
  const config = {
    ...(miaf && { edition: 'miaf' }),
    targets: {
      wfm: i.wfm,
      identity: i.identity,
      registry: i.registry,
      ...(Array.isArray(i.extraDiscovery) && { extraDiscovery: i.extraDiscovery }),
      ...(miaf && { trustDomain: i.trustDomain, wfmId: i.wfmId }),
      // Its assignDeployment takes package {repository, version} and pulls from a registry the kit runs (§4.7 checks).
      kitRegistry: true,
    },
    tls: { caFiles: [i.caFile] },
    deviceCa: { certFile: i.deviceCaCertFile, keyFile: i.deviceCaKeyFile },
    hooks: Object.fromEntries(hooks.map((h) => [h, SERVE_ADMIN_HOOK])),
    ...extra,
  };
  const file = join(dir, 'wfmck.config.yaml');
  writeFileSync(file, stringify(config));
  return file;
}
