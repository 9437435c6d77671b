// The HTML's run metadata: the component, persona and edition, and whether the run is signed (only a pointer to the
// envelope: the page is itself a signed subject, so it cannot carry the signature or its own digest).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderHtml } from '../../reports/html/render.ts';
import { syntheticReport } from './synthetic.ts';

test('the metadata shows the component, persona and edition; an unsigned run says how to sign', () => {
  const html = renderHtml(syntheticReport());
  assert.match(html, /<dt>Component<\/dt><dd>Example Corp example-wfm 1\.2\.3<\/dd>/);
  assert.match(html, /<dt>Persona<\/dt><dd>wfm <span class="muted">&middot; edition seed<\/span><\/dd>/);
  assert.match(html, /<dt>Signature<\/dt><dd><span class="muted">not signed \(wfmck run --sign\)<\/span><\/dd>/);
});

test('a signed run points at the envelope and verify-report; a component not configured says which keys name it', () => {
  const html = renderHtml({ ...syntheticReport(), component: {}, signing: { envelope: 'conformance.dsse.json' } });
  assert.match(html, /<dt>Signature<\/dt><dd>signed: see <code>conformance\.dsse\.json<\/code> beside this page; verify with <code>wfmck verify-report &lt;this folder&gt;<\/code><\/dd>/);
  assert.match(html, /<dt>Component<\/dt><dd><span class="muted">not configured \(component\.vendor/);
});

test('a component name from the configuration is escaped, never markup', () => {
  const html = renderHtml({ ...syntheticReport(), component: { name: '<script>x</script>' } });
  assert.match(html, /<dd>&lt;script&gt;x&lt;\/script&gt;<\/dd>/);
});
