'use strict';
// The extension's logic that does not need VS Code: settings -> the server's
// command line and initializationOptions, finding the executable, the
// messages. extension.js wires it to the vscode API; the tests drive it
// directly (test/unit.test.js) and start the real server with what it
// computes (test/protocol.test.js).

const fs = require('fs');
const os = require('os');
const path = require('path');

const SECTION = 'shmem-lint';

// The documents the client sends to the server: VS Code's CUDA languages
// (cuda-cpp is the built-in id for .cu/.cuh, cuda the one of older CUDA
// extensions) and the file patterns, whatever language a user mapped them to.
const DOCUMENT_SELECTOR = [
  { scheme: 'file', language: 'cuda-cpp' },
  { scheme: 'file', language: 'cuda' },
  { scheme: 'file', pattern: '**/*.cu' },
  { scheme: 'file', pattern: '**/*.cuh' },
];

// Settings whose change restarts the server (trace.server is applied by the
// language client itself, without a restart).
const RESTART_SETTINGS = ['path', 'arguments', 'compilationDatabasePath', 'debounceMs'];

const DEFAULTS = {
  path: 'shmem-lint',
  arguments: [],
  compilationDatabasePath: '',
  debounceMs: 400,
};

// get(key) returns the value of `shmem-lint.<key>` (undefined when unset).
// Ill-typed values fall back to the defaults rather than reaching the server.
function readSettings(get) {
  const s = { ...DEFAULTS, arguments: [] };
  const p = get('path');
  if (typeof p === 'string' && p.trim() !== '') s.path = p.trim();
  const args = get('arguments');
  if (Array.isArray(args)) s.arguments = args.filter((a) => typeof a === 'string' && a !== '');
  const db = get('compilationDatabasePath');
  if (typeof db === 'string') s.compilationDatabasePath = db.trim();
  const ms = get('debounceMs');
  if (typeof ms === 'number' && Number.isFinite(ms) && ms >= 0) s.debounceMs = Math.round(ms);
  return s;
}

// ${workspaceFolder}, ${userHome}, ${env:NAME} and a leading ~, as in
// VS Code's own settings (which do not expand them for extensions).
function substitute(value, ctx = {}) {
  const home = ctx.home ?? os.homedir();
  const env = ctx.env ?? process.env;
  let v = value.replace(/\$\{(workspaceFolder|userHome|env:([A-Za-z_][A-Za-z0-9_]*))\}/g, (m, name, envName) => {
    if (name === 'workspaceFolder') return ctx.workspaceFolder ?? m;
    if (name === 'userHome') return home;
    return env[envName] ?? '';
  });
  if (v === '~' || v.startsWith('~/')) v = home + v.slice(1);
  return v;
}

function isExecutableFile(file, fsys = fs) {
  try {
    if (!fsys.statSync(file).isFile()) return false;
    if (process.platform !== 'win32') fsys.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

// The absolute path of the executable `command` names, or null when there is
// none: a name without a slash is looked up on PATH (as spawn would), a path
// is taken relative to the workspace folder.
function resolveExecutable(command, ctx = {}) {
  const env = ctx.env ?? process.env;
  const platform = ctx.platform ?? process.platform;
  const fsys = ctx.fs ?? fs;
  const exts = platform === 'win32'
    ? ['', ...(env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';').filter(Boolean)]
    : [''];
  const hasSep = command.includes('/') || (platform === 'win32' && command.includes('\\'));
  const candidates = [];
  if (hasSep) {
    const base = ctx.workspaceFolder ?? process.cwd();
    candidates.push(path.resolve(base, command));
  } else {
    const dirs = (env.PATH ?? env.Path ?? '').split(platform === 'win32' ? ';' : ':');
    for (const d of dirs) if (d) candidates.push(path.join(d, command));
  }
  for (const c of candidates) {
    for (const e of exts) if (isExecutableFile(c + e, fsys)) return c + e;
  }
  return null;
}

// What `initialize` carries (SPEC: initializationOptions).
function initializationOptions(settings, ctx = {}) {
  const o = { arguments: settings.arguments.map((a) => substitute(a, ctx)) };
  if (settings.compilationDatabasePath) {
    o.compilationDatabasePath = substitute(settings.compilationDatabasePath, ctx);
  }
  o.debounceMs = settings.debounceMs;
  return o;
}

// The server process: `<shmem-lint> lsp`, in the workspace folder. The
// driver options travel in initializationOptions.arguments, not here.
function serverCommand(executable, ctx = {}) {
  const cmd = { command: executable, args: ['lsp'] };
  if (ctx.workspaceFolder) cmd.options = { cwd: ctx.workspaceFolder };
  return cmd;
}

const INSTALL_HINT =
  'Install it from a shmem-lint checkout with `./scripts/setup.sh --install` ' +
  '(builds the Debian package and installs /usr/bin/shmem-lint), or install a built ' +
  'package with `sudo apt install ./shmem-lint_<version>_<arch>.deb`; or set ' +
  '"shmem-lint.path" to the shmem-lint executable.';

function missingBinaryMessage(configured, resolvedFrom) {
  const what = resolvedFrom && resolvedFrom !== configured
    ? `'${configured}' (${resolvedFrom})`
    : `'${configured}'`;
  const where = configured.includes('/') || configured.includes('\\')
    ? 'no executable file there'
    : 'not found on PATH';
  return `shmem-lint: cannot start the language server: the shmem-lint executable ${what} is ${where} ` +
    `(setting "shmem-lint.path"). ${INSTALL_HINT}`;
}

function serverExitedMessage(executable) {
  return `shmem-lint: '${executable} lsp' stopped before the language server started. ` +
    'A shmem-lint without the `lsp` command is too old: update it (`./scripts/setup.sh --install` ' +
    'in a checkout, or the newer .deb). The "shmem-lint" output channel has the details.';
}

module.exports = {
  SECTION,
  DOCUMENT_SELECTOR,
  RESTART_SETTINGS,
  DEFAULTS,
  readSettings,
  substitute,
  resolveExecutable,
  initializationOptions,
  serverCommand,
  missingBinaryMessage,
  serverExitedMessage,
};
