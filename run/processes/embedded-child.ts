// The embedded default in a process of its own, driven over IPC by embedded-process.ts: `start` -> `ready` (URLs, the
// kit CA, the device CA and its key), `hook` -> `hooked` (a P5 hook run here), `cpu` -> `cpu`. The parent going away
// (even killed) takes the services with it.
import { loadIssued } from '../../protocol/pki.ts';
import type { Profile } from '../../spec/profile.ts';
import { startEmbedded, type Embedded } from './embedded.ts';
import { peakRssBytes } from '../../simulators/fleet/peak-rss.ts';

export interface StartMessage {
  type: 'start';
  id: number;
  profile: Profile;
  /** Seed edition: the device CA the WFM trusts (a fleet's --cert-cache keeps it); default a new one. */
  deviceCa?: { certPem: string; keyPem: string };
}

export interface HookMessage {
  type: 'hook';
  id: number;
  name: string;
  input: Record<string, unknown>;
}

export type ParentMessage = StartMessage | HookMessage | { type: 'cpu'; id: number };

export interface Ready {
  type: 'ready';
  id: number;
  wfm: string;
  registry: string;
  caPem: string;
  deviceCa: { certPem: string; keyPem: string };
  spiffe?: { trustDomain: string; wfmId: string };
  hooks: string[];
}

export type ChildMessage =
  | Ready
  | { type: 'hooked'; id: number; output?: object; error?: string }
  | { type: 'cpu'; id: number; user: number; system: number; maxRssBytes: number }
  | { type: 'failed'; id: number; message: string };

let embedded: Embedded | undefined;
const reply = (message: ChildMessage) => process.send?.(message);

async function start(message: StartMessage): Promise<Ready> {
  const deviceCa = message.deviceCa && (await loadIssued(message.deviceCa.certPem, message.deviceCa.keyPem));
  embedded = await startEmbedded({ profile: message.profile, ...(deviceCa && { deviceCa }) });
  return {
    type: 'ready',
    id: message.id,
    wfm: embedded.wfm,
    registry: embedded.registry,
    caPem: embedded.caPem,
    deviceCa: { certPem: embedded.deviceCa.certPem, keyPem: embedded.deviceCa.keyPem },
    ...(embedded.spiffe && { spiffe: embedded.spiffe }),
    hooks: Object.keys(embedded.hooks),
  };
}

process.on('message', (message: ParentMessage) => {
  if (message.type === 'cpu') return void reply({ type: 'cpu', id: message.id, ...process.cpuUsage(), maxRssBytes: peakRssBytes() });
  if (message.type === 'start')
    return void start(message).then(reply, (err: Error) => reply({ type: 'failed', id: message.id, message: err.stack ?? err.message }));
  const hook = embedded?.hooks[message.name];
  if (!hook) return void reply({ type: 'hooked', id: message.id, error: `no hook ${message.name}` });
  hook(message.input).then(
    (output) => reply({ type: 'hooked', id: message.id, output }),
    (err: Error) => reply({ type: 'hooked', id: message.id, error: err.message }),
  );
});

process.on('disconnect', () => {
  void (embedded?.close() ?? Promise.resolve()).finally(() => process.exit(0));
});
