//! The template command (the root command, `template`, `t`, `tpl`): read the inputs, run
//! the request (`ytt::frontend`), write the output.

use std::io::Write as _;
use std::time::Instant;

use anyhow::{bail, Result};

use super::options::Options;
use super::output;
use super::reader::Disk;
use crate::files;
use ytt::files::{bulk, SourceFile};
use ytt::frontend::{self, Host, Mode, Output};
use ytt::Messages;

pub fn run(opts: Options) -> Result<()> {
    let start = Instant::now();
    crate::memory::set_limit(opts.max_memory);
    let result = run_inner(&opts);
    if opts.debug {
        eprintln!("total: {:?}", start.elapsed());
    }
    result
}

fn run_inner(opts: &Options) -> Result<()> {
    let sources = read_inputs(opts)?;
    // an exported schema goes to stdout, whatever else the flags say
    if let Mode::Schema(_) = opts.request.mode {
        return output::write_stdout_of(render(opts, sources)?);
    }
    let result = render(opts, sources);
    if opts.files.bulk_out {
        return output::write_bulk(result);
    }
    output::write(&opts.output, result?)
}

/// `--bulk-in` files, then the `-f` files, in command-line order.
///
/// Once the files found add up to [`WARM_UP_FROM`] bytes, what templates need is built
/// meanwhile on the core the run leaves idle (`crate::stack::build_meanwhile`): from then
/// on, the run is long enough to hide it, while a trivial run would wait for the thread
/// (`-f` of one small file: 0.12–0.15 ms later when it started; `package --scale 0.05`,
/// 180 kB: 0.4 ms sooner). It starts before they are read, since reading is where the
/// second core is idle: started at the first templated file read, it met the parsing of
/// them on that core, and made the run slower.
fn read_inputs(opts: &Options) -> Result<Vec<SourceFile>> {
    let mut bytes = 0;
    // (started once, however often asked)
    let mut listed = |more: u64| {
        bytes += more;
        if bytes >= WARM_UP_FROM {
            crate::stack::build_meanwhile(frontend::warm_up);
        }
    };
    let mut sources = Vec::new();
    if let Some(json) = &opts.files.bulk_in {
        sources.extend(bulk::parse_bulk_in(json)?);
        listed(sources.iter().map(|f| f.data.len() as u64).sum());
    }
    sources.extend(files::collect_listing(
        &opts.files.files,
        &opts.files.symlinks,
        &mut |found| listed(found.iter().map(|f| f.size).sum()),
    )?);
    Ok(sources)
}

/// See [`read_inputs`].
const WARM_UP_FROM: u64 = 32 << 10;

fn render(opts: &Options, sources: Vec<SourceFile>) -> Result<Output> {
    let request = frontend::Request {
        files: sources,
        ..opts.request.clone()
    };
    let host = Host {
        messages: stderr_messages(),
        modules: ytt_stdlib::modules(),
        held_bytes: Some(crate::memory::counted),
        memory_budget: crate::memory::budget(),
        write_ahead: writes_to_stdout(opts),
        reader: &Disk {
            sources: &opts.files.symlinks,
        },
        facts: None,
    };
    let output = frontend::run_on_this_thread(request, host)?;
    // a run that passed the memory budget where no template code ran to stop it (see
    // `crate::memory`) fails all the same
    if crate::memory::passed() {
        bail!(crate::memory::MESSAGE);
    }
    Ok(output)
}

/// Whether the output documents go to stdout (documents written ahead are then used as
/// they are), not to output files.
fn writes_to_stdout(opts: &Options) -> bool {
    opts.output.output_files.is_none()
        && opts.output.emptied_output_directory.is_none()
        && !opts.files.bulk_out
}

/// A run's `print()` output and warnings go to stderr as they happen, as the reference
/// prints them.
fn stderr_messages() -> Messages {
    Messages::new(|bytes| {
        let _ = std::io::stderr().lock().write_all(bytes);
    })
}
