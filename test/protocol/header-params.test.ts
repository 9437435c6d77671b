// Link (RFC 8288) and WWW-Authenticate (RFC 9110 §11.6.1) as a registry client reads them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bearerChallenge, nextLink } from '../../protocol/header-params.ts';

const BASE = 'https://registry.test/v2/acme/app/tags/list?n=2';

test('nextLink resolves the rel="next" target against the request URL; other rels and garbage are ignored', () => {
  assert.equal(nextLink('</v2/acme/app/tags/list?n=2&last=b>; rel="next"', BASE), 'https://registry.test/v2/acme/app/tags/list?n=2&last=b');
  assert.equal(nextLink('<https://other.test/p?x=1>; rel=next', BASE), 'https://other.test/p?x=1');
  assert.equal(nextLink('</first>; rel="prev", </second>; rel="next"', BASE), 'https://registry.test/second');
  assert.equal(nextLink('</x>; title="a"; rel="prefetch next"', BASE), 'https://registry.test/x');
  assert.equal(nextLink('</x>; rel="prev"', BASE), undefined);
  assert.equal(nextLink('garbage', BASE), undefined);
  assert.equal(nextLink(undefined, BASE), undefined);
});

test('bearerChallenge reads realm, service and scope, with quoted commas and escapes', () => {
  assert.deepEqual(
    bearerChallenge('Bearer realm="https://auth.test/token",service="registry.test",scope="repository:acme/app:pull,push"'),
    {
      realm: 'https://auth.test/token',
      service: 'registry.test',
      scope: 'repository:acme/app:pull,push',
    },
  );
  assert.deepEqual(bearerChallenge('bearer Realm=https://a/t, error="invalid_token", error_description="a \\"b\\""'), {
    realm: 'https://a/t',
    error: 'invalid_token',
    error_description: 'a "b"',
  });
});

test('bearerChallenge skips other schemes before and after the Bearer challenge', () => {
  assert.deepEqual(bearerChallenge('Basic realm="r", Bearer realm="https://a/t", Negotiate'), { realm: 'https://a/t' });
  assert.equal(bearerChallenge('Basic realm="registry"'), undefined);
  assert.equal(bearerChallenge(undefined), undefined);
  assert.deepEqual(bearerChallenge('Bearer'), {});
});
