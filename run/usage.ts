// Exit codes shared by every command: 0 success, 1 a MUST failed, 2 usage/configuration error or unreachable target.
export type CommandResult = number;

export const EXIT_OK = 0;
export const EXIT_FAIL = 1;
export const EXIT_USAGE = 2;

export class UsageError extends Error {
  readonly code = 'WFMCK_E_USAGE';
}

export function usageError(message: string): number {
  process.stderr.write(`wfmck: ${message.trimEnd()}\n`);
  return EXIT_USAGE;
}
