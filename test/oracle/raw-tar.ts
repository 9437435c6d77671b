// A byte-level tar writer for the oracle: every header field is set by hand, so archives can carry what tar-stream's
// writer never emits (a decoy ustar name under a pax path, GNU long names, a prefix field in a GNU header, v7 headers).

export type HeaderFormat = 'ustar' | 'gnu' | 'v7';

export type RawRecord =
  | {
      kind: 'member';
      name: string;
      prefix?: string;
      typeflag: string;
      mode: number;
      linkname?: string;
      content?: string;
      format?: HeaderFormat;
    }
  /** A pax extended header ('x') for the next member, or a global one ('g'). */
  | { kind: 'pax'; global?: boolean; records: Record<string, string> }
  /** GNU long name ('L') or long link name ('K') for the next member. */
  | { kind: 'gnu-long'; link?: boolean; value: string }
  /** One block of zeros in the middle: some readers take it as the end of the archive. */
  | { kind: 'zero-block' };

const BLOCK = 512;
const encoder = new TextEncoder();

export function rawTar(records: readonly RawRecord[]): Uint8Array {
  const blocks: Uint8Array[] = [];
  for (const r of records) {
    if (r.kind === 'zero-block') blocks.push(new Uint8Array(BLOCK));
    else if (r.kind === 'pax')
      pushWithBody(blocks, header({ name: 'PaxHeader/x', typeflag: r.global ? 'g' : 'x', mode: 0o644 }), paxBody(r.records));
    else if (r.kind === 'gnu-long')
      pushWithBody(
        blocks,
        header({ name: '././@LongLink', typeflag: r.link ? 'K' : 'L', mode: 0o644, format: 'gnu' }),
        encoder.encode(`${r.value}\0`),
      );
    else pushWithBody(blocks, header(r), encoder.encode(r.typeflag === '0' || r.typeflag === '7' ? (r.content ?? '') : ''));
  }
  blocks.push(new Uint8Array(BLOCK * 2));
  const out = new Uint8Array(blocks.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of blocks) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}

/** POSIX pax records: `<length> <key>=<value>\n`, the length counting itself. */
export function paxBody(records: Record<string, string>): Uint8Array {
  let text = '';
  for (const [key, value] of Object.entries(records)) {
    const rest = ` ${key}=${value}\n`;
    let len = encoder.encode(rest).length + 1;
    while (String(len).length + encoder.encode(rest).length !== len) len++;
    text += `${len}${rest}`;
  }
  return encoder.encode(text);
}

interface HeaderFields {
  name: string;
  prefix?: string;
  typeflag: string;
  mode: number;
  linkname?: string;
  format?: HeaderFormat;
}

/** The header, with its size field written by pushWithBody. */
function header(f: HeaderFields): Uint8Array {
  const buf = new Uint8Array(BLOCK);
  put(buf, 0, 100, f.name);
  put(buf, 100, 8, octal(f.mode & 0o7777, 7));
  put(buf, 108, 8, octal(0, 7));
  put(buf, 116, 8, octal(0, 7));
  put(buf, 136, 12, octal(0, 11));
  put(buf, 156, 1, f.typeflag);
  put(buf, 157, 100, f.linkname ?? '');
  const format = f.format ?? 'ustar';
  if (format === 'ustar') put(buf, 257, 8, 'ustar\u000000');
  if (format === 'gnu') put(buf, 257, 8, 'ustar  \u0000');
  if (format !== 'v7') {
    put(buf, 329, 8, octal(0, 7));
    put(buf, 337, 8, octal(0, 7));
  }
  put(buf, 345, 155, f.prefix ?? '');
  return buf;
}

function pushWithBody(blocks: Uint8Array[], head: Uint8Array, body: Uint8Array): void {
  put(head, 124, 12, octal(body.length, 11));
  put(head, 148, 8, '        ');
  const sum = head.reduce((n, b) => n + b, 0);
  put(head, 148, 8, `${sum.toString(8).padStart(6, '0')}\u0000 `);
  blocks.push(head);
  if (body.length === 0) return;
  const padded = new Uint8Array(Math.ceil(body.length / BLOCK) * BLOCK);
  padded.set(body);
  blocks.push(padded);
}

function put(buf: Uint8Array, at: number, width: number, text: string): void {
  const bytes = encoder.encode(text);
  if (bytes.length > width) throw new RangeError(`${JSON.stringify(text)} does not fit ${width} bytes at ${at}`);
  buf.set(bytes, at);
}

function octal(n: number, digits: number): string {
  return `${n.toString(8).padStart(digits, '0')}\u0000`;
}
