// The signals of a wfmck command that runs children, each in a process group of its own (a terminal's Ctrl-C reaches
// only wfmck, which forwards it once: a second SIGINT would make Playwright stop without its reporters). SIGINT,
// SIGTERM and SIGHUP are caught, so a signal never kills wfmck outright; the first one is recorded and reaches every
// running child once, and with a grace period a child's group that has not stopped by then is killed.
import type { ChildProcess } from 'node:child_process';

const EXIT_BY_SIGNAL: Record<string, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

export function signalExitCode(signal: NodeJS.Signals): number {
  return EXIT_BY_SIGNAL[signal] ?? 130;
}

export interface Signals {
  caught: NodeJS.Signals | undefined;
  /** The running children; one started after the stop is stopped at once (add it with `started`). */
  children: Set<ChildProcess>;
  /** True when a child did not stop within the grace period and its group was killed. */
  killed: boolean;
  /** Adds a child just spawned, stopping it at once if the stop came while it was starting. */
  started(child: ChildProcess): void;
  /** Stops the children as a signal would, for a reason of wfmck's own. */
  stop(): void;
  dispose(): void;
}

export interface SignalOptions {
  /** What the children get: the caught signal itself (the default), or always this one (Playwright's graceful stop
   * is its SIGINT, whatever reached wfmck). */
  forwardAs?: NodeJS.Signals;
  /** How long the children get before their groups are killed; none: they stop in their own time. */
  graceMs?: number;
  /** Told of the first signal (a command without children stops its own work here, e.g. the fleet's abort). */
  onSignal?: (signal: NodeJS.Signals) => void;
  /** After the first signal, a second one takes its default action and kills (the fleet: its work is in-process). */
  secondKills?: boolean;
}

export function killGroup(child: ChildProcess | undefined, signal: NodeJS.Signals): void {
  if (child?.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is gone already.
  }
}

/** Catches SIGINT, SIGTERM and SIGHUP until dispose(); the first one stops the children, later ones are ignored (or kill). */
export function catchSignals(opts: SignalOptions = {}): Signals {
  let stopping = false;
  let deadline: NodeJS.Timeout | undefined;
  const forwarded = (): NodeJS.Signals => opts.forwardAs ?? state.caught ?? 'SIGINT';
  const state: Signals = {
    caught: undefined,
    children: new Set(),
    killed: false,
    started: (child) => {
      state.children.add(child);
      if (stopping) child.kill(forwarded());
    },
    stop: () => stopChildren(),
    dispose: () => {
      clearTimeout(deadline);
      for (const s of Object.keys(EXIT_BY_SIGNAL)) process.off(s, onSignal);
    },
  };
  function onSignal(signal: NodeJS.Signals): void {
    if (state.caught !== undefined) return;
    state.caught = signal;
    if (opts.secondKills) for (const s of Object.keys(EXIT_BY_SIGNAL)) process.off(s, onSignal);
    opts.onSignal?.(signal);
    stopChildren();
  }
  function stopChildren(): void {
    if (stopping) return;
    stopping = true;
    for (const child of state.children) child.kill(forwarded());
    if (opts.graceMs === undefined) return;
    deadline = setTimeout(() => {
      state.killed = true;
      for (const child of state.children) killGroup(child, 'SIGKILL');
    }, opts.graceMs);
    deadline.unref();
  }
  for (const s of Object.keys(EXIT_BY_SIGNAL)) process.on(s, onSignal);
  return state;
}
