// Where a sharded run keeps Playwright's blob report, the input of `wfmck merge-reports`.
export const BLOB_DIR = 'blob-report';
/** Set by `wfmck run --shard` for playwright.config.ts, which then adds the blob reporter. */
export const BLOB_DIR_ENV = 'WFMCK_BLOB_DIR';
