// `wfmck client FOLDER|client.json`: the kit's own simulated device client, started from what a startClient hook gets
// (the folder an attended run writes for each check), running until Ctrl-C or until the folder says the check is done.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ANSWER_FILE, DONE_FILE, STARTED_FILE } from '../fixtures/attended-client.ts';
import { startClientRunner, type StartClientInput } from '../simulators/client-runner.ts';
import { EXIT_OK, UsageError } from './usage.ts';

const HELP = `usage: wfmck client FOLDER|client.json

Runs the kit's own simulated device client (plain device, see-thru or opaque gateway, as client.json's kind says)
against the WFM client.json names, with its certificate and key, until Ctrl-C. Given the folder an attended run
(wfmck run --persona device --attend) writes for a check, it also stops once that check is done.
`;

const REQUIRED = ['wfm', 'caPem', 'certPem', 'keyPem', 'edition', 'vendor'] as const;
const DONE_POLL_MS = 250;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: { help: { type: 'boolean', short: 'h' } }, allowPositionals: true });
  if (values.help) return void process.stdout.write(HELP), EXIT_OK;
  if (positionals.length !== 1) throw new UsageError(`client takes one FOLDER or client.json\n\n${HELP}`);
  const given = positionals[0]!;
  const folder = existsSync(given) && statSync(given).isDirectory() ? given : undefined;
  const input = readInput(folder ? join(folder, 'client.json') : given);
  const client = await startClientRunner(input);
  // An attended check waits for the client's first request, or for this file (when it may never reach the WFM).
  // What a startClient hook would answer goes first, so the check reads it once it sees `started`.
  if (folder) {
    const answer = { deviceId: client.deviceId, kind: client.kind, ...(client.opaque && { children: client.opaque.children, deploymentTypes: client.opaque.deploymentTypes }) };
    writeFileSync(join(folder, ANSWER_FILE), JSON.stringify(answer, null, 2) + '\n');
    writeFileSync(join(folder, STARTED_FILE), `${client.deviceId}\n`);
  }
  process.stdout.write(`wfmck client: ${client.kind} ${client.deviceId} talking to ${input.wfm}; Ctrl-C stops it\n`);
  let timer: NodeJS.Timeout | undefined;
  const why = await new Promise<string>((resolve) => {
    if (folder) timer = setInterval(() => existsSync(join(folder, DONE_FILE)) && resolve('its check is done'), DONE_POLL_MS);
    process.once('SIGINT', resolve).once('SIGTERM', resolve);
  });
  clearInterval(timer);
  await client.stop();
  process.stdout.write(`wfmck client: stopped (${why})\n`);
  return EXIT_OK;
}

function readInput(file: string): StartClientInput {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UsageError(`${file}: ${(e as Error).message}`);
  }
  const o = parsed as Record<string, unknown>;
  const missing = REQUIRED.filter((k) => typeof o?.[k] !== 'string');
  if (typeof parsed !== 'object' || parsed === null || missing.length) throw new UsageError(`${file}: not a startClient input (missing ${missing.join(', ')})`);
  if (o['restart'] !== undefined) throw new UsageError(`${file}: a restart needs the disk of the client that stopped, which only the run's own hooks keep`);
  return parsed as StartClientInput;
}
