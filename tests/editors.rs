//! The editor setups that docs/language-server.md gives, run as written: the Neovim
//! configuration (the Lua block under "Neovim 0.7 and later") in a headless Neovim, with
//! this `ytt` first on `PATH`, on a workspace of files that are ytt by the documented rule
//! and files that are not. Skipped without `nvim`, unless `YTT_REQUIRE_NEOVIM` is set (as
//! `.ci/run` sets it).

use std::ffi::OsStr;
use std::path::Path;

use serde_json::{json, Value};

mod common;

/// The first ```lua block after `heading` in the language server's docs.
fn documented_lua(heading: &str) -> String {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/language-server.md");
    let docs = std::fs::read_to_string(docs).expect("the docs are there");
    let after = &docs[docs.find(heading).expect("the heading is in the docs")..];
    let start = after
        .find("```lua\n")
        .expect("a Lua block after the heading")
        + "```lua\n".len();
    let end = start + after[start..].find("```").expect("the block ends");
    after[start..end].to_owned()
}

/// What the test does once the documented configuration is loaded: opens each file and
/// counts the language clients attached to it, then breaks the template in its buffer and
/// collects the diagnostics that come back.
const SCRIPT: &str = r#"
local result = { attached = {} }
local function attached(buf)
  local n = 0
  for _ in pairs(vim.lsp.buf_get_clients(buf)) do n = n + 1 end
  return n
end
local ok, err = pcall(function()
  dofile(os.getenv("CONFIG"))
  -- the first ytt file starts the server; once it is up, attaching is immediate
  vim.cmd("edit config/app.yml")
  assert(vim.wait(30000, function() return attached(0) > 0 end, 20), "the server did not start")
  for _, file in ipairs(vim.fn.json_decode(os.getenv("FILES"))) do
    vim.cmd("edit " .. file)
    result.attached[file] = attached(0)
  end
  vim.cmd("edit config/app.yml")
  vim.api.nvim_buf_set_lines(0, 2, 3, false, { "replicas: #@ data.values.replicaz" })
  assert(vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 20), "no diagnostics after the edit")
  result.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(0)) do
    table.insert(result.diagnostics, { lnum = d.lnum, source = d.source, severity = d.severity })
  end
  result.clients = {}
  for _, client in pairs(vim.lsp.get_active_clients()) do
    table.insert(result.clients, client.name)
  end
end)
"#;

#[test]
fn documented_neovim_config() {
    if !common::neovim::available("documented_neovim_config") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    // file, text, whether the documented rule takes it as ytt
    let files: &[(&str, &str, bool)] = &[
        (
            "config/app.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nreplicas: #@ data.values.replicas\n",
            true,
        ),
        (
            "config/schema.yml",
            "#@data/values-schema\n---\nreplicas: 1\n",
            true,
        ),
        ("config/only-a-value.yml", "- name: #@ \"web\"\n", true),
        (
            "config/a-document.yml",
            "--- #@ {\"name\": \"web\"}\n",
            true,
        ),
        (
            "config/helpers.star",
            "def twice(x):\n  return 2 * x\nend\n",
            true,
        ),
        ("config/report.txt", "replicas: (@= str(1) @)\n", true),
        ("vendor/_ytt_lib/lib/values.yml", "name: lib\n", true),
        (
            "project/ytt-lsp.toml",
            "[[run]]\nargs = [\"-f\", \"values.yml\"]\n",
            false,
        ),
        ("project/values.yml", "name: project\n", true),
        ("plain/values.yml", "replicas: 3\n", false),
        (
            "plain/comment.yaml",
            "a: 1 # see the #@ annotations\n",
            false,
        ),
        ("plain/string.yml", "a: \"#@ not code\"\n", false),
        ("plain/notes.txt", "no template here\n", false),
    ];
    for (file, text, _) in files {
        let path = ws.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let opened: Vec<&str> = files
        .iter()
        .filter(|(f, _, _)| !f.ends_with(".toml"))
        .map(|(f, _, _)| *f)
        .collect();
    let config = dir.path().join("init.lua");
    std::fs::write(&config, documented_lua("### Neovim 0.7 and later")).unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_ytt")).parent().unwrap();
    let path = std::env::join_paths(std::iter::once(bin.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let files_json = json!(opened).to_string();
    let env = [
        ("PATH", path.as_os_str()),
        ("CONFIG", config.as_os_str()),
        ("FILES", OsStr::new(&files_json)),
    ];
    let got = common::neovim::run(SCRIPT, &ws, dir.path(), &env);
    assert_eq!(got["error"], Value::Null, "{got:#}");
    for (file, _, ytt) in files.iter().filter(|(f, _, _)| opened.contains(f)) {
        assert_eq!(
            got["attached"][file],
            json!(u8::from(*ytt)),
            "{file}: {got:#}"
        );
    }
    // one server for the session, and the render's error on the broken line
    assert_eq!(got["clients"], json!(["ytt"]), "{got:#}");
    let d = &got["diagnostics"];
    assert_eq!(d.as_array().map(Vec::len), Some(1), "{got:#}");
    assert_eq!(d[0]["lnum"], 2, "{got:#}");
    assert_eq!(d[0]["source"], "ytt", "{got:#}");
    assert_eq!(d[0]["severity"], 1, "{got:#}");
}
