'use strict';
// The residue lab page (shmem-lint explain --modulus M --step S
// --format=html) in headless Chromium, driven with real input events
// (clicks, typing, Enter, Tab, Space through the DevTools protocol): the
// seed's two scenarios step by step, a wrong prediction, a negative step,
// invalid input, and no console message or page error at any point.
//
//   cd test/browser && SHMEM_LINT=../../build/bin/shmem-lint node --test lab.test.js
//
// UPDATE_DOCS_IMG=1 also copies the mid-walk screenshot to
// docs/img/residue-lab.png.

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { run, artifact, open, screenshot, root } = require('./browser.js');

let browser, page, problems;

before(async () => {
  const args = ['explain', '--modulus', '8', '--step', '4', '--format=html'];
  const html = run(args);
  assert.equal(run(args), html, 'the same input gives the same bytes');
  assert.doesNotMatch(html, /<(?:script|link|img)[^>]+(?:src|href)=/i,
    'nothing is fetched');
  const file = artifact('residue-lab.html', html);
  ({ browser, page, problems } = await open(file));
});

after(async () => {
  if (browser) await browser.close();
});

// ---- helpers (real input events only; reading the DOM is fine) ----------

/// Replaces the text of the input SEL by typing TEXT into it.
async function setField(sel, text) {
  await page.click(sel);
  await page.keyboard.down('Control');
  await page.keyboard.press('KeyA');
  await page.keyboard.up('Control');
  await page.keyboard.press('Backspace');
  if (text !== '') await page.type(sel, text);
}

async function state() {
  return page.$eval('#lab', (e) => ({ ...e.dataset }));
}
async function text(sel) {
  return page.$eval(sel, (e) => e.textContent.replace(/\s+/g, ' ').trim());
}
async function visited() {
  return page.$$eval('#ring-nodes [data-residue]',
    (es) => es.map((e) => [Number(e.dataset.residue), e.dataset.visited]));
}
async function activeId() {
  return page.evaluate(() => document.activeElement && document.activeElement.id);
}
async function clickStep(times) {
  for (let i = 0; i < times; ++i) await page.click('#step-button');
}
function noProblems() {
  assert.deepEqual(problems, [], 'no console error or warning, no page error');
}

// ---- the tests ----------------------------------------------------------

test('the page as generated: inputs from the command line, the analogy, the link', async () => {
  assert.equal(await page.$eval('#modulus', (e) => e.value), '8');
  assert.equal(await page.$eval('#step', (e) => e.value), '4');
  assert.equal(await page.$eval('#prediction', (e) => e.value), '');
  const s = await state();
  assert.equal(s.state, 'ready');
  assert.equal(s.visits, '0');
  // Every input has a label.
  const unlabelled = await page.$$eval('input', (es) =>
    es.filter((e) => !e.labels || e.labels.length === 0).map((e) => e.id));
  assert.deepEqual(unlabelled, []);
  const analogy = await text('#analogy');
  assert.match(analogy, /analogy, not the bank model/);
  assert.match(analogy, /32 banks/);
  for (const word of ['no addresses', 'broadcasts', 'access widths', 'no synchronisation'])
    assert.ok(analogy.includes(word), word);
  assert.match(analogy, /shmem-lint explain --shape 32x32 .* --format=html/);
  assert.match(await page.$eval('#docs-link', (e) => e.href), /docs\/explain\.md$/);
  assert.equal((await visited()).length, 8);
  await screenshot(page, 'lab-0-loaded');
  noProblems();
});

test('scenario 1: modulus 8, step 4, predict 2, Step twice: 0 -> 4 -> 0', async () => {
  await page.click('#reset');
  await setField('#modulus', '8');
  await setField('#step', '4');
  // Step before predicting: it asks for the prediction and does not move.
  await page.click('#step-button');
  let s = await state();
  assert.equal(s.steps, '0');
  assert.equal(s.visits, '0');
  assert.match(await text('#prediction-error'), /Predict first/);
  assert.match(await text('#status'), /predicting before seeing is the point/);
  assert.equal(await activeId(), 'prediction', 'focus goes to the prediction');
  assert.equal(await page.$eval('#prediction', (e) => e.getAttribute('aria-invalid')), 'true');

  await page.type('#prediction', '2');
  assert.equal(await text('#prediction-error'), '', 'typing clears the request');
  await clickStep(1);
  s = await state();
  assert.equal(s.state, 'walking');
  assert.equal(s.visits, '0 4');
  assert.equal(s.prediction, '2');
  assert.equal(await page.$eval('#prediction', (e) => e.readOnly), true, 'locked in');
  assert.match(await text('#status'), /Step 1: 0 \+ 4 ≡ 4 \(mod 8\)/);
  assert.equal(await page.$eval('#result', (e) => e.hidden), true, 'no answer yet');
  await screenshot(page, 'lab-1-m8-s4-step1');

  await clickStep(1);
  s = await state();
  assert.equal(s.state, 'returned');
  assert.equal(s.visits, '0 4 0');
  assert.equal(s.period, '2');
  assert.equal(s.verdict, 'right');
  assert.match(await text('#verdict'), /right: you predicted 2 and the period is 2/);
  assert.match(await text('#why'), /8 \/ gcd\(8, 4\) = 8 \/ 4 = 2/);
  assert.match(await text('#why'), /only the multiples of 4 \{0, 4\}; the other 6 residues are never reached/);
  assert.match(await text('#visited'), /^0 → 4 → 0$/);
  assert.deepEqual((await visited()).filter(([, v]) => v === 'true').map(([r]) => r), [0, 4]);
  assert.equal((await visited()).filter(([, v]) => v === 'never').length, 6);
  assert.deepEqual(await page.$$eval('#log li', (es) => es.map((e) => e.textContent)),
    ['Step 1: 0 + 4 ≡ 4 (mod 8).', 'Step 2: 4 + 4 ≡ 0 (mod 8), back at 0.']);
  await screenshot(page, 'lab-1-m8-s4-returned');

  // Once back at 0, Step says so and does not move.
  await clickStep(1);
  assert.equal((await state()).visits, '0 4 0');
  assert.match(await text('#status'), /back at 0 and done/);
  noProblems();
});

test('scenario 2: Reset, step 1, predict 8 (Enter), Step eight times: every residue', async () => {
  await page.click('#reset');
  assert.equal(await page.$eval('#prediction', (e) => e.value), '', 'Reset clears the prediction');
  assert.equal(await page.$eval('#prediction', (e) => e.readOnly), false);
  await setField('#step', '1');
  assert.equal((await state()).state, 'ready');
  await page.click('#prediction');
  await page.keyboard.type('8');
  await page.keyboard.press('Enter'); // the first step, from the keyboard
  let s = await state();
  assert.equal(s.visits, '0 1');
  for (let k = 2; k <= 8; ++k) {
    await clickStep(1);
    s = await state();
    const want = Array.from({ length: k + 1 }, (_, i) => i % 8).join(' ');
    assert.equal(s.visits, want, `after step ${k}`);
    assert.equal(s.state, k < 8 ? 'walking' : 'returned');
  }
  assert.equal(s.period, '8');
  assert.equal(s.verdict, 'right');
  assert.match(await text('#why'), /gcd\(8, 1\) = 1: the step is coprime to the modulus, so the walk visits every residue/);
  assert.ok((await visited()).every(([, v]) => v === 'true'), 'all 8 residues visited');
  assert.equal(await page.$$eval('#log li', (es) => es.length), 8);
  await screenshot(page, 'lab-2-m8-s1-returned');
  noProblems();
});

test('scenario 2, a wrong prediction: predict 4, the page says the period is 8', async () => {
  // Keyboard only: Tab from the step field to Reset, Space to press it.
  await page.click('#step');
  await page.keyboard.press('Tab');
  assert.equal(await activeId(), 'reset');
  await page.keyboard.press('Space');
  assert.equal((await state()).state, 'ready');
  await page.type('#prediction', '4');
  await clickStep(4);
  let s = await state();
  assert.equal(s.state, 'walking', 'four steps are not the period');
  assert.equal(s.visits, '0 1 2 3 4');
  assert.equal(await page.$eval('#result', (e) => e.hidden), true);
  await clickStep(4);
  s = await state();
  assert.equal(s.state, 'returned');
  assert.equal(s.visits, '0 1 2 3 4 5 6 7 0');
  assert.equal(s.verdict, 'wrong');
  assert.match(await text('#verdict'), /wrong: you predicted 4, but the walk took 8 steps to come back to 0: the period is 8/);
  assert.equal(await page.$eval('#result', (e) => e.className), 'wrong');
  await screenshot(page, 'lab-2-m8-s1-wrong');
  noProblems();
});

test('a negative step walks backwards; "Walk to the end" needs the prediction too', async () => {
  await page.click('#reset');
  await setField('#step', '-3');
  assert.match(await text('#step-help'), /−3 is 5 modulo 8 \(it walks backwards\)/);
  await page.click('#finish');
  assert.equal((await state()).steps, '0', 'no prediction, no walk');
  assert.match(await text('#prediction-error'), /Predict first/);
  await page.type('#prediction', '8');
  await clickStep(1);
  assert.match(await text('#status'), /Step 1: 0 − 3 ≡ 5 \(mod 8\)/);
  await page.click('#finish');
  const s = await state();
  assert.equal(s.visits, '0 5 2 7 4 1 6 3 0');
  assert.equal(s.verdict, 'right');
  // A step the size of int64's maximum: 7 modulo 8.
  await setField('#step', '9223372036854775807');
  assert.equal((await state()).step, '7');
  assert.equal(await page.$eval('#prediction', (e) => e.value), '',
    'a new step clears a locked-in prediction');
  noProblems();
});

test('mid-walk picture: modulus 8, step 3, five steps (0 3 6 1 4 7) (docs/img/residue-lab.png)', async () => {
  await page.click('#reset');
  await setField('#modulus', '8');
  await setField('#step', '3');
  await page.type('#prediction', '8');
  await clickStep(5);
  const s = await state();
  assert.equal(s.visits, '0 3 6 1 4 7');
  assert.equal(s.state, 'walking');
  const png = await screenshot(page, 'lab-3-m8-s3-mid-walk');
  assert.ok(fs.statSync(png).size > 20000, 'a real, non-blank picture');
  if (process.env.UPDATE_DOCS_IMG) {
    const dest = path.join(root, 'docs', 'img', 'residue-lab.png');
    fs.copyFileSync(png, dest);
    console.log(`docs screenshot: ${dest}`);
  }
  noProblems();
});

test('invalid input: an inline message, no walk, no error', async () => {
  await setField('#modulus', '0');
  let s = await state();
  assert.equal(s.state, 'invalid');
  assert.match(await text('#modulus-error'), /The modulus must be a whole number from 1 to 1048576 \(not 0\)/);
  assert.equal(await page.$eval('#modulus', (e) => e.getAttribute('aria-invalid')), 'true');
  await page.click('#step-button');
  assert.match(await text('#status'), /Fix the modulus first/);
  assert.equal(await activeId(), 'modulus');
  await page.click('#finish');
  assert.equal((await state()).steps, '0');
  await screenshot(page, 'lab-4-invalid-modulus');

  await setField('#modulus', '2000000');
  assert.match(await text('#modulus-error'), /from 1 to 1048576 \(not 2000000\)/);
  await setField('#modulus', '');
  assert.match(await text('#modulus-error'), /Enter a modulus/);
  await setField('#modulus', '8');
  assert.equal(await text('#modulus-error'), '');
  await setField('#step', '');
  assert.equal((await state()).state, 'invalid');
  assert.match(await text('#step-error'), /Enter a step/);
  await setField('#step', '0');
  assert.equal((await state()).state, 'ready');
  // Out of range predictions are refused too.
  await setField('#prediction', '9');
  await page.click('#step-button');
  assert.match(await text('#prediction-error'), /from 1 to 8/);
  assert.equal((await state()).steps, '0');
  // Step 0: the walk never leaves 0, period 1.
  await setField('#prediction', '1');
  await page.click('#step-button');
  s = await state();
  assert.equal(s.visits, '0 0');
  assert.equal(s.verdict, 'right');
  assert.match(await text('#why'), /never leaves 0/);
  noProblems();
});

test('a large modulus is walked without drawing every residue', async () => {
  await setField('#modulus', '1048576');
  await setField('#step', '1');
  await setField('#prediction', '1048576');
  await page.click('#finish');
  const s = await state();
  assert.equal(s.state, 'returned');
  assert.equal(s.period, '1048576');
  assert.equal(s.verdict, 'right');
  assert.ok(await page.$$eval('#log li', (es) => es.length) <= 257);
  noProblems();
});

test('every ring size draws: labelled nodes, dots, no nodes; a step of 0', async () => {
  for (const [m, s, period] of [[1, 5, 1], [2, 1, 2], [33, 11, 3], [64, 24, 8],
    [65, 13, 5], [1024, 768, 4], [1025, 5, 205], [4096, 1, 4096]]) {
    await setField('#modulus', String(m));
    await setField('#step', String(s));
    await setField('#prediction', String(period));
    await page.click('#step-button');
    await page.click('#finish');
    const st = await state();
    assert.equal(st.state, 'returned', `modulus ${m}, step ${s}`);
    assert.equal(st.period, String(period), `modulus ${m}, step ${s}`);
    assert.equal(st.verdict, 'right');
    const nodes = await page.$$eval('#ring-nodes .node', (es) => es.length);
    assert.equal(nodes, m <= 1024 ? m : 0);
    if (m > 1024)
      assert.equal(await page.$$eval('#ring-nodes .dot', (es) => es.length), Math.min(period, 1024));
    if (m === 33) await screenshot(page, 'lab-5-m33-s11-returned');
  }
  noProblems();
});
