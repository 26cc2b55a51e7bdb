'use strict';
// The layout explorer (`shmem-lint explain ... --format=html`) in headless
// Chromium, driven with real mouse and keyboard events: the page first
// shows exactly what the analysis computed, its explorer starts at the same
// numbers, and padding, swizzle, element type and block shape change them
// as the bank model says. No console message, no page error; screenshots
// under artifacts/ (their paths are printed).
//
// SHMEM_LINT_DOCS_IMG=path also saves the explorer's picture for the docs
// (docs/img/layout-explorer.png).

const test = require('node:test');
const assert = require('node:assert/strict');
const { run, artifact, open, screenshot } = require('./browser.js');

/// Writes the page of `explain ARGS --format=html` to artifacts/NAME.html.
function explain(name, args) {
  return artifact(name + '.html', run(['explain', ...args, '--format=html']));
}

/// The explorer's numbers as it shows them.
async function shown(page) {
  return page.$eval('#explorer', (e) => {
    const text = (id) => document.getElementById('explorer-' + id).textContent;
    return {
      wavefronts: Number(e.dataset.wavefronts), ideal: Number(e.dataset.ideal),
      degree: Number(e.dataset.degree), bytes: Number(e.dataset.bytes),
      phases: Number(e.dataset.phases), phaseLanes: Number(e.dataset.phaseLanes),
      laneBanks: e.dataset.laneBanks, wordsPerBank: e.dataset.wordsPerBank,
      agrees: e.dataset.agrees, source: e.dataset.source,
      cost: text('cost'), bytesText: text('bytes'), phasesText: text('phases'),
      agree: text('agree'), notes: text('notes'), layout: text('layout'),
      lanes: document.querySelectorAll('#explorer-svg circle').length,
      phaseLines: document.querySelectorAll('#explorer-svg line.phase').length,
    };
  });
}

/// What the analysis part of the page says about access I (0-based): its
/// summary row for LAYOUT and its terminal picture's lanes, for that layout.
async function analysed(page, i, layout = 'original') {
  return page.$eval(`#analysis-${i}`, (sec, i, layout) => {
    const row = document.getElementById(`analysis-${i}-${layout}`);
    const pre = document.getElementById(`analysis-${i}-text`).textContent;
    const head = { original: 'as written', padded: 'padded', swizzled: 'XOR swizzle' }[layout];
    const lines = pre.split('\n');
    const at = lines.findIndex((l) => l.startsWith(head));
    const banks = [];
    for (const l of lines.slice(at + 1, at + 3))
      for (const m of l.replace(/^ +lanes +\d+-\d+:/, '').matchAll(/(\d+)\*?|\./g))
        banks.push(m[1] === undefined ? -1 : Number(m[1]));
    return {
      wavefronts: Number(row.dataset.wavefronts), ideal: Number(row.dataset.ideal),
      degree: Number(row.dataset.degree), bytes: Number(row.dataset.bytes),
      cost: lines[at].replace(/^.*\): /, ''), laneBanks: banks.join(','),
    };
  }, i, layout);
}

/// Chooses the option of the <select> SEL whose text matches RE: a click
/// on it, arrow keys, Enter.
async function choose(page, sel, re) {
  const [from, to] = await page.$eval(sel, (s, src) => {
    const r = new RegExp(src);
    return [s.selectedIndex, [...s.options].findIndex((o) => r.test(o.textContent))];
  }, re.source);
  assert.ok(to >= 0, `${sel} has an option ${re}`);
  await page.click(sel);
  for (let i = from; i !== to; i += to > from ? 1 : -1)
    await page.keyboard.press(to > from ? 'ArrowDown' : 'ArrowUp');
  await page.keyboard.press('Enter');
  assert.match(await page.$eval(sel, (s) => s.options[s.selectedIndex].textContent), re);
}

/// Types VALUE into the number input SEL, replacing what was there.
async function type(page, sel, value) {
  await page.click(sel, { clickCount: 3 });
  await page.keyboard.type(String(value));
  assert.equal(await page.$eval(sel, (e) => e.value), String(value));
}

test('a 32-way column: the analysis, then padding, a swizzle and float4', async () => {
  const file = explain('explorer-column', ['--shape', '32x32', '--type', 'float', '--index', 'tile[lane][5]']);
  const { browser, page, problems } = await open(file, { width: 1200, height: 1000 });
  try {
    await page.waitForSelector('#explorer[data-wavefronts]');
    // The analysis part: the check's message and numbers.
    const message = await page.$eval('#analysis-0 .message', (e) => e.textContent);
    assert.match(message, /32-way bank conflict: lanes 0-31 read 32 distinct words of 'tile' in bank 5/);
    const a = await analysed(page, 0);
    assert.deepEqual([a.wavefronts, a.ideal, a.degree, a.bytes], [32, 1, 32, 4096]);
    assert.equal(a.cost, '32 wavefronts instead of 1: 32-way conflict');
    assert.equal(a.laneBanks, Array(32).fill(5).join(','));
    // The explorer's first render is the analysis', computed in the page.
    let s = await shown(page);
    assert.deepEqual([s.wavefronts, s.ideal, s.degree, s.bytes], [a.wavefronts, a.ideal, a.degree, a.bytes]);
    assert.equal(s.cost, a.cost);
    assert.equal(s.laneBanks, a.laneBanks);
    assert.equal(s.wordsPerBank, Array.from({ length: 32 }, (_, b) => (b === 5 ? 32 : 0)).join(','));
    assert.equal(s.agrees, 'yes');
    assert.match(s.agree, /the page agrees/);
    assert.equal(s.source, 'index');
    assert.equal(s.lanes, 32);
    await screenshot(page, 'explorer-column-initial');

    // Padding 1: the arrow key of the padding input.
    await page.click('#explorer-pad');
    await page.keyboard.press('ArrowUp');
    s = await shown(page);
    assert.deepEqual([s.wavefronts, s.ideal, s.degree, s.bytes], [1, 1, 1, 4224]);
    assert.equal(s.cost, '1 wavefront: conflict-free');
    assert.match(s.bytesText, /^4224 bytes \(\+128 vs as written\)$/);
    assert.match(s.layout, /float tile\[32\]\[33\]/);
    // ... which is the check's suggested fix: the page agrees with it.
    const padded = await analysed(page, 0, 'padded');
    assert.equal(s.agrees, 'yes');
    assert.equal(s.laneBanks, padded.laneBanks);
    assert.equal(s.cost, padded.cost);
    await screenshot(page, 'explorer-column-padded');
    if (process.env.SHMEM_LINT_DOCS_IMG) {
      await (await page.$('#explorer')).screenshot({ path: process.env.SHMEM_LINT_DOCS_IMG });
      console.log(`docs image: ${process.env.SHMEM_LINT_DOCS_IMG}`);
    }

    // Back to no padding, then the swizzle col ^ row.
    await page.keyboard.press('ArrowDown');
    assert.equal((await shown(page)).wavefronts, 32);
    await choose(page, '#explorer-swizzle', /^col \^ row$/);
    s = await shown(page);
    assert.deepEqual([s.wavefronts, s.degree, s.bytes], [1, 1, 4096]);
    assert.equal(s.cost, '1 wavefront: conflict-free');
    assert.match(s.layout, /tile\[r\]\[c \^ r\]/);
    const swizzled = await analysed(page, 0, 'swizzled');
    assert.equal(s.agrees, 'yes');
    assert.equal(s.laneBanks, swizzled.laneBanks);
    await screenshot(page, 'explorer-column-swizzled');

    // float4: 16-byte accesses, served in 4 phases of 8 lanes.
    await choose(page, '#explorer-type', /^float4 /);
    s = await shown(page);
    assert.deepEqual([s.phases, s.phaseLanes, s.wavefronts, s.ideal, s.bytes], [4, 8, 4, 4, 16384]);
    assert.match(s.phasesText, /^4 phases of 8 lanes \(16-byte access: each lane touches 4 banks\); wavefronts per phase: lanes 0-7: 1,/);
    assert.equal(s.phaseLines, 3);
    assert.equal(s.agrees, '');
    assert.match(s.agree, /the page\u2019s own/);
    // Without the swizzle: 8-way in every phase.
    await choose(page, '#explorer-swizzle', /^none$/);
    s = await shown(page);
    assert.deepEqual([s.wavefronts, s.ideal, s.degree], [32, 4, 8]);
    await screenshot(page, 'explorer-column-float4');

    // Reset: the analysed layout again.
    await page.click('#explorer-reset');
    s = await shown(page);
    assert.deepEqual([s.wavefronts, s.bytes, s.agrees], [32, 4096, 'yes']);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test('a conflict-free row of a 32x8 block, and the block shape changed', async () => {
  const file = explain('explorer-row', ['--shape', '32x32', '--index', 'tile[threadIdx.y][threadIdx.x]', '--block', '32x8']);
  const { browser, page, problems } = await open(file, { width: 1200, height: 1000 });
  try {
    await page.waitForSelector('#explorer[data-wavefronts]');
    assert.match(await page.$eval('#analysis-0 .message', (e) => e.textContent),
                 /^No bank conflict: 1 wavefront: conflict-free/);
    const a = await analysed(page, 0);
    let s = await shown(page);
    assert.deepEqual([a.wavefronts, a.degree, a.bytes], [1, 1, 4096]);
    assert.deepEqual([s.wavefronts, s.degree, s.bytes], [a.wavefronts, a.degree, a.bytes]);
    assert.equal(s.laneBanks, a.laneBanks);
    assert.equal(s.agrees, 'yes');
    assert.equal(s.source, 'index');
    assert.equal(await page.$eval('#explorer-warp', (e) => e.options.length), 9); // worst + 8 warps
    await screenshot(page, 'explorer-row-initial');

    // A 16-wide block: each warp spans two rows of the tile, 2-way.
    await type(page, '#explorer-bx', 16);
    s = await shown(page);
    assert.deepEqual([s.wavefronts, s.degree], [2, 2]);
    assert.equal(s.agrees, '');
    await screenshot(page, 'explorer-row-block16');
    // Padding by one does not help: rows 0 and 1 are 33 words apart.
    await page.click('#explorer-pad');
    await page.keyboard.press('ArrowUp');
    s = await shown(page);
    assert.deepEqual([s.wavefronts, s.bytes], [2, 4224]);
    // Rows of 16 elements do, in half the memory.
    await page.keyboard.press('ArrowDown');
    await type(page, '#explorer-rowlen', 16);
    s = await shown(page);
    assert.deepEqual([s.wavefronts, s.bytes], [1, 2048]);
    assert.match(s.layout, /^float tile\[32\]\[16\]/);
    // A block too large is refused, and marked.
    await type(page, '#explorer-by', 512);
    assert.equal(await page.$eval('#explorer-by', (e) => e.getAttribute('aria-invalid')), 'true');
    assert.equal((await shown(page)).wavefronts, 1);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});

test('two accesses, a row length the index was not written for, and an index the page cannot read', async () => {
  let file = explain('explorer-two', ['--shape', '32x32', '--index', 'tile[lane][lane] + tile[lane][0]']);
  let { browser, page, problems } = await open(file);
  try {
    await page.waitForSelector('#explorer[data-wavefronts]');
    assert.equal((await shown(page)).wavefronts, 1);
    await choose(page, '#explorer-access', /tile\[lane\]\[0\]/);
    let s = await shown(page);
    const a = await analysed(page, 1);
    assert.deepEqual([s.wavefronts, s.agrees], [a.wavefronts, 'yes']);
    assert.equal(s.wavefronts, 32);
    // Rows of 16, kept for the other access: lane 16's column 16 is in no
    // row any more.
    await type(page, '#explorer-rowlen', 16);
    await choose(page, '#explorer-access', /tile\[lane\]\[lane\]/);
    assert.equal(await page.$eval('#explorer-rowlen', (e) => e.value), '16');
    s = await shown(page);
    assert.match(s.notes, /column 16, outside a row of 16 elements: the access pattern was written for rows of 32 elements and only makes sense for that shape/);
    await screenshot(page, 'explorer-two-rowlen16');
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }

  file = explain('explorer-vector', ['--shape', '32x32', '--index', 'reinterpret_cast<float4 *>(&tile[lane][0])[0]']);
  ({ browser, page, problems } = await open(file));
  try {
    await page.waitForSelector('#explorer[data-wavefronts]');
    const a = await analysed(page, 0);
    let s = await shown(page);
    assert.deepEqual([s.wavefronts, s.ideal, s.agrees, s.source], [a.wavefronts, a.ideal, 'yes', 'lanes']);
    assert.match(s.notes, /the block shape cannot be changed/);
    assert.equal(await page.$eval('#explorer-bx', (e) => e.disabled), true);
    // The analysis' own swizzle of 16-byte groups: col ^ (row % 8).
    await choose(page, '#explorer-swizzle', /row % n/);
    assert.equal(await page.$eval('#explorer-swz-n', (e) => e.value), '8');
    s = await shown(page);
    assert.deepEqual([s.wavefronts, s.agrees], [4, 'yes']);
    assert.match(s.layout, /on 16-byte groups of columns/);
    await screenshot(page, 'explorer-vector-swizzled');
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});
