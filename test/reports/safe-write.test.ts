// A full disk or a folder the kit may not write: the report folder never holds a torn conformance.json, and every
// failed write is named with its path and reason (issue 32, symptom 6: "conformance.json is not JSON" on ENOSPC).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NODE_IO, ReportWriteError, folderWriteProblem, writeFileAtomic, type WriteIo } from '../../reports/safe-write.ts';
import { JSON_FILE, writeReportFiles } from '../../reports/write-report.ts';
import { syntheticReport } from './synthetic.ts';
import { mountTinyTmpfs } from '../support/tiny-tmpfs.ts';

function enospc(path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOSPC: no space left on device, write '${path}'`), { code: 'ENOSPC', errno: -28, syscall: 'write' });
}

/** The file system of a disk that fills up: a write to a file whose name matches writes half its bytes, then ENOSPC. */
function fullDiskAt(match: RegExp): WriteIo {
  return {
    ...NODE_IO,
    writeFileSync(path, data) {
      if (!match.test(path)) return NODE_IO.writeFileSync(path, data);
      const bytes = Buffer.from(data);
      NODE_IO.writeFileSync(path, bytes.subarray(0, bytes.length >> 1));
      throw enospc(path);
    },
  };
}

function withDir(fn: (dir: string) => void) {
  return () => {
    const dir = mkdtempSync(join(tmpdir(), 'wfmck-safe-write-'));
    try {
      fn(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

test(
  'a write that runs out of space half-way: a plain write leaves a torn file, the atomic one keeps the old file and no temp',
  withDir((dir) => {
    const file = join(dir, JSON_FILE);
    const io = fullDiskAt(/conformance\.json/);
    // The symptom as it was: the same failing disk under a plain write tears the file.
    assert.throws(() => io.writeFileSync(file, '{"summary": {"judged": 1}}\n'), /ENOSPC/);
    assert.throws(() => JSON.parse(readFileSync(file, 'utf8')));

    writeFileSync(file, '{"old": true}\n');
    assert.throws(
      () => writeFileAtomic(file, '{"new": true}\n', io),
      (e: unknown) =>
        e instanceof ReportWriteError &&
        e.path === file &&
        /^cannot write .*conformance\.json: ENOSPC: no space left on device$/.test(e.message),
    );
    assert.equal(readFileSync(file, 'utf8'), '{"old": true}\n');
    assert.deepEqual(readdirSync(dir), [JSON_FILE], 'no temporary file is left behind');
  }),
);

test(
  'writeReportFiles on a disk that fills at the HTML: no conformance.json at all (not an earlier one), the HTML named',
  withDir((dir) => {
    writeFileSync(join(dir, JSON_FILE), '{"earlier": "run"}\n');
    assert.throws(
      () => writeReportFiles(dir, syntheticReport(), fullDiskAt(/conformance\.html/)),
      (e: unknown) => e instanceof ReportWriteError && e.path === join(dir, 'conformance.html') && /ENOSPC/.test(e.message),
    );
    assert.equal(existsSync(join(dir, JSON_FILE)), false, 'conformance.json is written last, so its presence means every file was');
    assert.equal(existsSync(join(dir, 'conformance.html')), false);
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.endsWith('.tmp')),
      [],
    );
  }),
);

test(
  'writeReportFiles on a disk that fills at conformance.json itself: none is left, torn or whole',
  withDir((dir) => {
    assert.throws(() => writeReportFiles(dir, syntheticReport(), fullDiskAt(/conformance\.json/)), /conformance\.json: ENOSPC/);
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.includes(JSON_FILE)),
      [],
    );
    // The same call on a disk with room writes a report that parses.
    writeReportFiles(dir, syntheticReport());
    assert.equal(JSON.parse(readFileSync(join(dir, JSON_FILE), 'utf8')).summary.judged > 0, true);
  }),
);

test(
  'folderWriteProblem: a path under a regular file and a disk without room are named with the path; a good folder is not',
  withDir((dir) => {
    writeFileSync(join(dir, 'plain-file'), '');
    const under = join(dir, 'plain-file', 'out');
    assert.match(folderWriteProblem(under) ?? '', /plain-file\/out: cannot create the folder \(ENOTDIR: not a directory\)/);
    const full = folderWriteProblem(join(dir, 'out'), fullDiskAt(/wfmck-write-probe/));
    assert.match(full ?? '', /\/out: cannot write the reports there \(ENOSPC: no space left on device\), which needs about 1 MiB free/);
    assert.equal(folderWriteProblem(join(dir, 'new', 'good')), undefined);
    assert.equal(existsSync(join(dir, 'new')), false, 'the folders the probe made are removed: a run that stops here wrote nothing');
    assert.equal(folderWriteProblem(dir), undefined);
    assert.deepEqual(readdirSync(dir), ['plain-file'], 'the probe file is removed');
  }),
);

test('a real full disk (a 64 KiB tmpfs): ENOSPC is named, no conformance.json and no temporary file is left', (t) => {
  const fs = mountTinyTmpfs('64k');
  if (typeof fs === 'string') return t.skip(fs);
  try {
    assert.match(folderWriteProblem(fs.dir) ?? '', /ENOSPC/);
    assert.throws(
      () => writeReportFiles(fs.dir, syntheticReport()),
      (e: unknown) => e instanceof ReportWriteError && /ENOSPC/.test(e.message),
    );
    assert.deepEqual(
      readdirSync(fs.dir).filter((f) => f.includes(JSON_FILE) || f.endsWith('.tmp')),
      [],
    );
  } finally {
    fs.close();
  }
});

test('a read-only folder (a tmpfs mounted ro: root is refused too): EROFS is named', (t) => {
  const fs = mountTinyTmpfs('64k', { readOnly: true });
  if (typeof fs === 'string') return t.skip(fs);
  try {
    assert.match(folderWriteProblem(fs.dir) ?? '', /cannot write the reports there \(EROFS: read-only file system\)/);
    assert.throws(() => writeReportFiles(join(fs.dir, 'out'), syntheticReport()), /EROFS/);
  } finally {
    fs.close();
  }
});
