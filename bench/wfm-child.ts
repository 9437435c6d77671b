// The reference WFM alone in its own process, so its CPU time (process.cpuUsage) is the target's and never the
// client's. Driven over IPC by wfm-process.ts: `start` -> `ready {url}`, `cpu` -> `cpu {user, system}`.
import { startWfm, type WfmService } from '../reference/wfm/server.ts';
import { resolveProfile, type Profile } from '../spec/profile.ts';

export interface StartMessage {
  type: 'start';
  tls: { cert: string; key: string };
  rootCaPem: string;
  deviceCaPem: string;
  profile: Partial<Profile>;
}

export type ChildMessage =
  { type: 'ready'; url: string } | { type: 'cpu'; user: number; system: number } | { type: 'failed'; message: string };

let wfm: WfmService | undefined;

function reply(message: ChildMessage): void {
  process.send?.(message);
}

process.on('message', (message: StartMessage | { type: 'cpu' }) => {
  if (message.type === 'cpu') return reply({ type: 'cpu', ...process.cpuUsage() });
  startWfm({
    tls: message.tls,
    rootCaPem: message.rootCaPem,
    trustedDeviceCaPems: [message.deviceCaPem],
    profile: resolveProfile(message.profile),
  })
    .then((service) => {
      wfm = service;
      reply({ type: 'ready', url: service.url });
    })
    .catch((err: Error) => reply({ type: 'failed', message: err.message }));
});

// The parent going away (even killed) takes the WFM with it.
process.on('disconnect', () => {
  void (wfm?.close() ?? Promise.resolve()).finally(() => process.exit(0));
});
