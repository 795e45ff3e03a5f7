-- Neovim as the client of `urldb server` (tests/it/server/mod.rs): open the
-- domain file WORK/example.com.yaml, wait for diagnostics, format through
-- the server, wait for the diagnostics to clear, write what happened to
-- OUT as JSON, stop the server and quit. Neovim 0.7 API (start_client,
-- formatting_sync), which later versions keep.
local urldb, dir, out = os.getenv("URLDB"), os.getenv("WORK"), os.getenv("OUT")
vim.cmd("edit " .. dir .. "/example.com.yaml")
local buf = vim.api.nvim_get_current_buf()
local id = vim.lsp.start_client({ name = "urldb", cmd = { urldb, "server" }, root_dir = dir })
vim.lsp.buf_attach_client(buf, id)
local result = {}
-- Generous bounds against a hang, not timings.
result.got_diagnostics = vim.wait(60000, function()
  return #vim.diagnostic.get(buf) > 0
end, 20)
result.diagnostics = {}
for _, d in ipairs(vim.diagnostic.get(buf)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
  table.insert(result.diagnostics, { code = code, line = d.lnum, col = d.col, source = d.source })
end
vim.lsp.buf.formatting_sync(nil, 60000)
result.formatted = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n") .. "\n"
result.cleared = vim.wait(60000, function()
  return #vim.diagnostic.get(buf) == 0
end, 20)
local f = io.open(out, "w")
f:write(vim.fn.json_encode(result))
f:close()
vim.lsp.stop_client(id)
vim.wait(10000, function()
  return vim.lsp.get_client_by_id(id) == nil
end, 20)
vim.cmd("qall!")
