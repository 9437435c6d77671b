// The embedded default in a child process (embedded-child.ts), for load: a fleet's devices and the services they
// load then run on separate cores, as they would against a real WFM, and the services' CPU is measured apart.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadIssued, type Issued } from '../../protocol/pki.ts';
import type { Hook } from '../../reference/admin.ts';
import type { Profile } from '../../spec/profile.ts';
import type { ChildMessage, ParentMessage, Ready } from './embedded-child.ts';
import { typescriptLoaderArgs } from './typescript-loader.ts';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export interface EmbeddedProcess {
  wfm: string;
  registry: string;
  caPem: string;
  deviceCa: Issued;
  spiffe?: { trustDomain: string; wfmId: string };
  /** The P5 hooks, each run in the child. */
  hooks: Record<string, Hook>;
  /** The child's CPU time so far, in microseconds (process.cpuUsage), and its peak RSS. */
  cpu(): Promise<{ user: number; system: number; maxRssBytes: number }>;
  close(): Promise<void>;
}

export async function startEmbeddedProcess(opts: { profile: Profile; deviceCa?: Issued }): Promise<EmbeddedProcess> {
  const child = fork(fileURLToPath(new URL('./embedded-child.ts', import.meta.url)), [], {
    execArgv: typescriptLoaderArgs(),
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, { resolve: (m: ChildMessage) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  let gone: Error | undefined;
  // Every message carries an id its answer repeats.
  const ask = (message: DistributiveOmit<ParentMessage, 'id'>) =>
    new Promise<ChildMessage>((resolve, reject) => {
      if (gone) return reject(gone);
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      child.send({ ...message, id });
    });
  child.on('message', (m: ChildMessage) => {
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    w?.resolve(m);
  });
  child.on('exit', (code, signal) => {
    gone = new Error(`the embedded services' process ended (${signal ?? `exit ${code}`})`);
    for (const w of waiting.values()) w.reject(gone);
    waiting.clear();
  });

  const ready = await ask({
    type: 'start',
    profile: opts.profile,
    ...(opts.deviceCa && { deviceCa: { certPem: opts.deviceCa.certPem, keyPem: opts.deviceCa.keyPem } }),
  }).catch((err: Error) => ({ type: 'failed' as const, id: -1, message: err.message }));
  if (ready.type !== 'ready') {
    child.kill();
    throw new Error(`the embedded services did not start: ${ready.type === 'failed' ? ready.message : ready.type}`);
  }
  const { wfm, registry, caPem, spiffe, hooks: names } = ready as Ready;
  const hook =
    (name: string): Hook =>
    async (input) => {
      const answer = await ask({ type: 'hook', name, input });
      if (answer.type !== 'hooked') throw new Error(`hook ${name}: unexpected answer ${answer.type}`);
      if (answer.error !== undefined) throw new Error(answer.error);
      return answer.output ?? {};
    };
  return {
    wfm,
    registry,
    caPem,
    deviceCa: opts.deviceCa ?? (await loadIssued(ready.deviceCa.certPem, ready.deviceCa.keyPem)),
    ...(spiffe && { spiffe }),
    hooks: Object.fromEntries(names.map((name) => [name, hook(name)])),
    cpu: async () => {
      const answer = await ask({ type: 'cpu' });
      if (answer.type !== 'cpu') throw new Error(`cpu: unexpected answer ${answer.type}`);
      return { user: answer.user, system: answer.system, maxRssBytes: answer.maxRssBytes };
    },
    close: async () => {
      if (gone) return;
      const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.disconnect();
      // A child that does not close its servers in 5 s is killed: a fleet's end never waits on it.
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await ended;
      clearTimeout(timer);
    },
  };
}
