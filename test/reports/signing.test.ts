// Signed report folders: DSSE over an in-toto Statement of every report file, and the verifier that must catch any
// edited byte, a wrong key, an edited payload and an unsigned evidence file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRootCa } from '../../protocol/pki.ts';
import { IN_TOTO_PAYLOAD_TYPE, keyIdOf, pae, signEnvelope } from '../../reports/signing/dsse.ts';
import { KeyFileError, generateSigningKey, loadSigningKey } from '../../reports/signing/keys.ts';
import { CERTIFICATE_FILE, PUBLIC_KEY_FILE, SignError, signReport } from '../../reports/signing/sign-report.ts';
import { predicateOf, statementOf } from '../../reports/signing/statement.ts';
import { ReportInputError, verifyReport } from '../../reports/signing/verify.ts';

const EVIDENCE = 'evidence/CAP-PUT-201.json';

/**
 * A report folder as a run leaves it: conformance.json naming one evidence file, the HTML, the JUnit, the replay
 * configuration and the run context, and Playwright's own folders (left unsigned by design).
 */
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wfmck-signing-'));
  const report = {
    kit: { name: 'wfmck', version: '0.1.0' },
    persona: 'wfm',
    edition: 'seed',
    component: { vendor: 'Acme', name: 'acme-wfm', version: '1.2.3' },
    signing: { envelope: 'conformance.dsse.json' },
    strictness: 'default',
    seed: 7,
    startedAt: '2025-01-01T00:00:00.000Z',
    summary: { verdict: 'not-conformant', requirements: 1, fail: 1, mustFailed: 1 },
    requirements: [{ id: 'CAP-PUT-201', status: 'fail', evidenceFile: EVIDENCE }],
  };
  writeFileSync(join(dir, 'conformance.json'), JSON.stringify(report, null, 2));
  writeFileSync(join(dir, 'conformance.html'), '<!doctype html><p>report</p>\n');
  writeFileSync(join(dir, 'junit.xml'), '<testsuites/>\n');
  mkdirSync(join(dir, 'evidence'));
  writeFileSync(join(dir, EVIDENCE), JSON.stringify({ requirement: 'CAP-PUT-201', exchanges: [{ method: 'PUT', status: 200 }] }));
  writeFileSync(join(dir, 'replay.yaml'), 'hooks:\n  assignDeployment: ./hooks/assign.sh\n');
  writeFileSync(join(dir, 'run-context.json'), JSON.stringify({ persona: 'wfm', seed: 7 }));
  mkdirSync(join(dir, 'playwright-report'));
  writeFileSync(join(dir, 'playwright-report', 'index.html'), '<!doctype html>\n');
  mkdirSync(join(dir, 'test-results'));
  writeFileSync(join(dir, 'test-results', '.last-run.json'), '{}');
  return dir;
}

function flipByte(file: string, at = 10): void {
  const bytes = readFileSync(file);
  bytes[at] = bytes[at]! ^ 0x01;
  writeFileSync(file, bytes);
}

function withFolder(fn: (dir: string) => void | Promise<void>) {
  return async () => {
    const dir = folder();
    try {
      await fn(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

test('PAE is the DSSE spec example byte for byte', () => {
  assert.equal(
    pae('http://example.com/HelloWorld', Buffer.from('hello world')).toString(),
    'DSSEv1 29 http://example.com/HelloWorld 11 hello world',
  );
});

test(
  'sign then verify: every report file and the evidence are signed subjects, and the predicate carries the metadata',
  withFolder((dir) => {
    const signed = signReport(dir, generateSigningKey());
    assert.deepEqual(signed.subjects, ['conformance.json', 'conformance.html', 'junit.xml', EVIDENCE, 'replay.yaml', 'run-context.json']);
    const v = verifyReport(dir);
    assert.deepEqual(v.problems, []);
    assert.equal(v.keySource, 'envelope');
    const envelope = JSON.parse(readFileSync(signed.envelopeFile, 'utf8'));
    assert.equal(envelope.payloadType, IN_TOTO_PAYLOAD_TYPE);
    const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString());
    assert.equal(statement._type, 'https://in-toto.io/Statement/v1');
    assert.deepEqual(statement.predicate.component, { vendor: 'Acme', name: 'acme-wfm', version: '1.2.3' });
    assert.equal(statement.predicate.requirements, undefined, 'the predicate repeats metadata and summary, not the rows');
  }),
);

test(
  'one changed byte of conformance.json fails verification, naming the file',
  withFolder((dir) => {
    signReport(dir, generateSigningKey());
    flipByte(join(dir, 'conformance.json'));
    const v = verifyReport(dir);
    assert.equal(v.problems.length, 1, v.problems.join('\n'));
    assert.match(v.problems[0]!, /^conformance\.json: sha256 .* does not match/);
  }),
);

test(
  'one changed byte of an evidence file fails verification, naming the file',
  withFolder((dir) => {
    signReport(dir, generateSigningKey());
    flipByte(join(dir, EVIDENCE));
    assert.deepEqual(
      verifyReport(dir).problems.map((p) => p.split(':')[0]),
      [EVIDENCE],
    );
  }),
);

test(
  'a deleted subject fails verification as missing',
  withFolder((dir) => {
    signReport(dir, generateSigningKey());
    rmSync(join(dir, 'junit.xml'));
    assert.deepEqual(verifyReport(dir).problems, ['junit.xml: missing (a signed subject)']);
  }),
);

for (const file of ['replay.yaml', 'run-context.json']) {
  test(
    `${file} is signed: one edited byte of it fails verification, naming it`,
    withFolder((dir) => {
      signReport(dir, generateSigningKey());
      flipByte(join(dir, file), 2);
      assert.deepEqual(
        verifyReport(dir).problems.map((p) => p.split(':')[0]),
        [file],
      );
    }),
  );
}

test(
  "a file added after signing, at any depth, is one line each; Playwright's folders, the envelope and the key are not",
  withFolder((dir) => {
    signReport(dir, generateSigningKey());
    writeFileSync(join(dir, 'evidence', 'ZZZ.json'), '{"requirement": "ZZZ", "exchanges": []}');
    mkdirSync(join(dir, 'extra', 'deeper'), { recursive: true });
    writeFileSync(join(dir, 'extra', 'deeper', 'note.txt'), 'added');
    writeFileSync(join(dir, 'playwright-report', 'trace.zip'), 'x');
    writeFileSync(join(dir, 'test-results', 'added.png'), 'x');
    assert.deepEqual(verifyReport(dir).problems, [
      'evidence/ZZZ.json: not covered by the signature (added after signing?)',
      'extra/deeper/note.txt: not covered by the signature (added after signing?)',
    ]);
  }),
);

test(
  'a file whose name verify-report would not open is refused at signing, by name, rather than left unsigned',
  withFolder((dir) => {
    writeFileSync(join(dir, 'my notes.txt'), 'x');
    assert.throws(
      () => signReport(dir, generateSigningKey()),
      (e: unknown) => e instanceof SignError && /^my notes\.txt: a file name verify-report would not open/.test(e.message),
    );
  }),
);

test(
  'a pinned key: the signing key verifies, another key fails the signature',
  withFolder((dir) => {
    const key = generateSigningKey();
    signReport(dir, key);
    assert.deepEqual(verifyReport(dir, { pinnedKey: key.publicKey }).problems, []);
    const other = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).publicKey;
    const v = verifyReport(dir, { pinnedKey: other });
    assert.equal(v.keySource, 'pinned');
    assert.equal(v.problems.length, 1);
    assert.match(v.problems[0]!, /signature does not verify with the pinned key/);
  }),
);

test(
  'an envelope whose payload was edited (a subject digest swapped for the tampered file) fails the signature',
  withFolder((dir) => {
    signReport(dir, generateSigningKey());
    flipByte(join(dir, EVIDENCE));
    const file = join(dir, 'conformance.dsse.json');
    const envelope = JSON.parse(readFileSync(file, 'utf8'));
    const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString());
    // The forger makes the statement match the edited file: only the signature can tell.
    statement.subject = statementOf([{ name: EVIDENCE, bytes: readFileSync(join(dir, EVIDENCE)) }], {}).subject.concat(
      statement.subject.filter((s: { name: string }) => s.name !== EVIDENCE),
    );
    envelope.payload = Buffer.from(JSON.stringify(statement)).toString('base64');
    writeFileSync(file, JSON.stringify(envelope));
    const v = verifyReport(dir);
    assert.equal(v.problems.length, 1);
    assert.match(v.problems[0]!, /signature does not verify/);
  }),
);

test(
  'an evidence file the report names but the statement leaves out fails verification',
  withFolder((dir) => {
    const key = generateSigningKey();
    const json = readFileSync(join(dir, 'conformance.json'));
    const statement = statementOf([{ name: 'conformance.json', bytes: json }], predicateOf(JSON.parse(json.toString())));
    const envelope = signEnvelope(IN_TOTO_PAYLOAD_TYPE, Buffer.from(JSON.stringify(statement)), key.privateKey, keyIdOf(key.publicKey));
    writeFileSync(join(dir, 'conformance.dsse.json'), JSON.stringify(envelope));
    writeFileSync(join(dir, PUBLIC_KEY_FILE), key.publicKey.export({ type: 'spki', format: 'pem' }));
    // The evidence file is one line (not two), and each other file the statement leaves out is one more.
    assert.deepEqual(verifyReport(dir).problems, [
      `${EVIDENCE}: evidence named by conformance.json but not signed`,
      'conformance.html: not covered by the signature (added after signing?)',
      'junit.xml: not covered by the signature (added after signing?)',
      'replay.yaml: not covered by the signature (added after signing?)',
      'run-context.json: not covered by the signature (added after signing?)',
    ]);
  }),
);

test(
  'a signed subject outside the folder is never opened',
  withFolder((dir) => {
    const key = generateSigningKey();
    const statement = statementOf(
      [
        { name: '../../etc/hostname', bytes: Buffer.from('x') },
        { name: 'conformance.json', bytes: readFileSync(join(dir, 'conformance.json')) },
      ],
      {},
    );
    writeFileSync(
      join(dir, 'conformance.dsse.json'),
      JSON.stringify(signEnvelope(IN_TOTO_PAYLOAD_TYPE, Buffer.from(JSON.stringify(statement)), key.privateKey, 'k')),
    );
    writeFileSync(join(dir, PUBLIC_KEY_FILE), key.publicKey.export({ type: 'spki', format: 'pem' }));
    const problems = verifyReport(dir).problems;
    assert.ok(
      problems.some((p) => /"\.\.\/\.\.\/etc\/hostname": a subject outside the report folder/.test(p)),
      problems.join('\n'),
    );
  }),
);

test(
  'no envelope, or an envelope that is not DSSE, is unreadable input (not a mismatch)',
  withFolder((dir) => {
    assert.throws(
      () => verifyReport(dir),
      (e: unknown) => e instanceof ReportInputError && /no envelope/.test(e.message),
    );
    writeFileSync(join(dir, 'conformance.dsse.json'), '{"payload": 1}');
    assert.throws(
      () => verifyReport(dir),
      (e: unknown) => e instanceof ReportInputError && /not a DSSE envelope/.test(e.message),
    );
  }),
);

test(
  'a key file with its certificate: signed, the certificate shipped and named; a certificate of another key is refused',
  withFolder(async (dir) => {
    const ca = await createRootCa('Acme report signer');
    const other = await createRootCa('Someone else');
    const keyFile = join(dir, 'signer.key.pem');
    const certFile = join(dir, 'signer.cert.pem');
    const otherCert = join(dir, 'other.cert.pem');
    writeFileSync(keyFile, ca.keyPem);
    writeFileSync(certFile, ca.certPem);
    writeFileSync(otherCert, other.certPem);
    signReport(dir, loadSigningKey(keyFile, certFile));
    const v = verifyReport(dir);
    assert.deepEqual(v.problems, []);
    assert.match(v.certificateSubject ?? '', /CN=Acme report signer/);
    assert.equal(readFileSync(join(dir, CERTIFICATE_FILE), 'utf8').trim(), ca.certPem.trim());
    assert.throws(() => loadSigningKey(keyFile, otherCert), KeyFileError);
  }),
);

test(
  'a signing key that is not ECDSA P-256 is refused',
  withFolder((dir) => {
    const file = join(dir, 'ed25519.pem');
    writeFileSync(file, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }));
    assert.throws(
      () => loadSigningKey(file),
      (e: unknown) => e instanceof KeyFileError && /must be ECDSA P-256/.test(e.message),
    );
  }),
);
