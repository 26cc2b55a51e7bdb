'use strict';
// The extension's own logic, under plain node: settings -> the server's
// command line and options, the missing-executable message, and the
// extension's activation and restart against a fake vscode API.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');

const stubs = require('./stubs');
const config = require('../src/config');
const pkg = require('../package.json');

const real = stubs.realLanguageClientModule();

const tempDirs = [];
function tempDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shmem-lint-vscode-'));
  tempDirs.push(dir);
  return dir;
}
test.after(() => tempDirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function executable(dir, name = 'shmem-lint') {
  const file = path.join(dir, name);
  fs.writeFileSync(file, '#!/bin/sh\nexit 0\n');
  fs.chmodSync(file, 0o755);
  return file;
}

const tick = () => new Promise((r) => setImmediate(r));

test('package.json: the settings, their defaults and the code agree', () => {
  const props = pkg.contributes.configuration.properties;
  assert.deepEqual(Object.keys(props).sort(), [
    'shmem-lint.arguments', 'shmem-lint.compilationDatabasePath', 'shmem-lint.debounceMs',
    'shmem-lint.path', 'shmem-lint.trace.server',
  ]);
  for (const [key, value] of Object.entries(config.DEFAULTS)) {
    assert.deepEqual(props[`shmem-lint.${key}`].default, value, key);
  }
  assert.deepEqual(props['shmem-lint.trace.server'].enum, ['off', 'messages', 'verbose']);
  // Everything that restarts the server is a setting.
  for (const k of config.RESTART_SETTINGS) assert.ok(props[`shmem-lint.${k}`], k);
});

test('package.json: command, activation, entry point', () => {
  assert.deepEqual(pkg.contributes.commands, [
    { command: 'shmem-lint.restart', title: 'Restart server', category: 'shmem-lint' },
  ]);
  for (const e of ['onLanguage:cuda-cpp', 'onLanguage:cuda']) assert.ok(pkg.activationEvents.includes(e), e);
  assert.ok(fs.existsSync(path.join(__dirname, '..', pkg.main)));
  assert.match(pkg.devDependencies['@vscode/vsce'], /\d/);
  assert.ok(pkg.dependencies['vscode-languageclient']);
  // The id of the client is the settings section of trace.server.
  assert.ok(pkg.contributes.configuration.properties[`${config.SECTION}.trace.server`]);
});

test('document selector: cuda-cpp, cuda, *.cu and *.cuh files', () => {
  assert.deepEqual(config.DOCUMENT_SELECTOR, [
    { scheme: 'file', language: 'cuda-cpp' },
    { scheme: 'file', language: 'cuda' },
    { scheme: 'file', pattern: '**/*.cu' },
    { scheme: 'file', pattern: '**/*.cuh' },
  ]);
});

test('readSettings: defaults when unset, ill-typed values ignored', () => {
  assert.deepEqual(config.readSettings(() => undefined), config.DEFAULTS);
  const bad = { path: '  ', arguments: 'not-an-array', compilationDatabasePath: 3, debounceMs: -5 };
  assert.deepEqual(config.readSettings((k) => bad[k]), config.DEFAULTS);
  const mixed = { arguments: ['--checks=shmem-*', 7, '', '--cuda-path=none'], debounceMs: 250.4 };
  const s = config.readSettings((k) => mixed[k]);
  assert.deepEqual(s.arguments, ['--checks=shmem-*', '--cuda-path=none']);
  assert.equal(s.debounceMs, 250);
});

test('initializationOptions: arguments, compilationDatabasePath, debounceMs', () => {
  const ctx = { workspaceFolder: '/w', home: '/home/u', env: { ARCH: 'sm_90' } };
  assert.deepEqual(config.initializationOptions(config.DEFAULTS, ctx), { arguments: [], debounceMs: 400 });
  const s = config.readSettings((k) => ({
    arguments: ['--checks=shmem-*', '--config-file=${workspaceFolder}/.clang-tidy', '--cuda-gpu-arch=${env:ARCH}'],
    compilationDatabasePath: 'build',
    debounceMs: 200,
  })[k]);
  assert.deepEqual(config.initializationOptions(s, ctx), {
    arguments: ['--checks=shmem-*', '--config-file=/w/.clang-tidy', '--cuda-gpu-arch=sm_90'],
    compilationDatabasePath: 'build',
    debounceMs: 200,
  });
});

test('serverCommand: `<shmem-lint> lsp` in the workspace folder', () => {
  assert.deepEqual(config.serverCommand('/usr/bin/shmem-lint', { workspaceFolder: '/w' }),
    { command: '/usr/bin/shmem-lint', args: ['lsp'], options: { cwd: '/w' } });
  assert.deepEqual(config.serverCommand('/usr/bin/shmem-lint', {}),
    { command: '/usr/bin/shmem-lint', args: ['lsp'] });
});

test('substitute: ${workspaceFolder}, ${userHome}, ${env:X}, ~', () => {
  const ctx = { workspaceFolder: '/w', home: '/home/u', env: { X: 'x' } };
  assert.equal(config.substitute('${workspaceFolder}/build/bin/shmem-lint', ctx), '/w/build/bin/shmem-lint');
  assert.equal(config.substitute('~/bin/shmem-lint', ctx), '/home/u/bin/shmem-lint');
  assert.equal(config.substitute('${userHome}/a${env:X}${env:UNSET}', ctx), '/home/u/ax');
  assert.equal(config.substitute('${workspaceFolder}', { home: '/h', env: {} }), '${workspaceFolder}');
});

test('resolveExecutable: PATH lookup, paths from the workspace folder, non-executables skipped',
  { skip: process.platform === 'win32' && 'POSIX permissions' }, () => {
    const a = tempDir();
    const b = tempDir();
    fs.writeFileSync(path.join(a, 'shmem-lint'), 'not executable');
    const exe = executable(b);
    const env = { PATH: `${a}:${b}` };
    assert.equal(config.resolveExecutable('shmem-lint', { env }), exe);
    assert.equal(config.resolveExecutable('shmem-lint', { env: { PATH: a } }), null);
    assert.equal(config.resolveExecutable('no-such-shmem-lint', { env }), null);
    assert.equal(config.resolveExecutable(exe, { env: {} }), exe);
    assert.equal(config.resolveExecutable('./shmem-lint', { workspaceFolder: b, env: {} }), exe);
    assert.equal(config.resolveExecutable(b, { env: {} }), null, 'a directory is no executable');
  });

test('missingBinaryMessage: names the setting and how to install', () => {
  const m = config.missingBinaryMessage('shmem-lint');
  assert.match(m, /'shmem-lint' is not found on PATH/);
  assert.match(m, /"shmem-lint\.path"/);
  assert.match(m, /\.\/scripts\/setup\.sh --install/);
  assert.match(m, /\.deb/);
  const p = config.missingBinaryMessage('${workspaceFolder}/build/bin/shmem-lint', '/w/build/bin/shmem-lint');
  assert.match(p, /'\$\{workspaceFolder\}\/build\/bin\/shmem-lint' \(\/w\/build\/bin\/shmem-lint\) is no executable file there/);
});

test('activate: starts `<path> lsp` as the language client with the settings', async () => {
  const dir = tempDir();
  const exe = executable(dir);
  const { vscode, rec } = stubs.fakeVscode({
    folders: [dir],
    settings: { path: './shmem-lint', arguments: ['--checks=shmem-bank-conflict'], compilationDatabasePath: 'build', debounceMs: 100 },
  });
  const { lib, instances } = stubs.fakeLanguageClient(real);
  const ext = stubs.loadExtension(vscode, lib);
  const context = { subscriptions: [] };
  await ext.activate(context);
  assert.deepEqual(rec.errors, []);
  assert.equal(instances.length, 1);
  const c = instances[0];
  assert.equal(c.id, 'shmem-lint');
  assert.deepEqual(c.serverOptions, { command: exe, args: ['lsp'], options: { cwd: dir } });
  assert.deepEqual(c.clientOptions.documentSelector, config.DOCUMENT_SELECTOR);
  assert.deepEqual(c.clientOptions.initializationOptions, {
    arguments: ['--checks=shmem-bank-conflict'], compilationDatabasePath: 'build', debounceMs: 100,
  });
  assert.equal(c.starts, 1);
  assert.equal(ext._client(), c);
  assert.ok(rec.sections.every((s) => s === 'shmem-lint'));
  assert.ok(rec.commands.has('shmem-lint.restart'));
  assert.ok(context.subscriptions.length >= 3);
  // After it has started, a crash goes to the client's default handling
  // (restarts); the extension says nothing itself.
  assert.equal(c.clientOptions.errorHandler.closed().action, real.CloseAction.Restart);
  assert.deepEqual(rec.errors, []);
  await ext.deactivate();
  assert.equal(c.stops, 1);
});

test('activate: a missing executable gives one error message with the install command, no crash', async () => {
  const { vscode, rec } = stubs.fakeVscode({
    settings: { path: '/nonexistent/bin/shmem-lint' }, choice: 'Open Settings',
  });
  const { lib, instances } = stubs.fakeLanguageClient(real);
  const ext = stubs.loadExtension(vscode, lib);
  await ext.activate({ subscriptions: [] });
  await tick();
  assert.equal(instances.length, 0, 'no client for a missing executable');
  assert.equal(rec.errors.length, 1);
  assert.match(rec.errors[0].message, /cannot start the language server/);
  assert.match(rec.errors[0].message, /\/nonexistent\/bin\/shmem-lint/);
  assert.match(rec.errors[0].message, /\.\/scripts\/setup\.sh --install/);
  assert.match(rec.errors[0].message, /\.deb/);
  assert.deepEqual(rec.errors[0].actions, ['Open Settings']);
  assert.deepEqual(rec.executed, [['workbench.action.openSettings', 'shmem-lint.path']]);
  assert.ok(rec.output.includes(rec.errors[0].message), 'also in the output channel');
  await ext.deactivate();
});

test('activate: the default `shmem-lint` not on PATH gives the same message', async () => {
  const savedPath = process.env.PATH;
  process.env.PATH = tempDir();
  try {
    const { vscode, rec } = stubs.fakeVscode({});
    const { lib, instances } = stubs.fakeLanguageClient(real);
    const ext = stubs.loadExtension(vscode, lib);
    await ext.activate({ subscriptions: [] });
    assert.equal(instances.length, 0);
    assert.equal(rec.errors.length, 1);
    assert.match(rec.errors[0].message, /'shmem-lint' is not found on PATH/);
    await ext.deactivate();
  } finally {
    process.env.PATH = savedPath;
  }
});

test('a server that stops before initialize: one message, no restart loop', async () => {
  const exe = executable(tempDir());
  const { vscode, rec } = stubs.fakeVscode({ settings: { path: exe } });
  const { lib, instances } = stubs.fakeLanguageClient(real, { exitBeforeInit: true });
  const ext = stubs.loadExtension(vscode, lib);
  await ext.activate({ subscriptions: [] });
  await tick();
  assert.equal(instances.length, 1);
  assert.deepEqual(instances[0].closedResult, { action: real.CloseAction.DoNotRestart, handled: true });
  assert.equal(rec.errors.length, 1);
  assert.match(rec.errors[0].message, /stopped before the language server started/);
  assert.match(rec.errors[0].message, /setup\.sh --install/);
  assert.equal(ext._client(), undefined);
  await ext.deactivate();
});

test('"shmem-lint: Restart server" stops the server and starts a new one', async () => {
  const exe = executable(tempDir());
  const settings = { path: exe };
  const { vscode, rec } = stubs.fakeVscode({ settings });
  const { lib, instances } = stubs.fakeLanguageClient(real);
  const ext = stubs.loadExtension(vscode, lib);
  await ext.activate({ subscriptions: [] });
  settings.arguments = ['--min-degree=4'];
  await rec.commands.get('shmem-lint.restart')();
  assert.equal(instances.length, 2);
  assert.equal(instances[0].stops, 1);
  assert.equal(instances[1].starts, 1);
  assert.deepEqual(instances[1].clientOptions.initializationOptions.arguments, ['--min-degree=4']);
  assert.equal(ext._client(), instances[1]);
  await ext.deactivate();
  assert.equal(instances[1].stops, 1);
});

test('changing a server setting restarts it; trace.server does not', async () => {
  const exe = executable(tempDir());
  const { vscode, rec } = stubs.fakeVscode({ settings: { path: exe } });
  const { lib, instances } = stubs.fakeLanguageClient(real);
  const ext = stubs.loadExtension(vscode, lib);
  await ext.activate({ subscriptions: [] });
  const change = (key) => rec.configListeners.forEach((f) => f({ affectsConfiguration: (s) => key === s || key.startsWith(`${s}.`) }));
  change('shmem-lint.trace.server');
  change('editor.fontSize');
  await tick();
  assert.equal(instances.length, 1, 'no restart for trace.server or other sections');
  change('shmem-lint.arguments');
  await ext.deactivate();  // runs after the queued restart
  assert.equal(instances.length, 2);
  assert.equal(instances[0].stops, 1);
  assert.equal(instances[1].starts, 1);
  assert.equal(instances[1].stops, 1);
});
