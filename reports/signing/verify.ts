// Verifies a signed report folder: the DSSE signature (with a pinned key, else the key shipped beside it), then every
// subject's sha256, then that every file in the folder is a subject (but those unsigned by design, folder-files.ts).
// Problems are one line each; an unreadable envelope or key is a ReportInputError (a usage error, not a mismatch).
import { createPublicKey, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENVELOPE_FILE } from '../../run/contract/context.ts';
import { listedEvidenceFiles } from '../evidence-files.ts';
import { JSON_FILE } from '../requirement-reporter.ts';
import { IN_TOTO_PAYLOAD_TYPE, envelopeVerifies, keyIdOf, parseEnvelope, type Envelope } from './dsse.ts';
import { readCertificate } from './keys.ts';
import { CERTIFICATE_FILE, PUBLIC_KEY_FILE, filesToSign } from './folder-files.ts';
import { PREDICATE_TYPE, STATEMENT_TYPE, isSafeSubjectName, sha256Hex, type Subject } from './statement.ts';

export class ReportInputError extends Error {
  readonly code = 'WFMCK_E_USAGE_REPORT';
}

export interface Verification {
  /** `pinned`: a key the caller trusts; `envelope`: the key shipped in the folder (integrity, not identity). */
  keySource: 'pinned' | 'envelope';
  keyId: string;
  /** Subject of the certificate shipped beside the envelope, if any (its chain is not checked). */
  certificateSubject?: string;
  subjects: string[];
  /** One line per mismatch; empty when the report verifies. */
  problems: string[];
}

export function verifyReport(dir: string, opts: { pinnedKey?: KeyObject } = {}): Verification {
  const envelope = readEnvelope(dir);
  const key = opts.pinnedKey ?? readShippedKey(dir);
  const result: Verification = { keySource: opts.pinnedKey ? 'pinned' : 'envelope', keyId: keyIdOf(key), subjects: [], problems: [] };
  const problems = result.problems;
  const certFile = join(dir, CERTIFICATE_FILE);
  if (existsSync(certFile)) {
    const cert = readCertificate(certFile);
    result.certificateSubject = cert.subject.replace(/\n/g, ', ');
    if (!cert.publicKey.equals(key))
      problems.push(`${CERTIFICATE_FILE}: certifies another key than ${opts.pinnedKey ? 'the pinned key' : PUBLIC_KEY_FILE}`);
  }
  if (!envelopeVerifies(envelope, key)) {
    // Nothing the payload says can be trusted, so its subjects are not looked at.
    problems.push(
      `${ENVELOPE_FILE}: the signature does not verify with ${opts.pinnedKey ? 'the pinned key' : PUBLIC_KEY_FILE} (key ${result.keyId.slice(0, 16)})`,
    );
    return result;
  }
  if (envelope.payloadType !== IN_TOTO_PAYLOAD_TYPE)
    problems.push(`${ENVELOPE_FILE}: payloadType is ${envelope.payloadType}, not ${IN_TOTO_PAYLOAD_TYPE}`);
  const subjects = subjectsOf(envelope, problems);
  result.subjects = subjects.map((s) => s.name);
  const matched = subjects.filter((s) => checkSubject(dir, s, problems)).map((s) => s.name);
  const named = new Set([JSON_FILE]);
  if (!result.subjects.includes(JSON_FILE)) problems.push(`${JSON_FILE}: not a subject of the signed statement`);
  else if (matched.includes(JSON_FILE)) {
    // Only a conformance.json whose digest matched is trusted to say which evidence files must be signed.
    const report = JSON.parse(readFileSync(join(dir, JSON_FILE), 'utf8')) as { requirements?: unknown };
    for (const f of listedEvidenceFiles(report)) {
      if (result.subjects.includes(f)) continue;
      named.add(f);
      problems.push(`${f}: evidence named by ${JSON_FILE} but not signed`);
    }
  }
  // Any other file the signature does not cover was added (or never signed): one line each, as docs/reference.md promises.
  for (const f of filesToSign(dir))
    if (!result.subjects.includes(f) && !named.has(f)) problems.push(`${f}: not covered by the signature (added after signing?)`);
  return result;
}

function readEnvelope(dir: string): Envelope {
  const file = join(dir, ENVELOPE_FILE);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new ReportInputError(
      err.code === 'ENOENT' ? `${file}: no envelope (was the run signed? wfmck run --sign)` : `${file}: not JSON (${err.message})`,
    );
  }
  const envelope = parseEnvelope(raw);
  if (!envelope) throw new ReportInputError(`${file}: not a DSSE envelope (payloadType, payload, signatures[].sig)`);
  return envelope;
}

function readShippedKey(dir: string): KeyObject {
  const file = join(dir, PUBLIC_KEY_FILE);
  try {
    return createPublicKey(readFileSync(file));
  } catch (e) {
    throw new ReportInputError(`${file}: no readable public key (${(e as Error).message}); pin one with --key FILE`);
  }
}

function subjectsOf(envelope: Envelope, problems: string[]): Subject[] {
  let statement: { _type?: unknown; predicateType?: unknown; subject?: unknown };
  try {
    statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8')) as typeof statement;
  } catch {
    problems.push(`${ENVELOPE_FILE}: the signed payload is not JSON`);
    return [];
  }
  if (statement._type !== STATEMENT_TYPE)
    problems.push(`${ENVELOPE_FILE}: the payload is not an in-toto Statement v1 (_type ${JSON.stringify(statement._type)})`);
  if (statement.predicateType !== PREDICATE_TYPE)
    problems.push(`${ENVELOPE_FILE}: predicateType ${JSON.stringify(statement.predicateType)}, not ${PREDICATE_TYPE}`);
  if (!Array.isArray(statement.subject)) {
    problems.push(`${ENVELOPE_FILE}: the statement has no subject list`);
    return [];
  }
  return statement.subject.filter((s: Partial<Subject>, i: number) => {
    const ok = typeof s?.name === 'string' && typeof s.digest?.sha256 === 'string';
    if (!ok) problems.push(`${ENVELOPE_FILE}: subject ${i} has no name and sha256 digest`);
    return ok;
  }) as Subject[];
}

/** True when the subject's file exists and its sha256 is the signed one; else one problem line. */
function checkSubject(dir: string, s: Subject, problems: string[]): boolean {
  const fail = (line: string) => (problems.push(line), false);
  if (!isSafeSubjectName(s.name)) return fail(`${JSON.stringify(s.name)}: a subject outside the report folder, not opened`);
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(dir, s.name));
  } catch {
    return fail(`${s.name}: missing (a signed subject)`);
  }
  const actual = sha256Hex(bytes);
  if (actual !== s.digest.sha256.toLowerCase())
    return fail(`${s.name}: sha256 ${actual.slice(0, 16)}... does not match the signed ${s.digest.sha256.slice(0, 16)}...`);
  return true;
}
