// A synchronous ustar writer for faults that serve hostile compose archives: response rewrites are synchronous,
// and every header field is set by hand so an archive can carry what a careful packer never writes.
import { gzipSync } from 'node:zlib';

export interface RawEntry {
  name: string;
  type: 'file' | 'directory' | 'symlink' | 'link';
  content?: string;
  linkname?: string;
  mode?: number;
}

const BLOCK = 512;
const TYPEFLAG: Record<RawEntry['type'], string> = { file: '0', link: '1', symlink: '2', directory: '5' };
const DEFAULT_MODE: Record<RawEntry['type'], number> = { file: 0o644, link: 0o644, symlink: 0o777, directory: 0o755 };

export function tarGz(entries: readonly RawEntry[]): Buffer {
  return gzipSync(tar(entries));
}

export function tar(entries: readonly RawEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const body = Buffer.from(e.type === 'file' ? (e.content ?? '') : '', 'utf8');
    blocks.push(header(e, body.length), body, Buffer.alloc((BLOCK - (body.length % BLOCK)) % BLOCK));
  }
  blocks.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(blocks);
}

function header(e: RawEntry, size: number): Buffer {
  const h = Buffer.alloc(BLOCK);
  const name = e.type === 'directory' && !e.name.endsWith('/') ? `${e.name}/` : e.name;
  if (Buffer.byteLength(name) > 100) throw new Error(`tar-writer: name longer than 100 bytes: ${name}`);
  h.write(name, 0, 'utf8');
  h.write(octal(e.mode ?? DEFAULT_MODE[e.type], 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(0, 12), 136, 'ascii');
  h.write(TYPEFLAG[e.type], 156, 'ascii');
  if (e.linkname !== undefined) h.write(e.linkname, 157, 'utf8');
  h.write('ustar\u000000', 257, 'latin1');
  // The checksum is summed with its own field as spaces, then written as six octal digits, NUL, space.
  h.fill(0x20, 148, 156);
  const sum = h.reduce((n, b) => n + b, 0);
  h.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 'latin1');
  return h;
}

function octal(n: number, width: number): string {
  return `${n.toString(8).padStart(width - 1, '0')}\u0000`;
}
