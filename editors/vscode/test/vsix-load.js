'use strict';
// ci-test.sh's check of the built package: unpack the .vsix and load its
// extension.js with node (a stand-in for the `vscode` module), so that the
// runtime dependencies it requires are in the package itself.
//
//   node test/vsix-load.js shmem-lint-<version>.vsix

const cp = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const stubs = require('./stubs');

const vsix = path.resolve(process.argv[2]);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shmem-lint-vsix-'));
try {
  cp.execFileSync('unzip', ['-q', vsix, '-d', dir]);
} catch {
  cp.execFileSync('python3', ['-m', 'zipfile', '-e', vsix, dir]);
}
const ext = path.join(dir, 'extension');
const manifest = JSON.parse(fs.readFileSync(path.join(ext, 'package.json'), 'utf8'));
const main = path.resolve(ext, manifest.main);
const client = require.resolve('vscode-languageclient/node', { paths: [path.dirname(main)] });
if (!client.startsWith(ext + path.sep)) {
  throw new Error(`vscode-languageclient resolves outside the package: ${client}`);
}
stubs.setModule('vscode', stubs.anything());
const loaded = require(main);
for (const f of ['activate', 'deactivate']) {
  if (typeof loaded[f] !== 'function') throw new Error(`${manifest.main} exports no ${f}()`);
}
if (fs.existsSync(path.join(ext, 'test'))) throw new Error('the package contains the tests');
fs.rmSync(dir, { recursive: true, force: true });
console.log(`vsix-load: ${path.basename(vsix)} loads ${manifest.main} with its own ${path.relative(ext, client)}`);
