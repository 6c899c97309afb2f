/**
 * The HTML reports in a real browser (Debian's chromium driven by playwright-core): the claims
 * matrix of one target and the combined matrix page. Checks that the summary counts match the
 * reports, that the outcome and component filters work, that status marks are drawn (no emoji
 * glyphs), and saves screenshots under reports/screenshots/. Skips, saying why, when
 * /usr/bin/chromium is absent; CI installs it (.ci/run).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readInventory } from '../claims/inventory.ts';
import { buildConformance, type ConformanceReport } from './conformance.ts';
import { matrixHtml } from './matrix.ts';
import type { ScenarioResult } from './scenarios.ts';

const CHROMIUM = '/usr/bin/chromium';
// As the machine notes say: without the background-networking flags Chromium keeps trying to
// reach Google's hosts, which this closed network refuses.
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SHOTS = path.join('reports', 'screenshots');

const { claims } = readInventory('features');
const testable = claims.filter((c) => c.status === 'testable');

/** A reference-like run: everything passes but one failure and one known deviation. */
function report(name: string, outcomeOf: (ruleIndex: number) => ScenarioResult['outcome']): ConformanceReport {
  const results: ScenarioResult[] = testable.flatMap((c, i) =>
    c.scenarios.map((s) => ({ ruleId: c.id, name: s.name, uri: c.file, outcome: outcomeOf(i), ...(outcomeOf(i) === 'failed' ? { detail: 'AssertionError: expected 50 s, got 40 s' } : {}) })));
  return buildConformance({
    version: '0', target: { name, capabilities: ['kv'], contract_version: '1.0', versions: name === 'cluster' ? { kubernetes: '1.31.2' } : {} },
    seed: 1, command: 'test', finishedAt: '2026-11-30T18:00:00.000Z', claims, results,
  });
}

const reference = report('reference', (i) => (i === 0 ? 'failed' : i === 1 ? 'known-deviation' : 'passed'));
const cluster = report('cluster', (i) => (i % 3 === 0 ? 'passed' : 'not-applicable'));

test('the claims matrix and the matrix page in Chromium: counts, filters, CSS marks, screenshots', async (t) => {
  if (!fs.existsSync(CHROMIUM)) {
    t.skip(`${CHROMIUM} is not installed (apt-get install chromium fonts-noto-cjk; CI installs it)`);
    console.log(`browser test skipped: ${CHROMIUM} is not installed`);
    return;
  }
  const { chromium } = await import('playwright-core');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-html-'));
  fs.mkdirSync(SHOTS, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const single = path.join(dir, 'claims-matrix.html');
    fs.mkdirSync(path.join(dir, 'bench'));
    fs.writeFileSync(path.join(dir, 'bench', 'proxy.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect id="curve" width="40" height="20"/></svg>');
    fs.writeFileSync(single, matrixHtml(claims, [reference], { coverageHref: 'coverage/index.html', benchCharts: [{ name: 'proxy', href: 'bench/proxy.svg' }] }));
    await page.goto(pathToFileURL(single).href);
    assert.equal(await page.textContent('#shown'), `${claims.length} of ${claims.length} claims shown`);
    await page.selectOption('#outcome', 'failed');
    assert.equal(await page.textContent('#shown'), `1 of ${claims.length} claims shown`);
    assert.equal(await page.locator('#claims tbody tr:not(.hidden)').getAttribute('id'), testable[0]!.id);
    await page.locator('#claims tbody tr:not(.hidden) details summary').click();
    assert.match((await page.locator('#claims tbody tr:not(.hidden) pre').first().textContent()) ?? '', /expected 50 s, got 40 s/, 'a Rule opens to its failure message');
    await page.screenshot({ path: path.join(SHOTS, 'claims-matrix-failed.png'), fullPage: false });
    await page.selectOption('#outcome', 'known-deviation');
    assert.equal(await page.textContent('#shown'), `1 of ${claims.length} claims shown`);
    await page.selectOption('#outcome', '');
    const component = testable[2]!.component;
    await page.selectOption('#component', component);
    assert.equal(await page.textContent('#shown'), `${claims.filter((c) => c.component === component).length} of ${claims.length} claims shown`);
    await page.selectOption('#component', '');
    assert.equal(await page.getAttribute('#coverage', 'href'), 'coverage/index.html', 'the page links to the c8 report');
    assert.equal(await page.getAttribute('#bench-proxy', 'href'), 'bench/proxy.svg', 'the page links to the kube-proxy bench chart');
    await page.click('#bench-proxy');
    assert.equal(await page.locator('#curve').count(), 1, 'the link opens the chart');
    await page.goBack();
    // Marks are CSS shapes: the ::before box has a size and a colour, and no emoji is in the text.
    const mark = await page.locator('#claims td > .mark.passed').first().evaluate((el) => {
      const s = getComputedStyle(el, '::before');
      return { width: s.width, background: s.backgroundColor };
    });
    assert.deepEqual(mark, { width: '10px', background: 'rgb(46, 157, 76)' });
    assert.doesNotMatch(await page.content(), /[\u{1F300}-\u{1FAFF}\u2705\u274C\u26A0\u2796\u23F3]/u, 'no emoji glyphs');
    await page.screenshot({ path: path.join(SHOTS, 'claims-matrix.png') });

    const combined = path.join(dir, 'matrix.html');
    fs.writeFileSync(combined, matrixHtml(claims, [reference, cluster]));
    await page.goto(pathToFileURL(combined).href);
    const components = new Set(claims.map((c) => c.component)).size;
    assert.equal(await page.locator('#summary tbody tr').count(), components * 2, 'one summary bar per component and target');
    const summed = await page.locator('#summary tr[data-target="reference"] .n.passed').allTextContents();
    assert.equal(summed.reduce((n, s) => n + Number.parseInt(s, 10), 0), reference.totals.rules.passed, 'the bars add up to the report');
    await page.selectOption('#outcome', 'not-applicable');
    assert.equal(await page.textContent('#shown'), `${cluster.totals.rules['not-applicable']} of ${claims.length} claims shown`);
    assert.match((await page.textContent('.meta')) ?? '', /cluster \(kubernetes 1\.31\.2\)/, 'the page states each target\'s versions');
    await page.selectOption('#outcome', '');
    await page.screenshot({ path: path.join(SHOTS, 'matrix.png') });
    // A Chinese quote, opened, for the CJK font check by eye.
    await page.locator('#claims details', { has: page.locator('blockquote') }).first().locator('summary').click();
    await page.locator('#claims details[open]').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, 'matrix-quote.png') });
  } finally {
    await browser.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
