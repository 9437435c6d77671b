// conformance.html in a real browser (system Chromium, never a downloaded one): the matrix renders, a filter hides
// rows, a failure's evidence expands, a hostile body stays text; a screenshot is kept as an artifact.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from '@playwright/test';
import { renderHtml } from '../../reports/html/render.ts';
import { specSectionTitles } from '../../reports/requirement-reporter.ts';
import { FAILING_ID, HOSTILE_BODY, syntheticReport } from './synthetic.ts';

const CHROMIUM = process.env.WFMCK_CHROMIUM_BIN ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
// Kept as an artifact where CI asks (WFMCK_ARTIFACTS), else in the temp folder: never in the user's checkout.
const SCREENSHOT_DIR = join(process.env.WFMCK_ARTIFACTS ?? tmpdir(), 'wfmck-screenshots');

test('conformance.html renders, filters, expands evidence and keeps hostile bodies inert in Chromium', { timeout: 120_000 }, async () => {
  assert.ok(
    existsSync(CHROMIUM),
    `${CHROMIUM} is missing: install it with "apt-get update && apt-get install -y chromium" (.ci/run does this)`,
  );
  const report = syntheticReport();
  const dir = mkdtempSync(join(tmpdir(), 'wfmck-html-'));
  const file = join(dir, 'conformance.html');
  writeFileSync(file, renderHtml(report, specSectionTitles()));
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const consoleErrors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    page.on('pageerror', (e) => consoleErrors.push(e.message));
    await page.goto(pathToFileURL(file).href);

    assert.equal(await page.locator('tr.req').count(), report.requirements.length, 'one row per requirement');
    const attention = report.requirements.filter((r) => ['fail', 'error', 'blocked', 'warn', 'not-covered'].includes(r.status)).length;
    assert.equal(await page.locator('tr.req:visible').count(), attention, 'unfiltered, only what needs attention is unfolded');
    assert.match(await page.locator('#shown').innerText(), new RegExp(`^${report.requirements.length} of ${report.requirements.length}`));
    // Each failure's reason is readable without a click, and every failure sits above the first skip.
    for (const reason of await page.locator('tr.req[data-status="fail"] .reason').all())
      assert.equal(await reason.isVisible(), true, 'a failed row shows its reason folded');
    // Unfold everything, as a reader scrolling the whole page would see it.
    await page.locator('details.spec-section').evaluateAll((all) => all.forEach((d) => ((d as unknown as { open: boolean }).open = true)));
    const tops = async (status: string) =>
      page
        .locator(`tr.req[data-status="${status}"]`)
        .evaluateAll((rows) => rows.map((e) => e.getBoundingClientRect().top + (globalThis as unknown as { scrollY: number }).scrollY));
    const failures = await tops('fail');
    const firstSkip = Math.min(...(await tops('skip')));
    assert.ok(
      failures.length > 0 && failures.every((top) => top < firstSkip),
      `every failure (${failures.join(', ')}) above the first skip (${firstSkip})`,
    );
    await page.click('#f-reset');

    // The level filter hides every row of another level, and unfolds the sections that hold the others.
    await page.selectOption('#f-level', 'MAY');
    const may = report.requirements.filter((r) => r.level === 'MAY').length;
    assert.equal(await page.locator('tr.req:visible').count(), may);
    assert.equal(await page.locator('tr.req[data-level="MUST"]:visible').count(), 0);
    await page.click('#f-reset');
    await page.fill('#f-text', FAILING_ID.toLowerCase());
    assert.equal(await page.locator('tr.req:visible').count(), 1, 'free text finds the one requirement');
    await page.click('#f-reset');
    await page.click('.chip.st-fail');
    assert.equal(await page.locator('tr.req:visible').count(), report.summary.fail, 'the fail chip filters to failures');

    // The failure's evidence is collapsed, then visible after a click on its summary.
    const row = page.locator(`tr.req[id="${FAILING_ID}"]`);
    const body = row.locator('pre.body', { hasText: '<script>' });
    assert.equal(await body.isVisible(), false, 'evidence starts collapsed');
    await row.locator('details.failure > summary').click();
    assert.equal(await body.isVisible(), true, 'evidence visible after expanding');
    assert.equal(await body.innerText(), HOSTILE_BODY, 'the hostile body is shown as text');
    assert.match(await row.locator('.replay code').innerText(), /^npx wfmck run --seed 42 --grep 'CAP-EXT-IGNORED'$/);
    assert.equal(await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned), undefined, 'no injected script ran');
    assert.equal(await page.locator('tr.req script, tr.req img').count(), 0, 'no element was injected');
    assert.deepEqual(consoleErrors, [], 'the page runs without errors (its own script passes the CSP)');

    await page.click('#f-reset');
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'conformance.png'), fullPage: false });
    await page.setViewportSize({ width: 1400, height: 1400 });
    await row.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'conformance-failure.png') });
  } finally {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test(
  "a passing report opens short (rows folded), and a self-check of the kit's own client says so at the top",
  { timeout: 120_000 },
  async () => {
    const passing = syntheticReport();
    const report = {
      ...passing,
      persona: 'device' as const,
      clientUnderTest: 'kit' as const,
      requirements: passing.requirements.map((r) =>
        ['fail', 'error', 'blocked', 'warn', 'not-covered'].includes(r.status)
          ? { ...r, status: 'pass' as const, tests: r.tests.map((t) => ({ ...t, status: 'pass' as const })) }
          : r,
      ),
      summary: { ...passing.summary, verdict: 'conformant' as const, fail: 0, error: 0, mustFailed: 0 },
      rootCauses: [],
    };
    const dir = mkdtempSync(join(tmpdir(), 'wfmck-html-'));
    const file = join(dir, 'conformance.html');
    writeFileSync(file, renderHtml(report, specSectionTitles()));
    let browser: Browser | undefined;
    try {
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      await page.goto(pathToFileURL(file).href);
      const height = await page.evaluate(
        () => (globalThis as unknown as { document: { documentElement: { scrollHeight: number } } }).document.documentElement.scrollHeight,
      );
      assert.ok(height < 8000, `a passing report is ${height} px tall with its rows folded (under 8,000)`);
      assert.equal(await page.locator('#selfcheck').isVisible(), true);
      assert.match(await page.locator('#selfcheck').innerText(), /^SELF-CHECK the client under test is the kit's own simulated client/);
      assert.equal(await page.locator('.verdict-selfcheck').isVisible(), true, 'beside the verdict badge too');
      // A link to a row unfolds its section.
      const id = report.requirements.find((r) => r.status === 'pass')!.id;
      await page.goto(`${pathToFileURL(file).href}#${id}`);
      assert.equal(await page.locator(`tr.req[id="${id}"]`).isVisible(), true);
    } finally {
      await browser?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
