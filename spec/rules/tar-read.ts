// Reads a (gzip) tar into TarEntry values in memory, within limits, so the archive rules can judge it unextracted.
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import tar from 'tar-stream';
import type { TarEntry } from './compose-archive.ts';
import { headerAmbiguities } from './tar-headers.ts';

export interface TarLimits {
  /** Entries beyond this abort the read. */
  maxEntries?: number;
  /** Uncompressed tar bytes beyond this abort the read (decompression bombs). */
  maxBytes?: number;
  /** Regular files up to this size keep their bytes in `content` (compose.yaml, env files); larger ones do not. */
  maxFileBytesKept?: number;
}

/** Kit defaults; §8 leaves archive sizes unstated, and compose archives are small. */
export const DEFAULT_TAR_LIMITS: Required<TarLimits> = Object.freeze({
  maxEntries: 10_000,
  maxBytes: 64 * 1024 * 1024,
  maxFileBytesKept: 1024 * 1024,
});

export type ArchiveErrorCode =
  'WFMCK_E_ARCHIVE_TOO_LARGE' | 'WFMCK_E_ARCHIVE_TOO_MANY_ENTRIES' | 'WFMCK_E_ARCHIVE_CORRUPT' | 'WFMCK_E_ARCHIVE_AMBIGUOUS';

export class ArchiveReadError extends Error {
  readonly code: ArchiveErrorCode;
  constructor(code: ArchiveErrorCode, message: string) {
    super(message);
    this.name = 'ArchiveReadError';
    this.code = code;
  }
}

const gunzipAsync = promisify(gunzip);

/** Gunzip (output capped at maxBytes) then read the tar. */
export async function readTarGz(bytes: Uint8Array, limits: TarLimits = {}): Promise<TarEntry[]> {
  const { maxBytes } = { ...DEFAULT_TAR_LIMITS, ...limits };
  let tarBytes: Buffer;
  try {
    tarBytes = await gunzipAsync(bytes, { maxOutputLength: maxBytes });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) {
      throw new ArchiveReadError('WFMCK_E_ARCHIVE_TOO_LARGE', `archive decompresses to more than ${maxBytes} bytes`);
    }
    throw new ArchiveReadError('WFMCK_E_ARCHIVE_CORRUPT', `archive is not valid gzip: ${err.message}`);
  }
  return readTar(tarBytes, limits);
}

/** Read an uncompressed tar whose headers every reader names alike (tar-headers.ts); pax and GNU long-name records are folded into the entries they describe. */
export async function readTar(bytes: Uint8Array, limits: TarLimits = {}): Promise<TarEntry[]> {
  const { maxEntries, maxBytes, maxFileBytesKept } = { ...DEFAULT_TAR_LIMITS, ...limits };
  if (bytes.byteLength > maxBytes)
    throw new ArchiveReadError('WFMCK_E_ARCHIVE_TOO_LARGE', `tar is ${bytes.byteLength} bytes, over ${maxBytes}`);
  const ambiguous = headerAmbiguities(bytes);
  if (ambiguous.length > 0)
    throw new ArchiveReadError('WFMCK_E_ARCHIVE_AMBIGUOUS', `tar readers would name entries differently: ${ambiguous.join('; ')}`);
  const extract = tar.extract();
  Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]).pipe(extract);
  const entries: TarEntry[] = [];
  try {
    for await (const stream of extract) {
      if (entries.length >= maxEntries) {
        throw new ArchiveReadError('WFMCK_E_ARCHIVE_TOO_MANY_ENTRIES', `archive has more than ${maxEntries} entries`);
      }
      const h = stream.header;
      const keep = (h.type === 'file' || h.type === 'contiguous-file') && (h.size ?? 0) <= maxFileBytesKept;
      const chunks: Buffer[] = [];
      for await (const chunk of stream) if (keep) chunks.push(chunk as Buffer);
      const entry: TarEntry = { name: h.name, type: h.type ?? 'unknown', mode: h.mode ?? 0, size: h.size ?? 0 };
      if (h.linkname) entry.linkname = h.linkname;
      if (keep) entry.content = new Uint8Array(Buffer.concat(chunks));
      entries.push(entry);
    }
  } catch (e) {
    extract.destroy();
    if (e instanceof ArchiveReadError) throw e;
    throw new ArchiveReadError('WFMCK_E_ARCHIVE_CORRUPT', `archive is not a valid tar: ${(e as Error).message}`);
  }
  return entries;
}
