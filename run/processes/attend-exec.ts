// Attended mode with the operator's command (`wfmck run --persona device --attend-exec 'CMD {folder}'`): the operator
// side of run/processes/attended-client.ts's folder protocol. For each check folder that appears under <out>/attend/ (once its
// client.json is there) the command runs with {folder} replaced by the folder's path, shell-quoted; its output is
// printed line by line behind the folder's number, and its exit noted. The command stops its client at `done`, as
// `wfmck client {folder}` does; one still running when the run ends is stopped.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export const FOLDER_PLACEHOLDER = '{folder}';
const POLL_MS = 200;
/** How long a command may take to stop on its own after the run ends (it should stop at `done`). */
const GRACE_MS = 5_000;

export interface AttendExecOptions {
  /** The run's attend folder (RunContext.attend.dir). */
  dir: string;
  /** The operator's command; {folder} is replaced by each folder's path, and WFMCK_ATTEND_FOLDER holds it. */
  command: string;
  /** Where the command's output and its exit go (one line each). */
  out?: (line: string) => void;
  err?: (line: string) => void;
}

export interface AttendExec {
  /** Stops watching; waits for running commands, then stops those left. Resolves to how each command ended. */
  stop(): Promise<AttendExecSummary>;
}

export interface AttendExecSummary {
  /** By folder name: the exit code, or the signal that ended it. */
  ended: Record<string, number | string>;
}

/** The command for one folder: every {folder} replaced by its path, quoted for a POSIX shell. */
export function commandFor(command: string, folder: string): string {
  return command.replaceAll(FOLDER_PLACEHOLDER, shellQuote(folder));
}

export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function startAttendExec(o: AttendExecOptions): AttendExec {
  const out = o.out ?? ((line) => void process.stdout.write(`${line}\n`));
  const err = o.err ?? ((line) => void process.stderr.write(`${line}\n`));
  const running = new Map<string, { child: ChildProcess; exited: Promise<void> }>();
  const ended: AttendExecSummary['ended'] = {};
  const start = (name: string) => {
    const folder = join(o.dir, name);
    const tag = `[attend ${name.slice(0, 3)}]`;
    // Its own process group, so stopping it stops everything it started.
    const child = spawn(commandFor(o.command, folder), {
      shell: true,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, WFMCK_ATTEND_FOLDER: folder },
    });
    out(`${tag} ${name}: ${commandFor(o.command, folder)}`);
    const lines = (stream: NodeJS.ReadableStream, write: (line: string) => void) =>
      new Promise<void>((done) =>
        createInterface({ input: stream, crlfDelay: Infinity })
          .on('line', (l) => write(`${tag} ${l}`))
          .on('close', done),
      );
    const streams = Promise.all([lines(child.stdout!, out), lines(child.stderr!, err)]);
    const exited = new Promise<void>((done) => {
      child.once('error', (e) => {
        ended[name] = 'ERROR';
        err(`${tag} could not start: ${e.message}`);
        done();
      });
      child.once('exit', (code, signal) => {
        void streams.then(() => {
          ended[name] = code ?? signal ?? 'unknown';
          (code === 0 ? out : err)(`${tag} exited ${code !== null ? code : `by ${signal}`}`);
          done();
        });
      });
    });
    running.set(name, { child, exited });
  };
  const scan = () => {
    if (!existsSync(o.dir)) return;
    for (const name of readdirSync(o.dir).sort()) {
      // client.json is written last (run/processes/attended-client.ts): with it, the folder is complete.
      if (!running.has(name) && existsSync(join(o.dir, name, 'client.json'))) start(name);
    }
  };
  const timer = setInterval(scan, POLL_MS);
  return {
    async stop() {
      clearInterval(timer);
      scan();
      const all = Promise.all([...running.values()].map((r) => r.exited));
      for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
        const grace = new Promise<'late'>((r) => setTimeout(r, GRACE_MS, 'late').unref());
        if ((await Promise.race([all, grace])) !== 'late') break;
        for (const [name, r] of running) {
          if (ended[name] !== undefined || r.child.pid === undefined) continue;
          err(`[attend ${name.slice(0, 3)}] still running after the run ended: stopping it (${signal})`);
          try {
            process.kill(-r.child.pid, signal);
          } catch {
            // already gone
          }
        }
      }
      await all;
      return { ended };
    },
  };
}
