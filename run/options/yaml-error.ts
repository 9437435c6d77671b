// A YAML syntax error as an editor shows it: file:line:column, the reason, the offending line and a caret under the
// column. Each line starts with "|" so the caret keeps its place when the usage printer trims the lines.
import { YAMLParseError } from 'yaml';

/** The usage message for `error` in the YAML `source` read from `path`; the first line of the message for any other error. */
export function yamlErrorMessage(path: string, source: string, error: unknown): string {
  const first = (error as Error).message.split('\n')[0]!;
  if (!(error instanceof YAMLParseError) || !error.linePos) return `${path}: not valid YAML: ${first}`;
  const { line, col } = error.linePos[0];
  const reason = first.replace(/ at line \d+, column \d+:?$/, '');
  const text = source.split(/\r?\n/)[line - 1] ?? '';
  // Tabs before the column stay tabs, so the caret lands under it in any tab width.
  const pad = text.slice(0, col - 1).replace(/[^\t]/g, ' ');
  return `${path}:${line}:${col}: not valid YAML: ${reason}\n| ${text}\n| ${pad}^`;
}
