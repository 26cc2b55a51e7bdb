'use strict';
// The HTML report (--format=html) in headless Chromium, driven with real
// mouse and keyboard events: the summary's counts are those of
// --format=json, the check filter (a click on the summary), the minimum
// degree (typed), the kernel filter (arrow keys on the select), the text
// search, grouping by shared array under its declaration, the lane table,
// the layout explorer's hook, the page with JavaScript off, and a report of
// 10,000 findings (size, first render, paging). No console error or
// warning and no page error anywhere; screenshots in artifacts/.
//
//   cd test/browser && SHMEM_LINT=../../build/bin/shmem-lint node --test report.test.js

const test = require('node:test');
const assert = require('node:assert');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { run, artifact, open, screenshot, root } = require('./browser.js');

const inputs = [
  path.join(root, 'test/lit/html/Inputs/kernels.cu'),
  path.join(root, 'examples/matmul.cu'),
  path.join(root, 'examples/reduction.cu'),
  path.join(root, 'examples/transpose.cu'),
];
const lint = (args) => run(['--cuda-path=none', ...args]);

let page1; // the report of `inputs`
let json; // the same findings from --format=json

test.before(() => {
  json = JSON.parse(lint(['--format=json', ...inputs]))
    .filter((x) => x.kind === 'finding');
  page1 = artifact('report.html', lint(['--format=html', ...inputs]));
});

const countBy = (xs, key) => xs.reduce((m, x) => {
  const k = key(x);
  m[k] = (m[k] || 0) + 1;
  return m;
}, {});
const degreeOf = (f) => {
  const m = /^([0-9]+)-way bank conflict/.exec(f.message);
  return m ? Number(m[1]) : 0;
};
const countText = (page) => page.$eval('#f-count', (e) => e.textContent);
const cards = (page) => page.$$eval('#findings section.finding', (es) => es.map((e) => ({
  id: e.id,
  check: e.querySelector('.check').textContent,
  loc: e.querySelector('h3 .loc').textContent,
  kernel: (e.querySelector('h3 .kernel code') || {}).textContent,
  message: e.querySelector('.message').textContent,
  text: e.textContent,
})));

// Cards off screen are laid out when they come near it (content-visibility):
// scroll first, let two frames settle the layout, then click.
async function clickSettled(page, selector) {
  await page.$eval(selector, (e) => e.scrollIntoView({ block: 'center' }));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.click(selector);
}

async function withPage(file, fn, opts) {
  const { browser, page, problems } = await open(file, opts);
  try {
    await fn(page, problems);
    assert.deepStrictEqual(problems, [], 'console errors, warnings or page errors');
  } finally {
    await browser.close();
  }
}

test('the summary counts are those of --format=json', async () => {
  await withPage(page1, async (page) => {
    const byCheck = countBy(json, (f) => f.check);
    const rows = await page.$$eval('#sum-check tbody tr', (trs) => trs.map((tr) => [
      tr.querySelector('.check').textContent, Number(tr.cells[1].textContent)]));
    assert.deepStrictEqual(Object.fromEntries(rows), byCheck);
    const byFile = countBy(json, (f) => f.path);
    const files = await page.$$eval('#sum-file tbody tr', (trs) => trs.map((tr) => [
      tr.cells[0].textContent, Number(tr.cells[1].textContent)]));
    assert.deepStrictEqual(Object.fromEntries(files), byFile);
    const degrees = countBy(json.filter((f) => degreeOf(f) > 1), degreeOf);
    const drows = await page.$$eval('#sum-degree tbody tr', (trs) => trs.map((tr) => [
      parseInt(tr.cells[0].textContent, 10), Number(tr.cells[1].textContent)]));
    assert.deepStrictEqual(Object.fromEntries(drows), degrees);
    const kernels = await page.$$eval('#sum-kernel tbody tr', (trs) =>
      trs.reduce((n, tr) => n + Number(tr.cells[2].textContent), 0));
    assert.strictEqual(kernels, json.length);
    const header = await page.$eval('header p', (e) => e.textContent);
    assert.match(header, new RegExp(`^${json.length} findings in ${Object.keys(byFile).length} files: `));
    // Every finding drawn, in the order of --format=json.
    assert.strictEqual(await countText(page), `Showing ${json.length} of ${json.length} matching findings.`);
    const shown = await cards(page);
    assert.deepStrictEqual(shown.map((c) => c.loc), json.map((f) => `${f.path}:${f.line}:${f.column}`));
    assert.deepStrictEqual(shown.map((c) => c.check), json.map((f) => f.check));
    await screenshot(page, 'report-top');
  }, { width: 1200, height: 1100 });
});

test('check filter: a click on the summary, and again to clear it', async () => {
  await withPage(page1, async (page) => {
    const races = json.filter((f) => f.check === 'shmem-race');
    assert.ok(races.length > 0);
    const row = await page.$$eval('#sum-check tbody tr', (trs) =>
      trs.findIndex((tr) => tr.querySelector('.check').textContent === 'shmem-race'));
    await page.click(`#sum-check tbody tr:nth-child(${row + 1})`);
    let shown = await cards(page);
    assert.strictEqual(shown.length, races.length);
    assert.ok(shown.every((c) => c.check === 'shmem-race'));
    assert.deepStrictEqual(shown.map((c) => c.loc), races.map((f) => `${f.path}:${f.line}:${f.column}`));
    assert.strictEqual(await page.$eval('#f-check', (s) => s.selectedOptions[0].textContent),
      `shmem-race (${races.length})`);
    assert.match(await countText(page), new RegExp(`^Showing ${races.length} of ${races.length} matching`));
    await screenshot(page, 'report-races');
    await page.click(`#sum-check tbody tr:nth-child(${row + 1})`);
    shown = await cards(page);
    assert.strictEqual(shown.length, json.length);
  });
});

test('minimum degree: typed, then a check chosen with the keyboard', async () => {
  await withPage(page1, async (page) => {
    await page.click('#f-degree');
    await page.keyboard.type('8');
    const want = json.filter((f) => degreeOf(f) >= 8);
    assert.ok(want.length > 0 && want.length < json.length);
    let shown = await cards(page);
    assert.deepStrictEqual(shown.map((c) => c.loc), want.map((f) => `${f.path}:${f.line}:${f.column}`));
    assert.ok(shown.every((c) => c.check === 'shmem-bank-conflict' && degreeOf(c) >= 8));
    // 32: only the 32-way ones.
    await page.keyboard.press('Backspace');
    await page.keyboard.type('32');
    shown = await cards(page);
    assert.strictEqual(shown.length, json.filter((f) => degreeOf(f) >= 32).length);
    assert.ok(shown.every((c) => /^32-way/.test(c.message)));
    await screenshot(page, 'report-32-way');
    // Reset, then the check select with arrow keys: the first check.
    await page.click('#f-reset');
    await page.focus('#f-check');
    await page.keyboard.press('ArrowDown');
    const first = await page.$eval('#f-check', (s) => s.selectedOptions[0].textContent);
    const name = first.replace(/ \([0-9]+\)$/, '');
    shown = await cards(page);
    assert.strictEqual(shown.length, json.filter((f) => f.check === name).length);
    assert.ok(shown.every((c) => c.check === name));
  });
});

test('kernel filter and text search', async () => {
  await withPage(page1, async (page) => {
    await page.focus('#f-kernel');
    await page.keyboard.press('ArrowDown');
    const opt = await page.$eval('#f-kernel', (s) => s.selectedOptions[0].textContent);
    const [, kernel, n] = /^(.*) \(([0-9]+)\)$/.exec(opt);
    let shown = await cards(page);
    assert.strictEqual(shown.length, Number(n));
    assert.ok(shown.every((c) => c.kernel === kernel), `${kernel}: ${shown.map((c) => c.kernel)}`);
    await page.click('#f-reset');
    await page.click('#f-text');
    await page.keyboard.type('tile');
    await page.waitForFunction(() => /\(.* in all\)/.test(document.getElementById('f-count').textContent));
    shown = await cards(page);
    assert.ok(shown.length > 0 && shown.length < json.length);
    assert.ok(shown.every((c) => /tile/i.test(c.text)));
  });
});

test('grouped by array: each shared array under its declaration', async () => {
  await withPage(page1, async (page) => {
    await page.click('#f-group input[value="array"]');
    const groups = await page.$$eval('#findings .group', (gs) => gs.map((g) => ({
      key: g.getAttribute('data-group'),
      name: (g.querySelector('h2 > code') || {}).textContent,
      count: parseInt(g.querySelector('h2 .n').textContent, 10),
      decl: (g.querySelector('.decl .hl') || {}).textContent,
      declAt: (g.querySelector('h2 .loc') || {}).textContent,
      messages: Array.from(g.querySelectorAll('section.finding')).map((s) => s.textContent),
    })));
    assert.ok(groups.length > 1);
    let total = 0;
    for (const g of groups) {
      assert.strictEqual(g.messages.length, g.count, g.key);
      total += g.count;
      if (!g.name) continue; // findings that name no shared array
      assert.match(g.declAt, /^declared at /, g.key);
      assert.match(g.decl, new RegExp(`__shared__.*\\b${g.name}\\b`), g.key);
      for (const m of g.messages) assert.ok(m.includes(g.name), `${g.name}: ${m.slice(0, 120)}`);
    }
    assert.strictEqual(total, json.length);
    // transposeNaive's tile and strided's s are two groups of their own.
    const tile = groups.find((g) => g.name === 'tile' && /kernels\.cu:5:20/.test(g.declAt));
    assert.ok(tile, 'the tile of kernels.cu');
    assert.strictEqual(tile.count, 1);
    assert.match(await countText(page), / in [0-9]+ groups\.$/);
    await page.$eval('#report', (e) => e.scrollIntoView());
    await screenshot(page, 'report-by-array');
    // By file: the files' groups in order, with the counts of the summary.
    await page.click('#f-group input[value="file"]');
    const files = await page.$$eval('#findings .group', (gs) => gs.map((g) => [
      g.querySelector('h2 .path').textContent, parseInt(g.querySelector('h2 .n').textContent, 10)]));
    assert.deepStrictEqual(Object.fromEntries(files), countBy(json, (f) => f.path));
  });
});

test('lane table, and the layout explorer hook', async () => {
  await withPage(page1, async (page) => {
    const card = '#finding-' + (json.findIndex((f) => /^32-way/.test(f.message)) + 1);
    await clickSettled(page, `${card} details.lanes summary`);
    await page.waitForSelector(`${card} details.lanes tbody tr`);
    assert.strictEqual(await page.$$eval(`${card} details.lanes tbody tr`, (r) => r.length), 32);
    await page.evaluate(() => {
      window.explored = [];
      document.addEventListener('shmem-lint:explore', (e) => window.explored.push(e.detail));
    });
    await clickSettled(page, `${card} button.explore`);
    const [d] = await page.evaluate(() => window.explored);
    assert.strictEqual(d.array, 'tile');
    assert.strictEqual(d.shape, '32x32');
    assert.strictEqual(d.type, 'float');
    assert.ok(d.index.startsWith('tile['), d.index);
    assert.ok(d.block, 'block');
    const cmd = await page.$eval(`${card} pre.explore-cmd`, (e) => e.textContent);
    assert.match(cmd, /^shmem-lint explain --shape 32x32 --type float --index 'tile\[.*\]' --block [0-9x]+ --format=html > explorer\.html$/);
    // The explorer itself opens in the card, from the analysis' picture:
    // 32 wavefronts as written, 1 after padding by one element (the arrow
    // key of its padding input), as the check's padded picture says.
    const ex = `${card} .shmem-explorer[data-started]`;
    await page.waitForSelector(ex);
    const id = await page.$eval(ex, (e) => e.id);
    const stat = () => page.$eval(ex, (e) => [e.getAttribute('data-wavefronts'), e.getAttribute('data-bytes')]);
    assert.deepStrictEqual(await stat(), ['32', '4096']);
    await page.click(`#${id}-pad`);
    await page.keyboard.press('ArrowUp');
    await page.waitForFunction((sel) => document.querySelector(sel).getAttribute('data-wavefronts') === '1', {}, ex);
    assert.deepStrictEqual(await stat(), ['1', '4224']);
    // A second click does not open a second explorer.
    await clickSettled(page, `${card} button.explore`);
    assert.strictEqual(await page.$$eval(`${card} .shmem-explorer`, (e) => e.length), 1);
    await page.$eval(card, (e) => e.scrollIntoView());
    await screenshot(page, 'report-lane-table');
  });
});

test('with JavaScript off: the summary, and what needs the script', async () => {
  const { browser, page, problems } = await open(page1);
  try {
    await page.setJavaScriptEnabled(false);
    await page.reload({ waitUntil: 'load' });
    assert.strictEqual(await page.$eval('.nojs', (e) => e.offsetHeight > 0), true);
    assert.strictEqual(await page.$eval('#report', (e) => e.offsetHeight), 0);
    assert.strictEqual(await page.$$eval('section.finding', (e) => e.length), 0);
    assert.ok(await page.$eval('#sum-check', (e) => e.offsetHeight > 0));
    await screenshot(page, 'report-no-script');
    assert.deepStrictEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test('10,000 findings: at most 10 MB, drawn a page at a time', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shmem-report-'));
  try {
    execFileSync('python3', [path.join(root, 'test/lit/html/Inputs/many_findings.py'),
      dir, '--kernels', '6250']);
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.cu')).sort()
      .map((f) => path.join(dir, f));
    const t0 = Date.now();
    const html = lint(['--format=html', ...files]);
    const analysed = Date.now() - t0;
    const big = artifact('report-10000.html', html);
    const bytes = fs.statSync(big).size;
    console.log(`10000-finding report: ${bytes} bytes (${(bytes / 1e6).toFixed(2)} MB), analysed in ${analysed} ms`);
    assert.ok(bytes <= 10e6, `${bytes} bytes`);
    await withPage(big, async (page) => {
      assert.strictEqual(await countText(page), 'Showing 50 of 10000 matching findings.');
      assert.strictEqual(await page.$$eval('#findings section.finding', (e) => e.length), 50);
      const total = await page.$$eval('#sum-check tbody tr', (trs) =>
        trs.reduce((n, tr) => n + Number(tr.cells[1].textContent), 0));
      assert.strictEqual(total, 10000);
      // Degree 16 and up, typed; then the next page.
      const want = await page.$$eval('#sum-degree tbody tr', (trs) => trs
        .filter((tr) => parseInt(tr.cells[0].textContent, 10) >= 16)
        .reduce((n, tr) => n + Number(tr.cells[1].textContent), 0));
      await page.click('#f-degree');
      const t = Date.now();
      await page.keyboard.type('16');
      console.log(`filter over 10000 findings: ${Date.now() - t} ms`);
      assert.strictEqual(await countText(page), `Showing 50 of ${want} matching findings (10000 in all).`);
      // The filter's page is drawn, and the button shown, after the typing's
      // events; on a loaded machine that is not at once.
      await page.waitForSelector('#more:not([hidden])', { timeout: 10000 });
      await clickSettled(page, '#more');
      assert.strictEqual(await page.$$eval('#findings section.finding', (e) => e.length), 100);
      const shown = await cards(page);
      assert.ok(shown.every((c) => degreeOf(c) >= 16));
      // Every kernel in the summary, on demand.
      await clickSettled(page, '#sum-kernel button.show-all');

      assert.strictEqual(await page.$$eval('#sum-kernel tbody tr', (e) => e.length), 6250);
      // A permalink to a finding far down the list: its page of findings.
      await page.goto(`file://${big}#finding-7777`, { waitUntil: 'load' });
      assert.ok(await page.$('#finding-7777'));
      assert.strictEqual(await countText(page), 'Showing 7751\u20137800 of 10000 matching findings.');
      await clickSettled(page, '#first');
      assert.strictEqual(await countText(page), 'Showing 50 of 10000 matching findings.');
      await screenshot(page, 'report-10000');
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
