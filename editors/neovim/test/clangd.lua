-- clangd on C, C++ and CUDA buffers, beside shmem-lint.lua's client: the
-- recipe of editors/clangd/README.md, with the Neovim 0.7 fallback
-- (vim.lsp.start_client + buf_attach_client) that the tests need on Debian 12.
-- Load it with `--cmd 'luafile editors/neovim/test/clangd.lua'`; the clangd
-- command is $CLANGD, else clangd.
local cmd = { os.getenv('CLANGD') or 'clangd' }
local client_id
vim.api.nvim_create_autocmd('FileType', {
  pattern = { 'c', 'cpp', 'cuda' },
  callback = function(args)
    local dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(args.buf), ':p:h')
    local config = { name = 'clangd', cmd = cmd, root_dir = dir }
    if vim.lsp.start then
      vim.lsp.start(config)
      return
    end
    if not client_id then client_id = vim.lsp.start_client(config) end
    vim.lsp.buf_attach_client(args.buf, client_id)
  end,
})
