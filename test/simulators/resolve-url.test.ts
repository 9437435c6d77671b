// The transport's URL shortcut gives what the WHATWG parser gives, or leaves the URL to it.
// Replay a failure with WFMCK_SEED=<seed> WFMCK_PATH=<path> (fast-check prints both).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { baseUrlOf, resolveUrl as resolveWith } from '../../simulators/transport/resolve-url.ts';
import { fcOptions } from '../support/fc.ts';

/** As a transport with this base resolves a request's URL. */
const resolveUrl = (url: string, base: string | undefined) => resolveWith(url, baseUrlOf(base));

const BASES = [
  'https://127.0.0.1:8443',
  'https://127.0.0.1:443/',
  'http://127.0.0.1:80/prefix/',
  'https://[::1]:9443/a/b',
  'https://localhost:8443/?q=1#f',
  'https://user:secret@127.0.0.1:8443/',
  'HTTPS://LOCALHOST:8443',
  'ftp://127.0.0.1/',
];

/** What new URL makes of it, in the resolver's shape. */
function parsed(url: string, base: string) {
  const u = new URL(url, base);
  return { href: u.href, origin: u.origin, path: u.pathname + u.search, hostname: u.hostname };
}

// Characters the parser treats specially, with plain ones between them.
const pathChar = fc.constantFrom(...'aZ09-._~!$&\'()*+,;=:@/%2eE?#\\ "<>`{}|^[]\téü\u0000'.split(''), 'x', '/', '.');
const paths = fc.array(pathChar, { maxLength: 24 }).map((cs) => `/${cs.join('')}`);

test('resolveUrl: for any path and base, the shortcut equals the parser, or the parser answers', () => {
  fc.assert(
    fc.property(paths, fc.constantFrom(...BASES), (url, base) => {
      let expected: ReturnType<typeof parsed> | Error;
      try {
        expected = parsed(url, base);
        if (!/^https?:$/.test(new URL(base).protocol)) expected = new TypeError('not http(s)');
      } catch (e) {
        expected = e as Error;
      }
      if (expected instanceof Error) assert.throws(() => resolveUrl(url, base));
      else assert.deepEqual(resolveUrl(url, base), expected);
    }),
    fcOptions(2_000),
  );
});

test('resolveUrl: the shortcut is taken for a fleet path, and refused where the parser rewrites', () => {
  const base = 'https://127.0.0.1:8443/';
  // Same answers either way; these pin which inputs the shortcut may take (they differ from naive concatenation).
  assert.equal(
    resolveUrl('/api/v1/clients/c-1/capabilities/bench-p-000001', base).href,
    'https://127.0.0.1:8443/api/v1/clients/c-1/capabilities/bench-p-000001',
  );
  assert.equal(resolveUrl('/a/./b/../c', base).href, 'https://127.0.0.1:8443/a/c');
  assert.equal(resolveUrl('/a/%2e%2E/c', base).href, 'https://127.0.0.1:8443/c');
  assert.equal(resolveUrl('//evil.example/x', base).hostname, 'evil.example');
  assert.equal(resolveUrl('/a b', base).path, '/a%20b');
  assert.equal(resolveUrl('/x', 'https://u:p@127.0.0.1:8443/').href, 'https://u:p@127.0.0.1:8443/x');
  assert.equal(resolveUrl('https://[::1]:8443/y', undefined).hostname, '[::1]');
  assert.throws(() => resolveUrl('/x', 'ftp://127.0.0.1/'), /not an http\(s\) URL/);
});
