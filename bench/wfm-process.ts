// The reference WFM in a child process (wfm-child.ts), with the PKI a benchmark needs: a root CA and HTTPS
// certificate like the embedded default's, and a device CA the WFM trusts at onboarding.
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createRootCa, issueCertificate, type Issued } from '../protocol/pki.ts';
import type { Profile } from '../spec/profile.ts';
import type { ChildMessage, StartMessage } from './wfm-child.ts';

export interface BenchPki {
  root: Issued;
  server: Issued;
  deviceCa: Issued;
}

export async function benchPki(): Promise<BenchPki> {
  const root = await createRootCa('wfmck bench root CA');
  const server = await issueCertificate(root, {
    commonName: 'wfmck bench WFM',
    ipAddresses: ['127.0.0.1'],
    dnsNames: ['localhost'],
    usage: ['server'],
  });
  return { root, server, deviceCa: await createRootCa('wfmck bench device CA') };
}

export interface CpuTime {
  /** Microseconds, as process.cpuUsage() counts them. */
  user: number;
  system: number;
}

export interface WfmProcess {
  url: string;
  /** The child's CPU time so far. */
  cpu(): Promise<CpuTime>;
  close(): Promise<void>;
}

/** The kit's TypeScript loader (bin/typescript.mjs) by absolute URL, so the child finds it whatever its working directory. */
export function typescriptImport(): string[] {
  return ['--import', new URL('../bin/typescript.mjs', import.meta.url).href];
}

/** `bare`: a bare node:https server in the WFM's place (wfm-child.ts), the floor of one exchange. */
export async function startWfmProcess(pki: BenchPki, profile: Partial<Profile>, opts: { bare?: boolean } = {}): Promise<WfmProcess> {
  const child = fork(fileURLToPath(new URL('./wfm-child.ts', import.meta.url)), [], {
    execArgv: typescriptImport(),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const start: StartMessage = {
    type: 'start',
    tls: { cert: pki.server.certPem + pki.root.certPem, key: pki.server.keyPem },
    rootCaPem: pki.root.certPem,
    deviceCaPem: pki.deviceCa.certPem,
    profile,
    ...(opts.bare && { bare: true }),
  };
  child.send(start);
  const first = await next(child);
  if (first.type !== 'ready') {
    child.kill();
    throw new Error(`bench: the reference WFM did not start: ${first.type === 'failed' ? first.message : first.type}`);
  }
  return {
    url: first.url,
    cpu: async () => {
      child.send({ type: 'cpu' });
      const answer = await next(child);
      if (answer.type !== 'cpu') throw new Error(`bench: expected the WFM's CPU time, got ${answer.type}`);
      return { user: answer.user, system: answer.system };
    },
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.disconnect();
      await exited;
    },
  };
}

function next(child: ChildProcess): Promise<ChildMessage> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: ChildMessage) => {
      child.off('exit', onExit);
      resolve(m);
    };
    const onExit = (code: number | null) => {
      child.off('message', onMessage);
      reject(new Error(`bench: the reference WFM process exited (${code})`));
    };
    child.once('message', onMessage);
    child.once('exit', onExit);
  });
}

/** The measured part of a load: told when it begins and ends. */
export interface Window {
  begin(): Promise<void>;
  end(): Promise<void>;
}

/** Adds up a process's CPU time over every window it is handed to: the WFM's (over IPC) or this one's. */
export class CpuMeter implements Window {
  /** Milliseconds so far. */
  ms = 0;
  private at: CpuTime | undefined;

  constructor(private readonly sample: () => Promise<CpuTime>) {}

  static of(wfm: Pick<WfmProcess, 'cpu'>): CpuMeter {
    return new CpuMeter(() => wfm.cpu());
  }

  static ofThisProcess(): CpuMeter {
    return new CpuMeter(async () => process.cpuUsage());
  }

  async begin(): Promise<void> {
    this.at = await this.sample();
  }

  async end(): Promise<void> {
    const now = await this.sample();
    if (this.at) this.ms += (now.user - this.at.user + now.system - this.at.system) / 1000;
    this.at = undefined;
  }
}

/** One window told to several meters: the inner ones begin last and end first, so none counts another's sampling. */
export function windows(...inner: Window[]): Window {
  return {
    begin: async () => {
      for (const w of inner) await w.begin();
    },
    end: async () => {
      for (const w of [...inner].reverse()) await w.end();
    },
  };
}

/**
 * A load's measured part: `warmupMs` unmeasured, then `window` and `counting` told of `durationMs` measured. Resolves
 * with the measured seconds, read on this process's clock.
 */
export async function measuredPart(
  o: { warmupMs: number; durationMs: number },
  window: Window | undefined,
  counting: (on: boolean) => void,
) {
  await sleep(o.warmupMs);
  await window?.begin();
  counting(true);
  const t0 = performance.now();
  await sleep(o.durationMs);
  counting(false);
  const seconds = (performance.now() - t0) / 1000;
  await window?.end();
  return seconds;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
