// What `wfmck doctor --tests` does about missing Debian packages: as root with apt-get (a CI machine, a fresh
// container) it installs them, so `npm test` passes by itself; elsewhere it names the one command that does.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** A Debian package the kit's tests need, and whether apt-get would put its binary where doctor looks. */
export interface NeededPackage {
  pkg: string;
  present: boolean;
  /** False when WFMCK_*_BIN points elsewhere: apt-get cannot put it there, so doctor does not try. */
  installable: boolean;
}

/** The machine, as seams: tests inject these, so no test ever runs apt-get. */
export interface InstallSeams {
  uid: number | undefined;
  which: (cmd: string) => boolean;
  /** Runs `apt-get update` then `apt-get install` of pkgs; resolves to the exit code. */
  apt: (pkgs: readonly string[]) => Promise<number>;
  notice: (line: string) => void;
}

export type InstallPlan = { kind: 'nothing' } | { kind: 'install'; packages: string[] } | { kind: 'advise'; command: string };

/** The one command that installs what is missing, for whoever must type it. */
export function installCommand(packages: readonly string[], root: boolean): string {
  return `${root ? '' : 'sudo '}apt-get install -y ${packages.join(' ')}`;
}

export function planInstall(needed: readonly NeededPackage[], seams: Pick<InstallSeams, 'uid' | 'which'>): InstallPlan {
  const missing = needed.filter((n) => !n.present);
  if (missing.length === 0) return { kind: 'nothing' };
  const root = seams.uid === 0;
  const names = missing.map((n) => n.pkg);
  if (root && seams.which('apt-get') && missing.every((n) => n.installable)) return { kind: 'install', packages: names };
  return { kind: 'advise', command: installCommand(names, root) };
}

/**
 * Installs the missing packages when the plan says it can; returns the command to print when they are still
 * missing (undefined when apt-get succeeded: the caller checks again, which is the real proof).
 */
export async function installMissing(needed: readonly NeededPackage[], seams: InstallSeams): Promise<string | undefined> {
  const plan = planInstall(needed, seams);
  if (plan.kind === 'nothing') return undefined;
  if (plan.kind === 'advise') return plan.command;
  seams.notice(`wfmck doctor: installing ${plan.packages.join(' ')} (apt-get, as root) for the kit's own tests ...`);
  const code = await seams.apt(plan.packages);
  if (code === 0) return undefined;
  seams.notice(`wfmck doctor: apt-get exited ${code}`);
  return installCommand(plan.packages, true);
}

/** The real machine. */
export const SYSTEM: InstallSeams = {
  uid: process.getuid?.(),
  which: (cmd) => (process.env.PATH ?? '').split(delimiter).some((d) => d !== '' && existsSync(join(d, cmd))),
  apt: async (pkgs) => {
    // dpkg's progress goes to stdout and is dropped; apt-get's errors (stderr) reach the user.
    const child = spawn('sh', ['-c', `apt-get update -qq && apt-get install -y -qq ${pkgs.join(' ')}`], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    const [code] = (await once(child, 'exit')) as [number | null];
    return code ?? 1;
  },
  notice: (line) => void process.stdout.write(`${line}\n`),
};
