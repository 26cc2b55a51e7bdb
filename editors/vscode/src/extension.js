'use strict';
// shmem-lint for VS Code: runs `shmem-lint lsp` as the language server of
// CUDA files. The logic without VS Code is in config.js.

const vscode = require('vscode');
const { LanguageClient, CloseAction, State } = require('vscode-languageclient/node');
const config = require('./config');

let output;         // the "shmem-lint" output channel, kept across restarts
let client;         // the running LanguageClient, if any
let queue = Promise.resolve();  // starts and stops, one at a time

function workspaceFolder() {
  const folders = vscode.workspace.workspaceFolders;
  return folders && folders.length ? folders[0].uri.fsPath : undefined;
}

function showError(message, ...actions) {
  output.appendLine(message);
  // Not awaited: the message stays until the user closes it.
  return vscode.window.showErrorMessage(message, ...actions).then((choice) => {
    if (choice === 'Open Settings') {
      return vscode.commands.executeCommand('workbench.action.openSettings', `${config.SECTION}.path`);
    }
    if (choice === 'Show Output') output.show(true);
    return undefined;
  });
}

// Starts the server for the current settings; resolves to the client, or to
// undefined when it could not start (after one error message).
async function startClient() {
  const cfg = vscode.workspace.getConfiguration(config.SECTION);
  const settings = config.readSettings((key) => cfg.get(key));
  const ctx = { workspaceFolder: workspaceFolder() };
  const expanded = config.substitute(settings.path, ctx);
  const executable = config.resolveExecutable(expanded, ctx);
  if (!executable) {
    void showError(config.missingBinaryMessage(settings.path, expanded), 'Open Settings');
    return undefined;
  }

  let running = false;
  let defaultHandler;
  const errorHandler = {
    error: (error, message, count) => defaultHandler.error(error, message, count),
    closed: () => {
      if (running) return defaultHandler.closed();
      // It stopped before answering initialize: do not retry an executable
      // that cannot serve; say why once.
      void showError(config.serverExitedMessage(executable), 'Show Output');
      return { action: CloseAction.DoNotRestart, handled: true };
    },
  };
  const c = new LanguageClient(
    'shmem-lint',  // also the settings section of trace.server
    'shmem-lint',
    config.serverCommand(executable, ctx),
    {
      documentSelector: config.DOCUMENT_SELECTOR,
      initializationOptions: config.initializationOptions(settings, ctx),
      diagnosticCollectionName: 'shmem-lint',
      outputChannel: output,
      errorHandler,
      initializationFailedHandler: () => false,
    },
  );
  defaultHandler = c.createDefaultErrorHandler();
  c.onDidChangeState((e) => {
    if (e.newState === State.Running) running = true;
  });
  output.appendLine(`Starting ${executable} lsp`);
  try {
    await c.start();
  } catch (error) {
    // The client has logged the error; the process is gone.
    output.appendLine(`shmem-lint: the server did not start: ${error && error.message ? error.message : error}`);
    return undefined;
  }
  return c;
}

async function stopClient() {
  const c = client;
  client = undefined;
  if (!c) return;
  try {
    await c.stop();
  } catch (error) {
    output.appendLine(`shmem-lint: stopping the server: ${error && error.message ? error.message : error}`);
  }
}

function enqueue(step) {
  queue = queue.then(step, step);
  return queue;
}

function restart() {
  return enqueue(async () => {
    await stopClient();
    client = await startClient();
  });
}

function activate(context) {
  output = vscode.window.createOutputChannel('shmem-lint');
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('shmem-lint.restart', restart),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (config.RESTART_SETTINGS.some((k) => e.affectsConfiguration(`${config.SECTION}.${k}`))) {
        void restart();
      }
    }),
  );
  return enqueue(async () => {
    client = await startClient();
  });
}

function deactivate() {
  return enqueue(stopClient);
}

module.exports = { activate, deactivate, restart, _client: () => client };
