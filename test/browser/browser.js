'use strict';
// Shared by the browser tests: runs shmem-lint to make a page, opens it in
// Debian's Chromium (headless, through puppeteer-core and the DevTools
// protocol), records every console message and page error, and saves
// screenshots under artifacts/ (printed, so they are in the test output).

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const puppeteer = require('puppeteer-core');

const root = path.resolve(__dirname, '..', '..');
const shmemLint = process.env.SHMEM_LINT ||
    path.join(root, 'build', 'bin', 'shmem-lint');
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';
const artifacts = path.join(__dirname, 'artifacts');

/// Runs shmem-lint with ARGS and returns its stdout; exit status 1 (findings)
/// is not an error here.
function run(args) {
  try {
    return execFileSync(shmemLint, args, { encoding: 'utf8', maxBuffer: 1 << 30 });
  } catch (e) {
    if (e.status === 1) return e.stdout;
    throw e;
  }
}

/// Writes TEXT to artifacts/NAME and returns the file's path.
function artifact(name, text) {
  fs.mkdirSync(artifacts, { recursive: true });
  const p = path.join(artifacts, name);
  fs.writeFileSync(p, text);
  return p;
}

/// Opens FILE; `problems` collects console errors/warnings and page errors.
async function open(file, { width = 1200, height = 900 } = {}) {
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const page = await browser.newPage();
  await page.setViewport({ width, height });
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warn' || m.type() === 'warning') {
      problems.push(`console ${m.type()}: ${m.text()}`);
    }
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  await page.goto('file://' + file, { waitUntil: 'load' });
  return { browser, page, problems };
}

/// Saves a screenshot of PAGE as artifacts/NAME.png and says where.
async function screenshot(page, name) {
  fs.mkdirSync(artifacts, { recursive: true });
  const p = path.join(artifacts, name + '.png');
  await page.screenshot({ path: p });
  console.log(`screenshot: ${p}`);
  return p;
}

module.exports = { run, artifact, open, screenshot, shmemLint, root };
