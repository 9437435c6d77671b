// The reference WFM's JSON body reader: nesting past MAX_JSON_DEPTH is a malformed body (400), at it is not.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_JSON_DEPTH, WfmError, parseJson } from '../../reference/wfm/http.ts';

const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const objects = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);
/** Objects and arrays alternating, the deepest branch last among siblings, so no one shape of walk finds it by luck. */
const mixed = (depth: number) => {
  // The innermost container holds a scalar alone; each one above it has a container sibling one level shallower.
  let doc = '[0]';
  for (let i = 1; i < depth; i++) doc = i % 2 === 0 ? `[1,{"x":2},${doc}]` : `{"first":[],"last":${doc}}`;
  return doc;
};

function refusedAsDeep(text: string): void {
  assert.throws(
    () => parseJson(Buffer.from(text)),
    (e: unknown) => e instanceof WfmError && e.status === 400 && /nested deeper/.test(e.message),
  );
}

test('JSON nested one level past MAX_JSON_DEPTH is refused, in arrays, objects and both', () => {
  for (const shape of [arrays, objects, mixed]) {
    refusedAsDeep(shape(MAX_JSON_DEPTH + 1));
    assert.doesNotThrow(() => parseJson(Buffer.from(shape(MAX_JSON_DEPTH))), shape.name);
  }
});
