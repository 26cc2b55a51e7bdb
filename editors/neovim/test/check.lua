-- Drives Neovim's LSP client as a user would, headless, and writes what the
-- user would see to a file (test/lit/lsp/editor-neovim*.test check it):
--
--   nvim --headless -u editors/neovim/shmem-lint.lua \
--     --cmd "lua vim.g.shmem_lint = {cmd = {'shmem-lint', 'lsp'}}" \
--     -c 'luafile editors/neovim/test/check.lua' FILE.cu
--
-- Environment: SHMEM_LINT_OUT the report file (default: stdout);
-- SHMEM_LINT_FIX=1 also applies the code action of the first shmem-lint
-- diagnostic (choosing it in the vim.ui.select menu, as a user would) and
-- waits for the re-analysis of the edited buffer; SHMEM_LINT_TIMEOUT the
-- wait for each step in milliseconds (default 60000). Exits 0 when every
-- step happened, 1 when one timed out (the report says which).

local out_path = os.getenv('SHMEM_LINT_OUT')
local timeout = tonumber(os.getenv('SHMEM_LINT_TIMEOUT') or '') or 60000
local lines = {}
local function say(s) table.insert(lines, s) end
local function finish(code)
  local text = table.concat(lines, '\n') .. '\n'
  if out_path then
    local f = assert(io.open(out_path, 'w'))
    f:write(text)
    f:close()
  else
    io.stdout:write(text)
  end
  local all = vim.lsp.get_clients or vim.lsp.get_active_clients
  for _, client in pairs(all()) do vim.lsp.stop_client(client.id) end
  vim.wait(5000, function() return #all() == 0 end, 50)
  vim.cmd((code == 0 and 'qall!' or 'cquit! ' .. code))
end

local bufnr = vim.api.nvim_get_current_buf()
local uri = vim.uri_from_bufnr(bufnr)
say('nvim ' .. tostring(vim.version().major) .. '.' .. tostring(vim.version().minor)
    .. ' filetype=' .. vim.bo[bufnr].filetype
    .. ' api=' .. (vim.lsp.start and 'vim.lsp.start' or 'vim.lsp.start_client'))

-- Count the publishDiagnostics notifications for this buffer (an empty one
-- looks like none in vim.diagnostic.get), and pass them on to Neovim.
local published = {}
local handler = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
  if result and result.uri == uri then
    local client = vim.lsp.get_client_by_id(ctx.client_id)
    local name = client and client.name or '?'
    published[name] = (published[name] or 0) + 1
  end
  return handler(err, result, ctx, config)
end

local function wait(what, cond)
  if not vim.wait(timeout, cond, 50) then
    say('timeout: ' .. what)
    finish(1)
  end
end

-- The clients attached to the buffer, by name.
local function buf_clients()
  local result = {}
  local clients = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr })
    or vim.lsp.buf_get_clients(bufnr)
  for _, client in pairs(clients) do
    table.insert(result, client)
  end
  table.sort(result, function(a, b) return a.name < b.name end)
  return result
end

local function client_names()
  return vim.tbl_map(function(c) return c.name end, buf_clients())
end

local function shmem_diagnostics()
  local result = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.source == 'shmem-lint' then table.insert(result, d) end
  end
  table.sort(result, function(a, b)
    return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col)
  end)
  return result
end

local function code_of(d)
  return d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
end

local function report()
  local diags = shmem_diagnostics()
  say('shmem-lint diagnostics: ' .. #diags)
  for _, d in ipairs(diags) do
    -- 1-based line:column, as the command line prints them.
    say(string.format('%d:%d-%d:%d %s [%s] %s', d.lnum + 1, d.col + 1,
      (d.end_lnum or d.lnum) + 1, (d.end_col or d.col) + 1,
      vim.diagnostic.severity[d.severity]:lower(), tostring(code_of(d)),
      (d.message:gsub('\n.*', ''))))
  end
  local others = #vim.diagnostic.get(bufnr) - #diags
  say('other diagnostics: ' .. others)
  return diags
end

local expected = os.getenv('SHMEM_LINT_CLIENTS') or 'shmem-lint'
wait('clients ' .. expected .. ' attached', function()
  return table.concat(client_names(), ',') == expected
end)
say('clients: ' .. table.concat(client_names(), ','))
local client = vim.tbl_filter(function(c) return c.name == 'shmem-lint' end,
                              buf_clients())[1]
wait('shmem-lint initialized', function() return client.initialized end)
wait('shmem-lint diagnostics', function() return (published['shmem-lint'] or 0) > 0 end)
for _, name in ipairs(client_names()) do
  if name ~= 'shmem-lint' then
    wait(name .. ' diagnostics', function() return (published[name] or 0) > 0 end)
  end
end
local diags = report()

if #diags > 0 then
  -- The hover of each client on the first finding, as vim.lsp.buf.hover()
  -- asks for it.
  local d = diags[1]
  vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col })
  for _, c in ipairs(buf_clients()) do
    local params = vim.lsp.util.make_position_params(0, c.offset_encoding)
    -- client:request_sync from Neovim 0.11 (client.request_sync before).
    local hover
    if vim.fn.has('nvim-0.11') == 1 then
      hover = c:request_sync('textDocument/hover', params, timeout, bufnr)
    else
      hover = c.request_sync('textDocument/hover', params, timeout, bufnr)
    end
    local value = hover and hover.result and hover.result.contents
    value = type(value) == 'table' and (value.value or value[1]) or value
    if value then
      -- The markdown, line by line, as the hover window shows it.
      for _, text in ipairs(vim.split(tostring(value), '\n')) do
        say('hover ' .. c.name .. '| ' .. text)
      end
    else
      say('hover ' .. c.name .. ': none')
    end
  end
end

if #diags > 0 and vim.fn.exists(':ShmemLintHover') == 2 then
  -- :ShmemLintHover opens shmem-lint's hover in a floating window.
  local d = diags[1]
  vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col })
  local function float()
    for _, win in ipairs(vim.api.nvim_list_wins()) do
      if vim.api.nvim_win_get_config(win).relative ~= '' then return win end
    end
  end
  vim.cmd('ShmemLintHover')
  wait(':ShmemLintHover window', function() return float() ~= nil end)
  local win = float()
  local text = vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(win), 0, -1, false)
  local picture = #vim.tbl_filter(function(l) return l:find('lane -> bank', 1, true) end, text)
  say(':ShmemLintHover window: ' .. text[1]:sub(1, 40) .. ' ... (' .. picture .. ' lane -> bank line)')
  vim.api.nvim_win_close(win, true)
end

if os.getenv('SHMEM_LINT_FIX') == '1' and #diags > 0 then
  local d = diags[1]
  vim.api.nvim_win_set_cursor(0, { d.lnum + 1, d.col })
  -- The user picks the first action of the menu vim.lsp.buf.code_action()
  -- shows; the report lists what the menu offered.
  local chosen = false
  vim.ui.select = function(items, opts, on_choice)
    for i, item in ipairs(items) do
      say('action ' .. i .. ': ' .. (opts.format_item and opts.format_item(item) or tostring(item)))
    end
    chosen = true
    on_choice(items[1], 1)
  end
  local changedtick = vim.api.nvim_buf_get_changedtick(bufnr)
  vim.lsp.buf.code_action()
  wait('code action menu', function() return chosen end)
  wait('code action edit', function()
    return vim.api.nvim_buf_get_changedtick(bufnr) ~= changedtick
  end)
  -- The edited text goes to the server with didChange; it re-analyses it
  -- after its debounce and publishes again.
  local before = published['shmem-lint']
  wait('diagnostics of the edited buffer', function()
    return published['shmem-lint'] > before
  end)
  say('after the fix:')
  for lnum, text in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    if text:find('__shared__') then say(lnum .. ': ' .. text) end
  end
  report()
end

finish(0)
