//! The ytt language server (`ytt lsp`): diagnostics from the real render of the runs a
//! file belongs to, as the user types, and formatting as `ytt fmt` does it.
//!
//! Three threads: the protocol's reader and writer (rust-analyzer's `lsp-server`), the
//! server's loop (`server`), and the analysis thread (`worker`), which renders one run
//! at a time on a stack as large as the engine needs, within a time and a memory budget
//! (`stop`), and whose results an edit supersedes. The modules, in the order a message
//! goes through them:
//!
//! - `server`: the lifecycle, requests and notifications, debouncing, publishing;
//! - `documents`: the open documents (their unsaved texts are what is analysed);
//! - `project`: which runs a file belongs to, and the project file (`ytt-lsp.toml`);
//! - `worker`: which runs a job analyses; `stop`: the budgets and cancellation;
//! - `analysis`: every call into the engine — a run read and rendered, its report as
//!   findings (`findings`), formatting;
//! - `publish`: findings as the protocol's diagnostics; `text`: positions; `uri`: paths;
//! - `values`: what a run's facts say of a data value by its path (hover, completion,
//!   definition); `value_documents`: the same at a position of a data-values or schema
//!   document; `declare`: the action declaring an undeclared data value in the schema.
//!
//! The command line gives its own reading of flags and files, and its allocator's
//! budget, as a [`Host`].

mod analysis;
mod declare;
mod documents;
mod findings;
mod host;
mod project;
mod publish;
mod server;
mod stop;
mod text;
mod uri;
mod value_documents;
mod values;
mod worker;

pub use host::{FileFlag, Found, Host, Invocation, Memory, Symlinks};
pub use project::PROJECT_FILE;

use std::sync::Arc;

/// Serves the protocol on standard input and output until the client says `exit`. An
/// error when the client went away or said `exit` without `shutdown` (exit code 1).
pub fn serve_stdio(host: Arc<dyn Host>) -> anyhow::Result<()> {
    let (conn, io) = lsp_server::Connection::stdio();
    let served = server::serve(&conn, host);
    // the writer ends when the last sender is gone
    drop(conn);
    if served.is_ok() {
        io.join()?;
    }
    served
}
