// Parsing the requirement catalog's YAML costs every Playwright worker ~150 ms of CPU (a fault run boots several), while
// JSON.parse of the same data costs a few ms: the parsed form is kept as JSON in a private temp folder, keyed by a hash
// of the text and the parser's version, so only the first process after an edit runs the YAML parser (loaded then only).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

const require = createRequire(import.meta.url);

/**
 * `parse` of the yaml package (loaded on first use); with `memo`, memoised on disk. Throws exactly what yaml's parse
 * throws. Only files the kit ships ask for the memo: a test's many small texts would only fill the folder.
 */
export function parseYaml(text: string, memo = false): unknown {
  const file = memo ? memoFile(text) : undefined;
  if (file) {
    try {
      return JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      // Not memoised yet (or unreadable): parse below.
    }
  }
  const { parse } = require('yaml') as typeof import('yaml');
  const doc: unknown = parse(text);
  const json = JSON.stringify(doc);
  // Only what survives JSON unchanged is memoised (no -0, Infinity, undefined): a hit must equal a parse.
  if (file && json !== undefined && isDeepStrictEqual(JSON.parse(json), doc)) {
    try {
      const tmp = `${file}.${process.pid}`;
      writeFileSync(tmp, json, { mode: 0o600 });
      renameSync(tmp, file); // atomic: a concurrent worker reads the old state or the whole file
    } catch {
      // A read-only or full temp folder only costs the next process a parse.
    }
  }
  return doc;
}

/** Where the parse of `text` is memoised; undefined when this user has no private folder for it. */
export function memoFile(text: string): string | undefined {
  const dir = memoDir();
  return dir && join(dir, `${createHash('sha256').update(parserVersion()).update('\0').update(text).digest('hex')}.json`);
}

function parserVersion(): string {
  return (require('yaml/package.json') as { version: string }).version;
}

/** This user's folder, private (0700): undefined when it cannot be made so, and then nothing is memoised. */
function memoDir(): string | undefined {
  const dir = join(tmpdir(), `wfmck-yaml-memo-${process.getuid?.() ?? 'user'}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = statSync(dir);
    const mine = process.getuid === undefined || st.uid === process.getuid();
    return mine && (st.mode & 0o077) === 0 ? dir : undefined;
  } catch {
    return undefined;
  }
}
