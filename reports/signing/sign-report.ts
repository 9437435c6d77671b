// Signs a finished report folder: every file in it (conformance.json, the HTML, the JUnit, the evidence, replay.yaml,
// run-context.json, ...) but those unsigned by design (folder-files.ts) becomes a subject of an in-toto Statement in a
// DSSE envelope, written after them (it is no subject itself, so no digest is circular), with the public key and any
// certificate beside it.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ENVELOPE_FILE } from '../../run/contract/context.ts';
import { listedEvidenceFiles } from '../evidence-files.ts';
import { HTML_FILE, JSON_FILE } from '../requirement-reporter.ts';
import { IN_TOTO_PAYLOAD_TYPE, keyIdOf, signEnvelope } from './dsse.ts';
import type { SigningKey } from './keys.ts';
import { isSafeSubjectName, predicateOf, statementOf } from './statement.ts';
import { CERTIFICATE_FILE, PUBLIC_KEY_FILE, filesToSign } from './folder-files.ts';
import { writeFileAtomic } from '../safe-write.ts';

export { CERTIFICATE_FILE, PUBLIC_KEY_FILE };
export const JUNIT_FILE = 'junit.xml';

export class SignError extends Error {
  readonly code = 'WFMCK_E_SIGN';
}

export interface SignResult {
  envelopeFile: string;
  keyId: string;
  subjects: string[];
}

export function signReport(dir: string, key: SigningKey): SignResult {
  const jsonPath = join(dir, JSON_FILE);
  if (!existsSync(jsonPath)) throw new SignError(`nothing to sign: ${jsonPath} was not written`);
  const jsonBytes = readFileSync(jsonPath);
  let report: Record<string, unknown>;
  try {
    report = JSON.parse(jsonBytes.toString('utf8')) as Record<string, unknown>;
  } catch (e) {
    throw new SignError(`${jsonPath} is not JSON (${(e as Error).message})`);
  }
  // The HTML and JUnit are signed when present (an interrupted run may lack one); evidence the report names must be there.
  const optional = [HTML_FILE, JUNIT_FILE].filter((f) => existsSync(join(dir, f)));
  const evidence = listedEvidenceFiles(report);
  for (const f of evidence) {
    if (!isSafeSubjectName(f)) throw new SignError(`${JSON_FILE} names evidence "${f}" outside the report folder`);
    if (!existsSync(join(dir, f))) throw new SignError(`${JSON_FILE} names evidence ${f}, which is not in ${dir}`);
  }
  // The report's own files first, as before; then every other file of the folder, so none can be added unseen.
  const named = [JSON_FILE, ...optional, ...evidence];
  const rest = filesToSign(dir).filter((f) => !named.includes(f));
  for (const f of rest)
    if (!isSafeSubjectName(f))
      throw new SignError(`${f}: a file name verify-report would not open ([A-Za-z0-9._-] only); move it out of ${dir}`);
  const files = [
    { name: JSON_FILE, bytes: jsonBytes },
    ...[...optional, ...evidence, ...rest].map((name) => ({ name, bytes: readFileSync(join(dir, name)) })),
  ];
  const statement = statementOf(files, predicateOf(report));
  const keyId = keyIdOf(key.publicKey);
  const envelope = signEnvelope(IN_TOTO_PAYLOAD_TYPE, Buffer.from(JSON.stringify(statement), 'utf8'), key.privateKey, keyId);
  writeFileAtomic(join(dir, ENVELOPE_FILE), `${JSON.stringify(envelope, null, 2)}\n`);
  writeFileAtomic(join(dir, PUBLIC_KEY_FILE), key.publicKey.export({ type: 'spki', format: 'pem' }));
  // A certificate left by an earlier run in a reused folder would name another key.
  if (key.certificatePem) writeFileAtomic(join(dir, CERTIFICATE_FILE), key.certificatePem);
  else rmSync(join(dir, CERTIFICATE_FILE), { force: true });
  return { envelopeFile: join(dir, ENVELOPE_FILE), keyId, subjects: files.map((f) => f.name) };
}
