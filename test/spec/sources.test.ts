// spec/source/ holds copies of the shared spec so a clone is self-contained; they must not drift from it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const shared = new URL('../../../shared/spec/', import.meta.url);
const local = new URL('../../spec/source/', import.meta.url);

for (const name of ['interfaces.md', 'profiles.md']) {
  test(`spec/source/${name} is byte-identical to the shared copy`, (t) => {
    const sharedFile = new URL(name, shared);
    const mine = readFileSync(new URL(name, local));
    if (!existsSync(sharedFile)) {
      // Without the shared folder the local copy is the only source, so there is nothing to drift from.
      t.diagnostic(`could not compare: ${fileURLToPath(sharedFile)} does not exist`);
      return;
    }
    const theirs = readFileSync(sharedFile);
    assert.ok(mine.equals(theirs), `spec/source/${name} differs from ${fileURLToPath(sharedFile)}; copy the shared file over it`);
  });
}
