'use strict';
// Stand-ins for the `vscode` module (which exists only inside VS Code) and
// for vscode-languageclient/node's LanguageClient, so that extension.js runs
// under plain node. The enums come from the real vscode-languageclient.

const Module = require('module');
const path = require('path');

const stubs = new Map();  // request -> fake file name
const originalResolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (stubs.has(request)) return stubs.get(request);
  return originalResolve.call(this, request, ...rest);
};

function setModule(request, exports) {
  const file = path.join(__dirname, `__stub__${request.replace(/[^A-Za-z0-9]/g, '_')}.js`);
  const m = new Module(file);
  m.filename = file;
  m.loaded = true;
  m.exports = exports;
  require.cache[file] = m;
  stubs.set(request, file);
}

// Any property, call or `new` of it gives another one: enough for
// vscode-languageclient to load (it subclasses vscode classes at load time).
function anything() {
  const f = function () {};
  return new Proxy(f, {
    get: (t, k) => {
      if (k === 'prototype') return t.prototype;
      if (k === 'then') return undefined;
      if (k === Symbol.toPrimitive) return () => '';
      return anything();
    },
    construct: () => anything(),
    apply: () => anything(),
  });
}

// The real vscode-languageclient/node, loaded against `anything` as vscode.
function realLanguageClientModule() {
  setModule('vscode', anything());
  stubs.delete('vscode-languageclient/node');
  return require('vscode-languageclient/node');
}

// A fake vscode API that records what the extension does with it.
function fakeVscode({ settings = {}, folders = ['/work/project'], choice } = {}) {
  const rec = {
    errors: [], commands: new Map(), executed: [], configListeners: [], output: [],
    sections: [], outputShown: 0,
  };
  const disposable = { dispose() {} };
  const vscode = {
    workspace: {
      workspaceFolders: folders.map((f) => ({ uri: { fsPath: f } })),
      getConfiguration: (section) => {
        rec.sections.push(section);
        return { get: (key) => settings[key] };
      },
      onDidChangeConfiguration: (fn) => { rec.configListeners.push(fn); return disposable; },
    },
    window: {
      createOutputChannel: (name) => ({
        name,
        appendLine: (line) => rec.output.push(line),
        show: () => { rec.outputShown++; },
        dispose() {},
      }),
      showErrorMessage: (message, ...actions) => {
        rec.errors.push({ message, actions });
        return Promise.resolve(choice);
      },
    },
    commands: {
      registerCommand: (id, fn) => { rec.commands.set(id, fn); return disposable; },
      executeCommand: (...args) => { rec.executed.push(args); return Promise.resolve(); },
    },
  };
  return { vscode, rec };
}

// A fake LanguageClient: records its construction, start and stop.
// behaviour.exitBeforeInit: the server stops before answering initialize (as
// a shmem-lint without `lsp` does): the client calls errorHandler.closed()
// and start() rejects, as vscode-languageclient 9 does.
function fakeLanguageClient(real, behaviour = {}) {
  const instances = [];
  class LanguageClient {
    constructor(id, name, serverOptions, clientOptions) {
      Object.assign(this, { id, name, serverOptions, clientOptions });
      this.starts = 0;
      this.stops = 0;
      this.stateListeners = [];
      instances.push(this);
    }
    createDefaultErrorHandler() {
      return {
        error: () => ({ action: real.ErrorAction.Continue }),
        closed: () => ({ action: real.CloseAction.Restart }),
      };
    }
    onDidChangeState(fn) { this.stateListeners.push(fn); return { dispose() {} }; }
    async start() {
      this.starts++;
      this.stateListeners.forEach((f) => f({ oldState: real.State.Stopped, newState: real.State.Starting }));
      if (behaviour.exitBeforeInit) {
        this.closedResult = await this.clientOptions.errorHandler.closed();
        throw new Error('Connection to server got closed.');
      }
      this.stateListeners.forEach((f) => f({ oldState: real.State.Starting, newState: real.State.Running }));
    }
    async stop() { this.stops++; }
  }
  const lib = {
    LanguageClient,
    CloseAction: real.CloseAction,
    ErrorAction: real.ErrorAction,
    State: real.State,
  };
  return { lib, instances };
}

const extensionPath = require.resolve('../src/extension.js');

// extension.js, loaded afresh against these fakes.
function loadExtension(vscode, clientLib) {
  setModule('vscode', vscode);
  setModule('vscode-languageclient/node', clientLib);
  delete require.cache[extensionPath];
  return require(extensionPath);
}

module.exports = { anything, setModule, realLanguageClientModule, fakeVscode, fakeLanguageClient, loadExtension };
