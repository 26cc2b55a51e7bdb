'use strict';
// The real server, driven the way VS Code's language client drives it:
// `<shmem-lint> lsp --cuda-path=none` over stdio (vscode-languageserver-
// protocol, the library under vscode-languageclient), initialized with the
// initializationOptions the extension computes from its default settings.
//
//   SHMEM_LINT              the executable (default: ../../build/bin/shmem-lint
//                           from editors/vscode)
//   SHMEM_LINT_REQUIRE_LSP  1: fail, rather than skip, when the executable is
//                           missing or has no `lsp` command (ci-test.sh sets it)

const test = require('node:test');
const assert = require('node:assert/strict');
const cp = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { pathToFileURL } = require('url');
const lsp = require('vscode-languageserver-protocol/node');

const config = require('../src/config');
const pkg = require('../package.json');

const ROOT = path.resolve(__dirname, '..');  // editors/vscode
const BIN = path.resolve(ROOT, process.env.SHMEM_LINT || '../../build/bin/shmem-lint');
const EXAMPLE = path.resolve(ROOT, '../../examples/transpose.cu');
const REQUIRE = process.env.SHMEM_LINT_REQUIRE_LSP === '1';
const WAIT_MS = 60000;

// The extension's initializationOptions for its default settings (the
// defaults of package.json, read as VS Code would).
function extensionInitializationOptions(workspaceFolder) {
  const props = pkg.contributes.configuration.properties;
  const settings = config.readSettings((key) => props[`${config.SECTION}.${key}`]?.default);
  return config.initializationOptions(settings, { workspaceFolder });
}

// What VS Code 1.8x's client declares for the features this server has.
const CLIENT_CAPABILITIES = {
  workspace: {
    applyEdit: true,
    workspaceEdit: { documentChanges: true, resourceOperations: ['create', 'rename', 'delete'] },
    configuration: true,
    workspaceFolders: true,
  },
  textDocument: {
    synchronization: { dynamicRegistration: true, willSave: true, willSaveWaitUntil: true, didSave: true },
    publishDiagnostics: {
      relatedInformation: true, versionSupport: false, tagSupport: { valueSet: [1, 2] },
      codeDescriptionSupport: true, dataSupport: true,
    },
    hover: { dynamicRegistration: true, contentFormat: ['markdown', 'plaintext'] },
    codeAction: {
      dynamicRegistration: true, isPreferredSupport: true, disabledSupport: true, dataSupport: true,
      resolveSupport: { properties: ['edit'] }, honorsChangeAnnotations: false,
      codeActionLiteralSupport: {
        codeActionKind: {
          valueSet: ['', 'quickfix', 'refactor', 'refactor.extract', 'refactor.inline',
            'refactor.rewrite', 'source', 'source.organizeImports'],
        },
      },
    },
  },
  window: { showMessage: { messageActionItem: { additionalPropertiesSupport: true } }, workDoneProgress: true },
  general: { positionEncodings: ['utf-16'] },
};

function offsetAt(text, { line, character }) {
  let off = 0;
  for (let l = 0; l < line; l++) {
    const nl = text.indexOf('\n', off);
    assert.notEqual(nl, -1, `line ${line} is past the end`);
    off = nl + 1;
  }
  return off + character;
}

function applyEdits(text, edits) {
  const sorted = [...edits].sort((a, b) => offsetAt(text, b.range.start) - offsetAt(text, a.range.start));
  for (const e of sorted) {
    text = text.slice(0, offsetAt(text, e.range.start)) + e.newText + text.slice(offsetAt(text, e.range.end));
  }
  return text;
}

function within(range, pos) {
  const le = (a, b) => a.line < b.line || (a.line === b.line && a.character <= b.character);
  return le(range.start, pos) && le(pos, range.end);
}

// Does `--help` mention the lsp command (then a server that dies is a
// failure, not an old executable)?
function helpMentionsLsp() {
  const r = cp.spawnSync(BIN, ['--help'], { encoding: 'utf8' });
  return /\blsp\b/.test(`${r.stdout}${r.stderr}`);
}

class Server {
  constructor(cwd) {
    this.stderr = '';
    this.exited = new Promise((resolve) => {
      this.proc = cp.spawn(BIN, ['lsp', '--cuda-path=none'], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
      this.proc.on('exit', (code, signal) => resolve({ code, signal }));
      this.proc.on('error', (error) => resolve({ code: null, signal: null, error }));
    });
    this.proc.stderr.setEncoding('utf8');
    this.proc.stderr.on('data', (d) => { this.stderr += d; });
    this.conn = lsp.createProtocolConnection(
      new lsp.StreamMessageReader(this.proc.stdout), new lsp.StreamMessageWriter(this.proc.stdin));
    this.diagnostics = [];  // every publishDiagnostics, in order
    this.waiters = [];
    this.log = [];
    this.conn.onNotification(lsp.PublishDiagnosticsNotification.type, (p) => {
      this.diagnostics.push(p);
      this.waiters = this.waiters.filter((w) => !w());
    });
    this.conn.onNotification((method, params) => this.log.push({ method, params }));
    // Requests a client answers: configuration, capability registration,
    // progress creation, messages.
    this.conn.onRequest((method, params) => {
      this.log.push({ request: method, params });
      if (method === 'workspace/configuration') return params.items.map(() => null);
      return null;
    });
    this.conn.onError(([error]) => this.log.push({ connectionError: String(error) }));
    this.conn.listen();
  }

  // The first publishDiagnostics for uri (published from index `from` on)
  // that satisfies pred.
  waitForDiagnostics(uri, pred, from = 0, what = 'diagnostics') {
    return new Promise((resolve, reject) => {
      const check = () => {
        for (let i = from; i < this.diagnostics.length; i++) {
          const p = this.diagnostics[i];
          if (p.uri === uri && pred(p)) { clearTimeout(timer); resolve(p); return true; }
        }
        return false;
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== check);
        reject(new Error(`no ${what} for ${uri} in ${WAIT_MS} ms; published: ${JSON.stringify(this.diagnostics, null, 1)}` +
          `\nserver stderr:\n${this.stderr}`));
      }, WAIT_MS);
      if (!check()) this.waiters.push(check);
    });
  }

  kill() {
    if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill('SIGKILL');
    this.conn.dispose();
  }
}

function raceExit(server, promise, what) {
  return Promise.race([
    promise,
    server.exited.then((e) => {
      throw Object.assign(new Error(`the server exited (${JSON.stringify(e)}) before answering ${what}; ` +
        `stderr:\n${server.stderr}`), { exitedEarly: true });
    }),
  ]);
}

test(`the real server: diagnostics, quick fix, hover, edits, shutdown (${BIN})`, { timeout: 180000 }, async (t) => {
  if (!fs.existsSync(BIN)) {
    const why = `no shmem-lint executable at ${BIN} (set SHMEM_LINT)`;
    if (REQUIRE) assert.fail(why);
    t.skip(why);
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shmem-lint-lsp-'));
  const file = path.join(dir, 'transpose.cu');
  fs.copyFileSync(EXAMPLE, file);
  const text = fs.readFileSync(file, 'utf8');
  const uri = pathToFileURL(file).href;
  const rootUri = pathToFileURL(dir).href;

  const server = new Server(dir);
  t.after(() => {
    server.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  // initialize, as the client sends it.
  let init;
  try {
    init = await raceExit(server, server.conn.sendRequest(lsp.InitializeRequest.type, {
      processId: process.pid,
      clientInfo: { name: 'Visual Studio Code', version: '1.82.0' },
      locale: 'en',
      rootPath: dir,
      rootUri,
      capabilities: CLIENT_CAPABILITIES,
      initializationOptions: extensionInitializationOptions(dir),
      trace: 'off',
      workspaceFolders: [{ uri: rootUri, name: path.basename(dir) }],
    }), 'initialize');
  } catch (error) {
    if (error.exitedEarly && !REQUIRE && !helpMentionsLsp()) {
      t.skip(`${BIN} has no \`lsp\` command yet (\`${path.basename(BIN)} lsp\` exited before ` +
        `answering initialize; its stderr: ${server.stderr.trim().split('\n')[0]})`);
      return;
    }
    throw error;
  }
  const caps = init.capabilities;
  assert.equal(init.serverInfo?.name, 'shmem-lint', JSON.stringify(init));
  assert.match(init.serverInfo.version, /^\d+\.\d+\.\d+/);
  assert.deepEqual(caps.textDocumentSync, { openClose: true, change: 1, save: { includeText: false } });
  assert.deepEqual(caps.codeActionProvider, { codeActionKinds: ['quickfix'] });
  assert.equal(caps.hoverProvider, true);
  await server.conn.sendNotification(lsp.InitializedNotification.type, {});

  // didOpen: the 32-way conflict of the column read, line 23 col 33 (1-based).
  await server.conn.sendNotification(lsp.DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: 'cuda-cpp', version: 1, text },
  });
  const opened = await raceExit(server, server.waitForDiagnostics(uri, (p) => p.version === 1, 0,
    'diagnostics of version 1'), 'didOpen with diagnostics');
  const conflicts = opened.diagnostics.filter((d) => d.code === 'shmem-bank-conflict');
  assert.equal(conflicts.length, 1, JSON.stringify(opened.diagnostics, null, 1));
  const diag = conflicts[0];
  assert.deepEqual(diag.range.start, { line: 22, character: 32 });
  assert.ok(diag.range.end.line > 22 || diag.range.end.character > 32, `an empty range: ${JSON.stringify(diag.range)}`);
  assert.equal(diag.severity, 2);
  assert.equal(diag.source, 'shmem-lint');
  assert.match(diag.message, /^32-way bank conflict: lanes 0-31 read /);
  assert.match(diag.codeDescription?.href ?? '', /\/docs\/checks\/shmem-bank-conflict\.md$/);
  assert.ok(diag.data?.fixes >= 1, `data: ${JSON.stringify(diag.data)}`);
  assert.ok((diag.relatedInformation ?? []).some((r) => r.location.uri === uri &&
    r.location.range.start.line === 13 && /padding 'tile' to \[32\]\[33\]/.test(r.message)),
  `the padding note at line 14: ${JSON.stringify(diag.relatedInformation, null, 1)}`);
  assert.deepEqual(opened.diagnostics.filter((d) => d.severity === 1), [], 'no errors');
  assert.deepEqual(opened.diagnostics.filter((d) => d.severity === 2).map((d) => d.code),
    ['shmem-bank-conflict'], 'the one warning of examples/transpose.cu');

  // codeAction on the diagnostic, as the light bulb asks for it.
  const actions = await raceExit(server, server.conn.sendRequest(lsp.CodeActionRequest.type, {
    textDocument: { uri },
    range: diag.range,
    context: { diagnostics: [diag], triggerKind: 2 },
  }), 'codeAction');
  assert.equal(actions?.length, 1, JSON.stringify(actions, null, 1));
  const fix = actions[0];
  assert.equal(fix.kind, 'quickfix');
  assert.equal(fix.isPreferred, true);
  assert.match(fix.title, /^shmem-lint: .*TILE \+ 1/);
  assert.deepEqual(fix.diagnostics?.map((d) => [d.code, d.range]), [[diag.code, diag.range]]);
  assert.deepEqual(Object.keys(fix.edit?.changes ?? {}), [uri], JSON.stringify(fix.edit));
  const edits = fix.edit.changes[uri];
  assert.deepEqual(edits, [{
    range: { start: { line: 13, character: 30 }, end: { line: 13, character: 34 } },
    newText: 'TILE + 1',
  }]);
  const fixed = applyEdits(text, edits);
  assert.equal(fixed.split('\n')[13], '  __shared__ float tile[TILE][TILE + 1];');

  // hover on the diagnostic: the message and the lane -> bank picture.
  const hover = await raceExit(server, server.conn.sendRequest(lsp.HoverRequest.type, {
    textDocument: { uri }, position: diag.range.start,
  }), 'hover');
  assert.equal(hover?.contents?.kind, 'markdown', JSON.stringify(hover));
  const md = hover.contents.value;
  assert.ok(md.startsWith(`**shmem-bank-conflict**: ${diag.message}`), md);
  const picture = /```text\n([\s\S]*?)\n```/.exec(md);
  assert.ok(picture, `no text block in the hover: ${md}`);
  assert.match(picture[1], /^lane -> bank\b/m, picture[1]);
  // As written, all 32 lanes in bank 0.
  assert.match(picture[1], /^\s*lanes\s+0-15:(\s+0){16}\s*$/m, `no row of lanes 0-15 in bank 0: ${picture[1]}`);
  assert.match(picture[1], /^\s*lanes\s+16-31:(\s+0){16}\s*$/m, `no row of lanes 16-31 in bank 0: ${picture[1]}`);
  assert.ok(hover.range && within(hover.range, diag.range.start), `hover range ${JSON.stringify(hover.range)}`);
  const nothing = await server.conn.sendRequest(lsp.HoverRequest.type, {
    textDocument: { uri }, position: { line: 8, character: 0 },
  });
  assert.equal(nothing, null, `hover on line 9 (nothing there): ${JSON.stringify(nothing)}`);

  // didChange to the fixed text (the quick fix applied, unsaved): after the
  // debounce, diagnostics of version 2 without the conflict.
  const mark = server.diagnostics.length;
  await server.conn.sendNotification(lsp.DidChangeTextDocumentNotification.type, {
    textDocument: { uri, version: 2 },
    contentChanges: [{ text: fixed }],
  });
  const changed = await raceExit(server, server.waitForDiagnostics(uri, (p) => p.version === 2, mark,
    'diagnostics of version 2'), 'didChange with diagnostics');
  assert.deepEqual(changed.diagnostics.filter((d) => d.code === 'shmem-bank-conflict' || d.severity <= 2), [],
    JSON.stringify(changed.diagnostics, null, 1));
  // The quick fix of version 1 no longer applies.
  const stale = await server.conn.sendRequest(lsp.CodeActionRequest.type, {
    textDocument: { uri }, range: diag.range, context: { diagnostics: [diag], triggerKind: 1 },
  });
  assert.deepEqual(stale ?? [], [], `code actions for a stale diagnostic: ${JSON.stringify(stale)}`);

  // didClose clears the document's diagnostics.
  const mark2 = server.diagnostics.length;
  await server.conn.sendNotification(lsp.DidCloseTextDocumentNotification.type, { textDocument: { uri } });
  await raceExit(server, server.waitForDiagnostics(uri, (p) => p.diagnostics.length === 0, mark2,
    'the empty diagnostics of didClose'), 'didClose');

  // shutdown, exit: exit code 0.
  const result = await raceExit(server, server.conn.sendRequest(lsp.ShutdownRequest.type), 'shutdown');
  assert.equal(result, null);
  await server.conn.sendNotification(lsp.ExitNotification.type);
  const exit = await Promise.race([
    server.exited,
    new Promise((r) => setTimeout(() => r({ timeout: true }), 10000).unref()),
  ]);
  assert.deepEqual(exit, { code: 0, signal: null }, `exit: ${JSON.stringify(exit)}; stderr:\n${server.stderr}`);
  assert.deepEqual(server.log.filter((m) => m.connectionError), []);
});
