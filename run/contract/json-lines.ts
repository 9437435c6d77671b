// A file of one JSON value per line, appended by processes that may be killed mid-write (the records a reporter
// streams, the hook failures both workers note): read back whole, a torn line left out.
import { existsSync, readFileSync } from 'node:fs';

/** Every whole line of `file` parsed; none when it does not exist. The caller knows what its lines hold. */
export function readJsonLines<T>(file: string): T[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => {
      try {
        return line.trim() ? [JSON.parse(line) as T] : [];
      } catch {
        return [];
      }
    });
}
