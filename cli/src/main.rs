//! The `ytt` binary: run the command line, print the error, set the exit code.
//!
//! On Linux the binary starts at a C `main` of its own (`no_main`): Rust's start-up asks
//! glibc where the main thread's stack ends, for its stack-overflow message, and glibc
//! answers by parsing `/proc/self/maps` — about a sixth of `ytt version`. A run does not
//! recurse deeply on that stack (`ytt_cli::stack`); what else that start-up does and a run
//! needs is done here (`start`).
//! (Its unit-test build keeps the test harness's `main`.)
#![cfg_attr(all(target_os = "linux", not(test)), no_main)]

use std::io::Write;

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

#[cfg(all(target_os = "linux", not(test)))]
#[no_mangle]
extern "C" fn main(argc: libc::c_int, argv: *const *const libc::c_char) -> libc::c_int {
    start();
    // the arguments as the C runtime hands them over: std's own copy is filled by its
    // start-up on every libc but glibc
    let args = (0..usize::try_from(argc).unwrap_or(0))
        .map(|i| {
            use std::os::unix::ffi::OsStrExt;
            // SAFETY: argv holds argc pointers to NUL-terminated strings, alive for the
            // process
            let arg = unsafe { std::ffi::CStr::from_ptr(*argv.add(i)) };
            std::ffi::OsStr::from_bytes(arg.to_bytes()).to_os_string()
        })
        .collect();
    let code = run(args);
    // Rust's own start-up would flush standard output at exit
    let _ = std::io::stdout().flush();
    libc::c_int::from(code)
}

#[cfg(any(not(target_os = "linux"), test))]
fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(run(std::env::args_os().collect()))
}

/// What Rust's start-up does that a run relies on: writing to a closed pipe is an error
/// (EPIPE), not a signal that kills the process; a standard stream that is not open is
/// /dev/null, so that no file the run opens takes its number.
#[cfg(all(target_os = "linux", not(test)))]
fn start() {
    // SAFETY: ignoring SIGPIPE changes no memory; poll reads three descriptors' states;
    // open gives a new descriptor, the lowest free one: the stream's.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
        let mut fds = [0, 1, 2].map(|fd| libc::pollfd {
            fd,
            events: 0,
            revents: 0,
        });
        if libc::poll(fds.as_mut_ptr(), 3, 0) > 0 {
            for fd in fds {
                if fd.revents & libc::POLLNVAL != 0 {
                    libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
                }
            }
        }
    }
}

/// Runs the command line of `args` (program name first); the exit code.
fn run(args: Vec<std::ffi::OsString>) -> u8 {
    // Panics are reported as errors below, not by the default hook.
    std::panic::set_hook(Box::new(|_| {}));
    let caught = std::panic::catch_unwind(move || ytt_cli::cmd::run(args));
    let result = caught.unwrap_or_else(|panic| {
        Err(anyhow::anyhow!(
            "internal error (this is a bug in ytt): {}",
            panic_message(&panic)
        ))
    });
    match result {
        Ok(()) => 0,
        Err(e) => {
            // stderr may be a pipe whose reader is gone (`ytt ... 2>&1 | head`):
            // the exit code still tells the error, where `eprintln!` would panic. Bytes
            // that are not UTF-8 (a file name, a value) are written as they came in.
            let text = format!("ytt: Error: {e:#}\n");
            let _ = std::io::stderr()
                .lock()
                .write_all(&ytt::bytestr::encode(&text));
            1
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
