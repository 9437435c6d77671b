// Exit codes and error lines shared by every command. The same situation exits the same way in every command:
//   0   success
//   1   the thing judged failed: a requirement (run, merge-reports, lint, publish), a signature (verify-report), a fleet
//   2   no verdict to give: a usage or configuration error, a missing, unreadable or mismatched input (file, folder,
//       shard), an unreachable target, a kit error
//   129 / 130 / 143  stopped by SIGHUP / SIGINT / SIGTERM
export type CommandResult = number;

export const EXIT_OK = 0;
export const EXIT_FAIL = 1;
export const EXIT_USAGE = 2;

/** A bad option or value: `<option>: <what is wrong>`, one line; printed with a pointer to the command's --help. */
export class UsageError extends Error {
  readonly code: string = 'WFMCK_E_USAGE';
}

/** A named input (file, folder, shard) that is missing, unreadable or does not fit the others: exit 2, one line. */
export class InputError extends Error {
  readonly code = 'WFMCK_E_INPUT';
}

/**
 * The one style of a usage error: `wfmck <cmd>: <option>: <what is wrong>`, then where the options are listed. Several
 * problems found at once (one per line of `message`) are one such line each.
 */
export function usageLines(command: string | undefined, message: string): string {
  const who = command ? `wfmck ${command}` : 'wfmck';
  const lines = message
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return `${lines.map((l) => `${who}: ${l}\n`).join('')}see ${who} --help\n`;
}

/** Any other error of a command, once: `wfmck <cmd>: <CODE>: <message>` (a Node error's message already starts with its code). */
export function errorLine(command: string, err: Error & { code?: unknown }): string {
  const code = typeof err.code === 'string' ? err.code : 'WFMCK_E_INTERNAL';
  const message = oneLine(err.message);
  return `wfmck ${command}: ${message.startsWith(`${code}:`) ? message : `${code}: ${message}`}\n`;
}

/** True for the errors printed as usage errors: the kit's own and those of modules that name a flag (FleetSpecError). */
export function isUsageError(err: unknown): err is Error {
  const code = (err as { code?: unknown } | null)?.code;
  return err instanceof Error && typeof code === 'string' && code.startsWith('WFMCK_E_USAGE');
}

function oneLine(message: string): string {
  return message.trim().replace(/\s*\n\s*/g, '; ');
}
