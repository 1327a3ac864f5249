//! The `ytt` binary: run the command line, print the error, set the exit code.

use std::io::Write;
use std::process::ExitCode;

/// The allocator (`ytt::memory`: mimalloc on Linux), within the run's memory budget
/// (`--max-memory`).
#[global_allocator]
static GLOBAL: ytt_cli::memory::Budgeted = ytt_cli::memory::Budgeted;

/// Small pages from the first allocation on (`ytt_cli::memory::start_with_small_pages`): this
/// runs before mimalloc's own constructor (priority 101), which touches its first pages
/// before `main`.
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array.00100"]
static SMALL_PAGES_FIRST: extern "C" fn() = {
    extern "C" fn small_pages() {
        ytt_cli::memory::start_with_small_pages();
    }
    small_pages
};

fn main() -> ExitCode {
    // Panics are reported as errors below, not by the default hook.
    std::panic::set_hook(Box::new(|_| {}));
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let worker_args = args.clone();
    let worker = std::thread::Builder::new()
        .name("ytt".into())
        .stack_size(ytt_cli::cmd::STACK_SIZE)
        .spawn(move || ytt_cli::cmd::run(worker_args));
    let joined = match worker {
        Ok(handle) => handle.join(),
        // No room for a big stack: run on this thread.
        Err(_) => std::panic::catch_unwind(move || ytt_cli::cmd::run(args)),
    };
    let result = joined.unwrap_or_else(|panic| {
        Err(anyhow::anyhow!(
            "internal error (this is a bug in ytt): {}",
            panic_message(&panic)
        ))
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // stderr may be a pipe whose reader is gone (`ytt ... 2>&1 | head`):
            // the exit code still tells the error, where `eprintln!` would panic. Bytes
            // that are not UTF-8 (a file name, a value) are written as they came in.
            let text = format!("ytt: Error: {e:#}\n");
            let _ = std::io::stderr()
                .lock()
                .write_all(&ytt::bytestr::encode(&text));
            ExitCode::from(1)
        }
    }
}

fn panic_message(p: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".to_owned()
    }
}
