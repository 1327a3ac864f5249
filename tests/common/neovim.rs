//! Driving a headless Neovim from a test: its built-in LSP client runs a Lua script that
//! fills a table `result` with what the editor received, its steps run by `pcall` into
//! `ok, err`; [`run`] then writes `result` to `$OUT` as JSON and quits whatever happened.

use std::ffi::OsStr;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Set (as `.ci/run` sets it), a machine without `nvim` fails the Neovim tests.
pub const REQUIRE_NEOVIM: &str = "YTT_REQUIRE_NEOVIM";

/// What every script ends with: the result, or the error that cut it short, written out.
const EPILOGUE: &str = r#"
if not ok then result.error = tostring(err) end
local f = io.open(os.getenv("OUT"), "w")
f:write(vim.fn.json_encode(result))
f:close()
vim.cmd("qa!")
"#;

/// How long a session may take (a debug build on a loaded machine).
const PATIENCE: Duration = Duration::from_secs(60);

/// Whether `nvim` runs here. Without it `test` is skipped, and says so on the process's
/// stderr (the harness hides what `eprintln!` writes), unless [`REQUIRE_NEOVIM`] is set.
pub fn available(test: &str) -> bool {
    if Command::new("nvim").arg("--version").output().is_ok() {
        return true;
    }
    assert!(
        std::env::var_os(REQUIRE_NEOVIM).is_none(),
        "{REQUIRE_NEOVIM} is set and nvim is not installed"
    );
    let _ = writeln!(
        std::io::stderr(),
        "skipped {test}: nvim is not installed (set {REQUIRE_NEOVIM} to make that a failure)"
    );
    false
}

/// Runs `script` (Lua, see the module's documentation) and [`EPILOGUE`] in a headless Neovim
/// without user configuration, in `dir`, with `env`, and returns the JSON written to `$OUT`
/// (a file in `scratch`).
pub fn run(script: &str, dir: &Path, scratch: &Path, env: &[(&str, &OsStr)]) -> serde_json::Value {
    let lua = scratch.join("test.lua");
    let out = scratch.join("out.json");
    std::fs::write(&lua, format!("{script}{EPILOGUE}")).unwrap();
    let mut nvim = Command::new("nvim")
        .args(["--headless", "--clean", "-n", "-i", "NONE", "-u", "NONE"])
        .arg("-c")
        .arg(format!("luafile {}", lua.display()))
        .envs(env.iter().copied())
        .env("OUT", &out)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nvim starts");
    let started = Instant::now();
    while nvim.try_wait().unwrap().is_none() {
        if started.elapsed() > PATIENCE {
            let _ = nvim.kill();
            panic!(
                "nvim did not finish within {PATIENCE:?}; stderr:\n{}",
                stderr(&mut nvim)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let text = std::fs::read_to_string(&out)
        .unwrap_or_else(|e| panic!("nvim wrote no result ({e}); stderr:\n{}", stderr(&mut nvim)));
    serde_json::from_str(&text).expect("the result is JSON")
}

fn stderr(nvim: &mut Child) -> String {
    let mut text = String::new();
    if let Some(mut pipe) = nvim.stderr.take() {
        let _ = pipe.read_to_string(&mut text);
    }
    text
}
