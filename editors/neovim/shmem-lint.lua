-- shmem-lint for Neovim: runs `shmem-lint lsp` (shmem-lint's language server)
-- on CUDA buffers, with Neovim's built-in LSP client. Neovim 0.7 or newer;
-- no plugin needed.
--
-- Install: copy this file to ~/.config/nvim/plugin/shmem-lint.lua (Neovim
-- loads it at startup). Or copy it to ~/.config/nvim/lua/shmem-lint.lua and
-- call it from init.lua:
--
--   require('shmem-lint').setup({
--     cmd = { 'shmem-lint', 'lsp' },         -- the server (the default)
--     arguments = { '--cuda-path=none' },    -- more shmem-lint options
--     compilationDatabasePath = 'build',     -- like -p, relative to the root
--   })
--
-- As a plugin file (or `nvim -u shmem-lint.lua`), it reads the same options
-- from vim.g.shmem_lint, which must be set before it loads (at the top of
-- init.lua, or with `nvim --cmd 'lua vim.g.shmem_lint = {...}'`):
--
--   vim.g.shmem_lint = { arguments = { '--checks=shmem-*' } }
--
-- Options:
--   cmd                     the server command line (list of strings)
--   arguments               driver options for every analysis (list), sent
--                           as initializationOptions.arguments
--   compilationDatabasePath the folder of compile_commands.json (string)
--   debounceMs              analysis delay after an edit (number)
--   filetypes               the filetypes to attach to; default { 'cuda' }
--                           (Neovim gives .cu and .cuh files filetype cuda)
--   root_markers            files or folders marking a project root, searched
--                           upward from the file; one server runs per root
--
-- Findings are ordinary diagnostics (vim.diagnostic: signs, virtual text,
-- :lua vim.diagnostic.setloclist()); the padding fix is a code action
-- (:lua vim.lsp.buf.code_action() on the diagnostic's line); the lane -> bank
-- picture is in the hover (:lua vim.lsp.buf.hover(), or :ShmemLintHover for
-- shmem-lint's alone). It runs beside clangd (or any other server on cuda
-- buffers): each client attaches to the buffer on its own, see
-- editors/clangd/README.md.

local M = {}

local defaults = {
  cmd = { 'shmem-lint', 'lsp' },
  filetypes = { 'cuda' },
  root_markers = { 'compile_commands.json', 'build/compile_commands.json', '.git' },
}

-- The client id of each project root's server (Neovim 0.7, which has no
-- vim.lsp.start to reuse clients).
local clients = {}

local function root_dir(bufnr, markers)
  local file = vim.api.nvim_buf_get_name(bufnr)
  local dir = vim.fn.fnamemodify(file, ':p:h')
  for _, marker in ipairs(markers) do
    -- findfile/finddir with ';' search upward from dir.
    local found = vim.fn.findfile(marker, dir .. ';')
    if found == '' then
      found = vim.fn.finddir(marker, dir .. ';')
    end
    if found ~= '' then
      found = vim.fn.fnamemodify(found, ':p')
      found = found:gsub('/$', '')
      -- The root is the folder holding the marker (a marker such as
      -- build/compile_commands.json is two levels down).
      local depth = select(2, marker:gsub('/', '')) + 1
      for _ = 1, depth do
        found = vim.fn.fnamemodify(found, ':h')
      end
      return found
    end
  end
  return dir
end

local function client_config(opts, root)
  local init_options = {}
  if opts.arguments then init_options.arguments = opts.arguments end
  if opts.compilationDatabasePath then
    init_options.compilationDatabasePath = opts.compilationDatabasePath
  end
  if opts.debounceMs then init_options.debounceMs = opts.debounceMs end
  return {
    name = 'shmem-lint',
    cmd = opts.cmd,
    root_dir = root,
    workspace_folders = {
      { uri = vim.uri_from_fname(root), name = root },
    },
    init_options = init_options,
    on_attach = opts.on_attach,
    capabilities = opts.capabilities,
  }
end

local warned = false

local function attach(bufnr, opts)
  if vim.api.nvim_buf_get_name(bufnr) == '' then return end
  if vim.fn.executable(opts.cmd[1]) ~= 1 then
    if not warned then
      warned = true
      vim.notify(string.format(
        "shmem-lint: '%s' is not an executable; install shmem-lint or set cmd",
        opts.cmd[1]), vim.log.levels.WARN)
    end
    return
  end
  local root = root_dir(bufnr, opts.root_markers)
  local config = client_config(opts, root)
  if vim.lsp.start then
    -- Neovim 0.8 and later: starts the server for this root or reuses it.
    vim.api.nvim_buf_call(bufnr, function() vim.lsp.start(config) end)
    return
  end
  local id = clients[root]
  local client = id and vim.lsp.get_client_by_id(id)
  if not client or client.is_stopped() then
    id = vim.lsp.start_client(config)
    clients[root] = id
  end
  if id then vim.lsp.buf_attach_client(bufnr, id) end
end

-- The clients of a buffer named shmem-lint (vim.lsp.get_clients from
-- Neovim 0.10, buf_get_clients before).
local function shmem_clients(bufnr)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = bufnr, name = 'shmem-lint' })
  end
  return vim.tbl_filter(function(c) return c.name == 'shmem-lint' end,
                        vim.tbl_values(vim.lsp.buf_get_clients(bufnr)))
end

-- :ShmemLintHover: shmem-lint's hover alone (the lane -> bank picture of
-- the finding under the cursor), for when another server's hover (clangd's)
-- is the one vim.lsp.buf.hover() shows.
function M.hover()
  local bufnr = vim.api.nvim_get_current_buf()
  for _, client in ipairs(shmem_clients(bufnr)) do
    local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
    -- client:request from Neovim 0.11 (client.request before).
    local request = vim.fn.has('nvim-0.11') == 1
        and function(...) return client:request(...) end or client.request
    request('textDocument/hover', params, function(err, result)
      if err or not result or not result.contents then
        vim.notify('shmem-lint: nothing here', vim.log.levels.INFO)
        return
      end
      local lines = vim.lsp.util.convert_input_to_markdown_lines(result.contents)
      vim.lsp.util.open_floating_preview(lines, 'markdown',
                                         { focus_id = 'shmem-lint-hover' })
    end, bufnr)
  end
end

function M.setup(user)
  local opts = vim.tbl_extend('force', defaults, user or {})
  local group = vim.api.nvim_create_augroup('shmem-lint', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = opts.filetypes,
    callback = function(args) attach(args.buf, opts) end,
  })
  vim.api.nvim_create_user_command('ShmemLintHover', M.hover, {})
  -- Buffers opened before setup ran.
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr)
        and vim.tbl_contains(opts.filetypes, vim.bo[bufnr].filetype) then
      attach(bufnr, opts)
    end
  end
end

-- Sourced as a plugin file (or with nvim -u), set up from vim.g.shmem_lint;
-- loaded with require(), wait for the caller's setup().
if select('#', ...) == 0 then
  M.setup(vim.g.shmem_lint)
end

return M
