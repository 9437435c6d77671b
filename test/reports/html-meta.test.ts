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
  assert.match(
    html,
    /<dt>Signature<\/dt><dd>signed: see <code>conformance\.dsse\.json<\/code> beside this page; verify with <code>wfmck verify-report &lt;this folder&gt;<\/code><\/dd>/,
  );
  assert.match(html, /<dt>Component<\/dt><dd><span class="muted">not configured \(component\.vendor/);
});

test('a component name from the configuration is escaped, never markup', () => {
  const html = renderHtml({ ...syntheticReport(), component: { name: '<script>x</script>' } });
  assert.match(html, /<dd>&lt;script&gt;x&lt;\/script&gt;<\/dd>/);
});

test("persona device: the page says who started the client under test, and the kit's own client is called a self-check", () => {
  const row = (who: 'kit' | 'hook' | 'operator') =>
    /<dt>Client under test<\/dt><dd>(.*?)<\/dd>/.exec(renderHtml({ ...syntheticReport(), persona: 'device', clientUnderTest: who }))?.[1] ??
    '';
  assert.match(row('kit'), /the kit's own simulated client .*a self-check of the kit/);
  assert.match(row('hook'), /started for each check by <code>hooks\.startClient<\/code>/);
  assert.match(row('operator'), /started by hand for each check .*attended mode/);
  assert.doesNotMatch(renderHtml(syntheticReport()), /Client under test/, 'another persona has no client under test');
});

test("clientUnderTest comes from the run context: the embedded startClient is the kit's own client, a command a hook, attended an operator", async () => {
  const { metaFromContext } = await import('../../reports/conformance-json.ts');
  const { SEED_PROFILE } = await import('../../spec/profile.ts');
  const base = {
    kit: { name: 'wfmck' as const, version: '0' },
    embedded: true,
    targets: {},
    tls: { caFiles: [] },
    profile: SEED_PROFILE,
    strictness: 'default' as const,
    seed: 1,
    runs: 1,
    reporter: 'compact' as const,
    outDir: '/tmp',
    startedAt: '',
  };
  const admin = { kind: 'admin' as const, url: 'http://127.0.0.1:1', tokenEnv: 'T', timeoutMs: 1 };
  const command = { kind: 'command' as const, command: './start.sh', timeoutMs: 1 };
  assert.equal(metaFromContext({ ...base, persona: 'device', hooks: { startClient: admin } }).clientUnderTest, 'kit');
  assert.equal(metaFromContext({ ...base, persona: 'device', hooks: { startClient: command } }).clientUnderTest, 'hook');
  assert.equal(
    metaFromContext({ ...base, persona: 'device', hooks: {}, attend: { dir: '/tmp/a', timeoutMs: 1 } }).clientUnderTest,
    'operator',
  );
  assert.equal('clientUnderTest' in metaFromContext({ ...base, persona: 'wfm', hooks: {} }), false);
});
