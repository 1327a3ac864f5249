//! The ytt language server (`ytt lsp`): diagnostics from the real render of the runs a
//! file belongs to, as the user types, formatting as `ytt fmt` does it, and what a file's
//! text says (outline, folding, tokens, completion, hover, definition, quick fixes).
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
//! - `analysis`: every run of the engine — a run read and rendered, its report as
//!   findings (`findings`), formatting;
//! - `publish`: findings as the protocol's diagnostics; `text`: positions; `uri`: paths;
//! - `values`: what a run's facts say of a data value by its path (hover, completion,
//!   definition); `value_documents`: the same at a position of a data-values or schema
//!   document; `declare`: the action declaring an undeclared data value in the schema;
//!   `overlays`: what an `#@overlay/match` matched in the last render (hover,
//!   definition).
//!
//! What a file's text says, read without a render (pure functions of the text, its path
//! and a position, for the playground too): `source` (its code, annotations, comments,
//! documents and tokens), `names` (what it binds), `reads` (its `data.values` reads, for
//! the data values' features), `loading` (what a `load()` reaches, over the files a
//! `Workspace` gives; `disk` makes one from the disk and the open documents); on them
//! `symbols`, `folding`, `highlight` (semantic tokens), `completion`, `hover` (with
//! `reference`, the functions' short docs), `definition`, `actions` (quick fixes).
//!
//! The command line gives its own reading of flags and files, and its allocator's
//! budget, as a [`Host`]. The playground calls [`features`] itself, over a run's
//! [`RunFacts`] and its files in memory (a [`Workspace`]).

mod actions;
mod analysis;
mod completion;
mod declare;
mod definition;
mod disk;
mod documents;
pub mod features;
mod findings;
mod folding;
mod highlight;
mod host;
mod hover;
mod loading;
mod names;
mod overlays;
mod project;
mod publish;
mod reads;
mod reference;
mod server;
mod source;
mod stop;
mod symbols;
mod text;
mod uri;
mod value_documents;
mod values;
mod worker;

pub use host::{FileFlag, Found, Host, Invocation, Memory, Symlinks};
pub use loading::Workspace;
pub use project::PROJECT_FILE;
pub use reads::{data_value_partial_at, data_value_read_at, data_value_reads, Partial, Read};
pub use values::RunFacts;

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

/// Every feature on every prefix of a few files (as typed, broken at each character),
/// at its end and in its middle: none panics.
#[cfg(test)]
mod typing_tests {
    use std::path::Path;

    use lsp_types::{Diagnostic, Position, Range};

    use crate::loading::{in_memory, Workspace};

    const FILES: &[(&str, &str)] = &[
        (
            "/w/a.yml",
            "#@ load(\"@ytt:data\", d=\"data\")\n#@ load(\"h.star\", \"f\")\n#@overlay/match by=\"n\", missing_ok=True\n--- #@ f()\na: #@ d.values.x.y\nb: 'it''s #@ not'\nc: |\n  #@ text\n#@ for i in range(3):\n- #@ i  #! é😀\n#@ end\n",
        ),
        (
            "/w/h.star",
            "load(\"@ytt:json\", \"json\")\ndef f(x=\"\"\"a\nb\"\"\"):\n  if x:\n    return json.encode(x)\n  end\nend\n_y = [1, {2: 3}]\n",
        ),
        ("/w/t.txt", "(@ load(\"@ytt:data\", \"data\") -@)\nx(@= data.values.a @)\n(@ if True: @)y(@ end @)"),
    ];

    #[test]
    fn no_feature_panics_while_typing() {
        let files: Vec<(&str, Option<&str>)> = FILES.iter().map(|&(p, t)| (p, Some(t))).collect();
        in_memory(
            &files,
            &ytt_stdlib::modules(),
            every_feature_on_every_prefix,
        );
    }

    fn every_feature_on_every_prefix(ws: &Workspace) {
        let uri: lsp_types::Uri = "file:///w/a.yml".parse().unwrap();
        for (path, text) in FILES {
            let path = Path::new(path);
            for (cut, _) in text.char_indices() {
                let t = &text[..cut];
                crate::symbols::document_symbols(t, path);
                crate::folding::folding_ranges(t, path);
                crate::highlight::semantic_tokens(t, path);
                crate::reads::data_value_reads(t, path);
                let end = crate::text::position_of_offset(t, t.len());
                let middle = crate::text::position_of_offset(t, cut / 2);
                for pos in [end, middle, Position::new(end.line, 0)] {
                    crate::completion::completion(ws, t, path, pos);
                    crate::hover::hover(ws.modules, t, path, pos);
                    crate::definition::definition(ws, t, path, pos);
                    crate::reads::data_value_read_at(t, path, pos);
                    crate::reads::data_value_partial_at(t, path, pos);
                    let d = Diagnostic {
                        range: Range::new(pos, pos),
                        message: "undefined: x (did you mean y?)".into(),
                        ..Diagnostic::default()
                    };
                    crate::actions::code_actions(&uri, t, path, Range::new(pos, pos), &[d]);
                }
            }
        }
    }
}
