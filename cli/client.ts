// `wfmck client FOLDER|client.json`: the kit's own simulated device client, started from what a startClient hook gets
// (the folder an attended run writes for each check), running until Ctrl-C or until the folder says the check is done.
import { writeSecretFileSync } from '../run/processes/secret-file.ts';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { join } from 'node:path';
import { ANSWER_FILE, DONE_FILE, STARTED_FILE } from '../run/processes/attended-client.ts';
import type { ClientDisk, RunningClient } from '../simulators/client-runner.ts';
import { startClientAnswer, type StartClientInput } from '../simulators/client-contract.ts';
import { EXIT_OK, InputError, UsageError } from '../run/options/usage.ts';
import { path } from '../run/options/args.ts';
import { helpText, parseCommand, type CommandSpec } from '../run/options/options.ts';

export const SPEC: CommandSpec = {
  name: 'client',
  usage: ['FOLDER|client.json [--state DIR]'],
  about: `Runs the kit's own simulated device client (plain device, see-thru or opaque gateway, as client.json's kind says)
against the WFM client.json names, with its certificate and key, until Ctrl-C or SIGTERM. Given a folder (the one an
attended run, wfmck run --persona device --attend, writes for a check) it writes answer.json and started there once
it runs, and stops once a file named done appears.

Hooks that act on a running client (removeChild, disconnectChild, changeCapabilities) reach it through its folder:
a request {"hook", "deviceId"} in control/<id>.json is carried out and answered in control/<id>.answer or .error.`,
  positionals: true,
  groups: [
    {
      options: [
        {
          flag: 'state',
          value: 'DIR',
          doc: "keep the client's disk (its deployments, its cached trust bundle) in DIR, one file per certificate, so a startClient input with restart keep-state finds it again (lose-state starts without it)",
          parse: path,
        },
      ],
    },
  ],
  after: 'examples/hooks/ uses it as a startClient/stopClient hook pair that runs the client in a process of its own.',
};

const REQUIRED = ['wfm', 'caPem', 'certPem', 'keyPem', 'edition', 'vendor'] as const;
const POLL_MS = 250;
/** Where hooks acting on a running client (examples/hooks/client-control.sh) leave their requests: `<id>.json`. */
const CONTROL_DIR = 'control';
const CONTROLS: Record<string, (c: RunningClient, deviceId: string) => Promise<void>> = {
  removeChild: (c, id) => c.removeChild(id),
  disconnectChild: (c, id) => c.disconnectChild(id),
  changeCapabilities: (c) => c.changeCapabilities(),
};

export async function run(argv: string[]): Promise<number> {
  const { help, values: checked, positionals } = parseCommand(SPEC, argv);
  if (help) return (void process.stdout.write(helpText(SPEC)), EXIT_OK);
  const values = checked as { state?: string };
  if (positionals.length === 0) throw new UsageError('<FOLDER|client.json>: missing: client takes one FOLDER or client.json');
  if (positionals.length > 1) throw new UsageError(`${positionals[1]}: unexpected argument (client takes one FOLDER or client.json)`);
  const given = positionals[0]!;
  const folder = existsSync(given) && statSync(given).isDirectory() ? given : undefined;
  const input = readInput(folder ? join(folder, 'client.json') : given, values.state !== undefined);
  // The simulator's modules (undici, faker, ajv, x509) load only now: --help and a bad input cost a fraction of them.
  const { diskKey, startClientRunner } = await import('../simulators/client-runner.ts');
  const diskFile = values.state === undefined ? undefined : join(values.state, `${diskKey(input.certPem).slice(0, 32)}.json`);
  const disk = diskFile && input.restart === 'keep-state' ? readDisk(diskFile) : {};
  const client = await startClientRunner(input, disk);
  // An attended check waits for the client's first request, or for this file (when it may never reach the WFM).
  // What a startClient hook would answer goes first, so the check reads it once it sees `started`.
  if (folder) {
    writeFileSync(join(folder, ANSWER_FILE), JSON.stringify(startClientAnswer(client), null, 2) + '\n');
    writeFileSync(join(folder, STARTED_FILE), `${client.deviceId}\n`);
  }
  process.stdout.write(`wfmck client: ${client.kind} ${client.deviceId} talking to ${input.wfm}; Ctrl-C stops it\n`);
  let signalled: string | undefined;
  process.once('SIGINT', (sig) => (signalled = sig)).once('SIGTERM', (sig) => (signalled = sig));
  let why: string;
  for (;;) {
    if (signalled) {
      why = signalled;
      break;
    }
    if (folder && existsSync(join(folder, DONE_FILE))) {
      why = 'its check is done';
      break;
    }
    if (folder) await obeyControls(join(folder, CONTROL_DIR), client);
    await delay(POLL_MS);
  }
  await client.stop();
  // The runner wrote what it keeps into `disk` as it stopped; a restart with the same certificate reads it back.
  if (diskFile) {
    mkdirSync(values.state!, { recursive: true });
    writeSecretFileSync(diskFile, JSON.stringify(disk) + '\n');
  }
  process.stdout.write(`wfmck client: stopped (${why})\n`);
  return EXIT_OK;
}

/** Carries out each request in `dir`, oldest first, and answers it beside it: `<id>.answer` or `<id>.error`. */
async function obeyControls(dir: string, client: RunningClient): Promise<void> {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const id = name.slice(0, -'.json'.length);
    let outcome: [string, string];
    try {
      const request = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { hook?: string; deviceId?: unknown };
      const control = CONTROLS[String(request.hook)];
      if (!control) throw new Error(`no such request ${JSON.stringify(request.hook)} (one of ${Object.keys(CONTROLS).join(', ')})`);
      await control(client, String(request.deviceId ?? ''));
      outcome = ['answer', '{}\n'];
    } catch (e) {
      outcome = ['error', `${(e as Error).message}\n`];
    }
    rmSync(join(dir, name), { force: true });
    writeFileSync(join(dir, `${id}.${outcome[0]}`), outcome[1]);
  }
}

function readDisk(file: string): ClientDisk {
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as ClientDisk;
  } catch (e) {
    throw new InputError(`${file}: the kept disk is no JSON (${(e as Error).message})`);
  }
}

function readInput(file: string, keepsState: boolean): StartClientInput {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new InputError(`${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  const o = parsed as Record<string, unknown>;
  const missing = REQUIRED.filter((k) => typeof o?.[k] !== 'string');
  if (typeof parsed !== 'object' || parsed === null || missing.length)
    throw new InputError(`${file}: not a startClient input (missing ${missing.join(', ')})`);
  if (o['restart'] !== undefined && o['restart'] !== 'keep-state' && o['restart'] !== 'lose-state')
    throw new InputError(`${file}: restart is keep-state or lose-state, not ${JSON.stringify(o['restart'])}`);
  if (o['restart'] === 'keep-state' && !keepsState)
    throw new UsageError(`--state: missing: ${file} restarts with keep-state, which needs the disk of the client that stopped`);
  return parsed as StartClientInput;
}
