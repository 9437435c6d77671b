// A gzip tar whose bytes depend only on the entries given: fixed owner, time and permissions, fixed gzip header.
import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';

export interface PackEntry {
  /** Archive path; a directory gets a trailing `/` if it has none. */
  name: string;
  type: 'file' | 'directory' | 'symlink';
  content?: Uint8Array;
  linkname?: string;
}

/** Every entry's mtime: the epoch, so a checkout's file times never change the bytes. */
export const FIXED_MTIME = new Date(0);
/** §2.7 rule 7 "SHOULD normalize permissions": no setuid/setgid/sticky, no group/other write, same on every machine. */
export const FILE_MODE = 0o644;
export const DIRECTORY_MODE = 0o755;
export const SYMLINK_MODE = 0o777;
const GZIP_LEVEL = 9;
/** RFC 1952 OS byte "unknown": zlib would write the build machine's OS there. */
const GZIP_OS_UNKNOWN = 0xff;

/** Entries are written in the order given; callers sort them. */
export async function packTarGz(entries: readonly PackEntry[]): Promise<Uint8Array> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const collected = (async () => {
    for await (const chunk of pack) chunks.push(chunk as Buffer);
  })();
  for (const e of entries) {
    const body = e.type === 'file' ? Buffer.from(e.content ?? new Uint8Array()) : Buffer.alloc(0);
    const header: Partial<tar.Header> & { name: string } = {
      name: e.type === 'directory' && !e.name.endsWith('/') ? `${e.name}/` : e.name,
      type: e.type,
      mode: e.type === 'directory' ? DIRECTORY_MODE : e.type === 'symlink' ? SYMLINK_MODE : FILE_MODE,
      mtime: FIXED_MTIME,
      uid: 0,
      gid: 0,
      uname: '',
      gname: '',
      size: body.byteLength,
      ...(e.linkname !== undefined ? { linkname: e.linkname } : {}),
    };
    await new Promise<void>((resolve, reject) => {
      pack.entry(header, body, (err) => (err ? reject(err) : resolve()));
    });
  }
  pack.finalize();
  await collected;
  return gzipFixed(Buffer.concat(chunks));
}

/** gzip with mtime 0 and no file name (zlib's defaults), a fixed level, and the OS byte set to "unknown". */
export function gzipFixed(bytes: Uint8Array): Uint8Array {
  const gz = new Uint8Array(gzipSync(bytes, { level: GZIP_LEVEL }));
  gz[9] = GZIP_OS_UNKNOWN;
  return gz;
}
