// OCI error bodies (distribution-spec v1.1 "Error Codes"): a 4XX JSON body is {"errors":[{code,message,detail}]}.

/** The spec's closed list; `code` MUST be one of these. */
export type OciErrorCode =
  | 'BLOB_UNKNOWN'
  | 'BLOB_UPLOAD_INVALID'
  | 'BLOB_UPLOAD_UNKNOWN'
  | 'DIGEST_INVALID'
  | 'MANIFEST_BLOB_UNKNOWN'
  | 'MANIFEST_INVALID'
  | 'MANIFEST_UNKNOWN'
  | 'NAME_INVALID'
  | 'NAME_UNKNOWN'
  | 'SIZE_INVALID'
  | 'UNAUTHORIZED'
  | 'DENIED'
  | 'UNSUPPORTED'
  | 'TOOMANYREQUESTS';

export interface OciErrorEntry {
  code: OciErrorCode;
  message: string;
  detail?: unknown;
}

/** Thrown by route code; the handler turns it into a response. `headers` carry e.g. Range on a 416. */
export class RegistryError extends Error {
  readonly status: number;
  readonly entries: OciErrorEntry[];
  readonly headers: Record<string, string>;

  constructor(status: number, entries: OciErrorEntry | OciErrorEntry[], headers: Record<string, string> = {}) {
    const list = Array.isArray(entries) ? entries : [entries];
    super(list.map((e) => `${e.code}: ${e.message}`).join('; '));
    this.name = 'RegistryError';
    this.status = status;
    this.entries = list;
    this.headers = headers;
  }
}

export function ociError(status: number, code: OciErrorCode, message: string, detail?: unknown): RegistryError {
  return new RegistryError(status, detail === undefined ? { code, message } : { code, message, detail });
}

export function errorBody(entries: readonly OciErrorEntry[]): string {
  return JSON.stringify({ errors: entries });
}

/** Body of a 500: outside the 4XX rule, so the code is the `UNKNOWN` clients map unknown codes to. */
export function internalErrorBody(): string {
  return JSON.stringify({ errors: [{ code: 'UNKNOWN', message: 'internal registry error' }] });
}
