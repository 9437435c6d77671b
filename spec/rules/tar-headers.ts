// §2.7 rule 7 (validate before extracting): raw tar header sequences that tar readers name differently. The kit's
// reader (tar-stream) and an extractor (Python's tarfile, GNU tar) must see the same names, or the rules judge an
// archive other than the one extracted; these are refused before any reader's answer is trusted.

const BLOCK = 512;
const USTAR_MAGIC = 'ustar\u0000';
/** GNU long name, long link name and old sparse headers: their prefix field is not a name (tarfile's GNU_TYPES). */
const PREFIX_IS_NOT_A_NAME = new Set(['L', 'K', 'S']);
/** Global pax keywords that change what an entry is named or where the next header starts. */
const GLOBAL_NAMING_KEYS = new Set(['path', 'linkpath', 'size']);

interface Pending {
  pax: number;
  paxPath: boolean;
  paxLinkpath: boolean;
  longName: number;
  longLink: number;
}

const none = (): Pending => ({ pax: 0, paxPath: false, paxLinkpath: false, longName: 0, longLink: 0 });

/**
 * One line per ambiguous member, naming its header offset:
 * - two pax headers, two GNU long names or two long link names for one member (tarfile applies the first, tar-stream
 *   the last);
 * - a GNU long name and a pax `path` (or long link and `linkpath`) for one member (which wins depends on the reader);
 * - a non-ustar (GNU or v7) header with a filled prefix field (tarfile prepends it to the name, tar-stream ignores it);
 * - a pax header with an empty path, linkpath or size (tarfile applies it, tar-stream keeps the ustar field);
 * - a pax global header that sets path, linkpath or size (tarfile applies it to every later entry, tar-stream only to
 *   entries that have a pax header of their own).
 */
export function headerAmbiguities(tar: Uint8Array): string[] {
  const out: string[] = [];
  let pending = none();
  for (let offset = 0; offset + BLOCK <= tar.length;) {
    const block = tar.subarray(offset, offset + BLOCK);
    // Zero blocks end the archive for some readers; tar-stream reads on, so the scan does too.
    if (block.every((b) => b === 0)) {
      offset += BLOCK;
      continue;
    }
    const size = numeric(block.subarray(124, 136));
    if (size === undefined) break;
    const body = tar.subarray(offset + BLOCK, Math.min(tar.length, offset + BLOCK + size));
    const typeflag = String.fromCharCode(block[156]!);
    if (typeflag === 'x') {
      const records = paxRecords(body);
      pending.pax++;
      pending.paxPath ||= records.has('path');
      pending.paxLinkpath ||= records.has('linkpath');
      const empty = [...GLOBAL_NAMING_KEYS].filter((k) => records.get(k) === '');
      if (empty.length > 0)
        out.push(
          `header at byte ${offset}: a pax header with an empty ${empty.join(', ')}; some readers apply it, others keep the ustar field`,
        );
    } else if (typeflag === 'L') {
      pending.longName++;
    } else if (typeflag === 'K') {
      pending.longLink++;
    } else if (typeflag === 'g') {
      const naming = [...paxRecords(body).keys()].filter((k) => GLOBAL_NAMING_KEYS.has(k));
      if (naming.length > 0)
        out.push(
          `header at byte ${offset}: a pax global header sets ${naming.join(', ')}; some readers apply it to every later entry, others only beside a pax header of the entry`,
        );
    } else {
      out.push(...memberAmbiguities(block, typeflag, pending).map((why) => `header at byte ${offset}: ${why}`));
      pending = none();
    }
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
  return out;
}

function memberAmbiguities(block: Uint8Array, typeflag: string, p: Pending): string[] {
  const out: string[] = [];
  if (p.pax > 1) out.push(`${p.pax} pax headers for one entry; readers disagree on which applies`);
  if (p.longName > 1) out.push(`${p.longName} GNU long names for one entry; readers disagree on which applies`);
  if (p.longLink > 1) out.push(`${p.longLink} GNU long link names for one entry; readers disagree on which applies`);
  if (p.longName > 0 && p.paxPath) out.push('both a GNU long name and a pax path; readers disagree on which names the entry');
  if (p.longLink > 0 && p.paxLinkpath) out.push('both a GNU long link name and a pax linkpath; readers disagree on the link target');
  const magic = text(block.subarray(257, 263));
  if (magic !== USTAR_MAGIC && block[345] !== 0 && !PREFIX_IS_NOT_A_NAME.has(typeflag)) {
    out.push(
      `a non-ustar header with a filled prefix field ${JSON.stringify(cString(block.subarray(345, 500)))}; some readers prepend it to the name, others ignore it`,
    );
  }
  return out;
}

/** Pax records `<length> <keyword>=<value>\n` by keyword (a later record replaces an earlier one, as readers do). */
function paxRecords(body: Uint8Array): Map<string, string> {
  const records = new Map<string, string>();
  const source = text(body);
  for (let pos = 0; pos < source.length;) {
    const m = /^(\d+) ([^=]+)=/.exec(source.slice(pos));
    const length = Number(m?.[1]);
    if (!m || !(length > m[0].length)) break;
    records.set(m[2]!, source.slice(pos + m[0].length, pos + length - 1));
    pos += length;
  }
  return records;
}

/** Octal (spaces and NULs around it allowed) or GNU base-256; undefined when it is neither. */
function numeric(field: Uint8Array): number | undefined {
  if (field[0]! & 0x80) {
    let n = field[0]! & 0x7f;
    for (const b of field.subarray(1)) n = n * 256 + b;
    return n;
  }
  const digits = cString(field).trim();
  if (digits === '') return 0;
  return /^[0-7]+$/.test(digits) ? parseInt(digits, 8) : undefined;
}

function cString(bytes: Uint8Array): string {
  const end = bytes.indexOf(0);
  return text(end === -1 ? bytes : bytes.subarray(0, end));
}

function text(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}
