//! The root library's YAML files that nothing needs before its templates run, parsed on
//! another core while they run.
//!
//! A YAML template without a `#@` comment holds no annotation: no schema, no data values,
//! nothing to place. Before the templates run only its YAML errors matter, which a serial
//! run reports first (every file is parsed before any is evaluated, as in the reference).
//! So when such files add up to [`DEFER_FROM`] bytes, they are parsed on a helper thread
//! while the data values and the templates are evaluated ([`Deferred::start`]); the run
//! takes each document set when it reaches the file ([`Deferred::take`]), parsing itself
//! what the helper has not started. (On one core the helper takes turns with the run: the
//! same work, one thread more.)
//!
//! The run is *settled* ([`Deferred::settle`]) before anything else spends the run's alias
//! budget (a private library's files) and when it ends ([`Deferred::finish`]), and then
//! holds the serial parse's result: when every file parsed and what they copied by alias
//! expansion fit in the budget, nothing a serial parse does differs (each prefix of the
//! same spending fits); otherwise the library's YAML templates are parsed again in file
//! order from the budget as it was, and the first error is the run's, whatever the
//! evaluation did meanwhile. A message (`print()`, a warning) settles the run before it
//! goes out, and is dropped when the parse failed (`Runtime::gate`): a serial run would
//! not have run the code that printed it.

use std::cell::RefCell;
use std::sync::Arc;

use super::compile::parse_spending;
use super::Run;
use crate::eval::runtime::Runtime;
use crate::files::InputFile;
use crate::yaml::parser::Keep;
use crate::yaml::pieces::ParseLater;
use crate::yaml::DocSet;

/// Below this many bytes of deferrable YAML, starting a thread costs more than parsing on
/// the run's own.
pub(super) const DEFER_FROM: usize = 32 << 10;

/// The deferred parse of a run (at most one: its root library's).
#[derive(Default)]
pub(crate) struct Deferred(RefCell<State>);

#[derive(Default)]
enum State {
    #[default]
    Idle,
    Parsing(Box<Parsing>),
    Settled {
        /// Of each deferred file, its document set until the run takes it.
        docs: Vec<Option<DocSet>>,
        /// The first error of the serial parse, until the run reports it.
        error: Option<anyhow::Error>,
    },
}

struct Parsing {
    later: ParseLater,
    /// The deferred files, in file order (the indices of [`Deferred::take`]), each with
    /// what is kept of it.
    files: Vec<(Arc<InputFile>, Keep)>,
    /// Every YAML template of the library, in file order, each with what is kept of it:
    /// parsed again when the parse failed.
    all: Vec<(Arc<InputFile>, Keep)>,
    /// What the alias budget held before the library's files were parsed.
    left: usize,
    strict: bool,
}

impl Deferred {
    /// Starts parsing `files` (deferred, each with what is kept of it) on another core.
    /// `all`: every YAML template of the library, in file order; `left`: what the run's
    /// alias budget held before any of them was parsed.
    pub(super) fn start(
        &self,
        rt: &Runtime,
        files: Vec<(Arc<InputFile>, Keep)>,
        all: Vec<(Arc<InputFile>, Keep)>,
        left: usize,
        strict: bool,
    ) {
        let texts = files
            .iter()
            .map(|(f, _)| (f.data.clone(), rt.names().id(&f.rel_path)))
            .collect();
        let keep = files.iter().map(|(_, k)| *k).collect();
        let later = ParseLater::start(texts, keep, strict);
        *self.0.borrow_mut() = State::Parsing(Box::new(Parsing {
            later,
            files,
            all,
            left,
            strict,
        }));
    }

    /// Whether the helper is still parsing (a second helper would take turns with it and
    /// the run on two cores).
    pub(super) fn busy(&self) -> bool {
        matches!(&*self.0.borrow(), State::Parsing(p) if p.later.busy())
    }

    /// Whether a deferred parse is under way.
    pub(super) fn pending(&self) -> bool {
        matches!(*self.0.borrow(), State::Parsing(_))
    }

    /// Waits for the deferred parse, if one is under way, and settles the run with it
    /// (see the module's documentation).
    pub(super) fn settle(&self, rt: &Runtime) {
        let state = std::mem::take(&mut *self.0.borrow_mut());
        let settled = match state {
            State::Parsing(p) => settled(rt, *p),
            other => other,
        };
        *self.0.borrow_mut() = settled;
    }

    /// Settles the run (when a parse is under way): whether its files parsed.
    pub(super) fn settled_ok(&self, rt: &Runtime) -> bool {
        self.settle(rt);
        !matches!(*self.0.borrow(), State::Settled { error: Some(_), .. })
    }

    /// The document set of the `k`th deferred file, or the serial parse's first error.
    pub(super) fn take(&self, rt: &Runtime, k: usize) -> anyhow::Result<DocSet> {
        self.settle(rt);
        match &mut *self.0.borrow_mut() {
            State::Settled { error, docs } => match error.take() {
                Some(error) => Err(error),
                None => docs.get_mut(k).and_then(Option::take).ok_or_else(|| {
                    anyhow::anyhow!("internal error: a deferred file's documents taken twice")
                }),
            },
            _ => Err(anyhow::anyhow!("internal error: no deferred parse")),
        }
    }

    /// The run's result once it is settled: the serial parse's first error replaces
    /// `result`. Document sets nobody took are freed on another core.
    pub(super) fn finish<T>(&self, rt: &Runtime, result: anyhow::Result<T>) -> anyhow::Result<T> {
        self.settle(rt);
        match std::mem::take(&mut *self.0.borrow_mut()) {
            State::Settled {
                error: Some(error), ..
            } => Err(error),
            State::Settled { docs, .. } => {
                super::drop_aside(docs);
                result
            }
            _ => result,
        }
    }
}

/// The run's state once the deferred parse is done.
fn settled(rt: &Runtime, p: Parsing) -> State {
    let budget = match Run::of(rt) {
        Ok(run) => run.aliases.clone(),
        Err(e) => {
            return State::Settled {
                docs: Vec::new(),
                error: Some(e),
            }
        }
    };
    // a file the pieces could not give is the serial parse's (with the run's budget)
    let docs: anyhow::Result<Vec<Option<DocSet>>> = p
        .later
        .finish(&budget)
        .into_iter()
        .zip(&p.files)
        .map(|(ds, (f, keep))| match ds {
            Some(ds) => Ok(Some(ds)),
            None => parse_spending(rt, f, p.strict, *keep, &budget).map(Some),
        })
        .collect();
    let first_error = match docs {
        Ok(docs) => {
            return State::Settled { docs, error: None };
        }
        Err(e) => e,
    };
    // in file order, from the budget as it was: the error a serial parse meets first
    budget.restore(p.left);
    let error = p
        .all
        .iter()
        .find_map(|(f, keep)| parse_spending(rt, f, p.strict, *keep, &budget).err())
        .unwrap_or(first_error);
    State::Settled {
        docs: Vec::new(),
        error: Some(error),
    }
}

#[cfg(test)]
mod tests {
    use crate::files::InputFile;
    use crate::workspace::{render, RenderOptions};
    use crate::yaml::parser::{parse, AliasBudget, ParseOptions};
    use crate::yaml::FileId;

    /// A document copying a 100-item list by alias `copies` times.
    fn aliasing(copies: usize) -> String {
        let items: Vec<String> = (0..100).map(|i| i.to_string()).collect();
        let aliases = vec!["*l"; copies].join(", ");
        format!(
            "---\nlist: &l [{}]\ncopies: [{aliases}]\n",
            items.join(", ")
        )
    }

    /// What parsing `text` copies by alias expansion.
    fn spends(text: &str) -> usize {
        let opts = ParseOptions::default();
        parse(text, FileId::default(), &opts).expect("parses");
        opts.aliases.spent()
    }

    /// The run's error (the first line of its report), given `left` of alias budget.
    fn error_with(files: &[(&str, &str)], left: usize) -> Option<String> {
        let aliases = AliasBudget::default();
        aliases.restore(left);
        let opts = RenderOptions {
            aliases,
            ..RenderOptions::default()
        };
        let files = files
            .iter()
            .map(|(n, t)| InputFile::new(*n, t.as_bytes().to_vec()));
        let rendered = render(opts, files.collect());
        rendered.err().map(|d| d.to_string())
    }

    /// The alias budget is spent in file order, as a serial parse spends it: the plain
    /// file parsed meanwhile, before or after the annotated one, fails exactly when a
    /// serial run fails it (and the other file when that one fails).
    #[test]
    fn the_alias_budget_is_spent_in_file_order() {
        let padding = "---\nkind: ConfigMap\nmetadata:\n  name: padding\n".repeat(800);
        let plain = format!("{padding}{}", aliasing(6));
        let annotated = format!("#@ x = 1\n{}", aliasing(4));
        assert!(plain.len() >= super::DEFER_FROM);
        let both = spends(&plain) + spends(&annotated);
        for (first, second) in [
            (("a.yml", plain.as_str()), ("b.yml", annotated.as_str())),
            (("a.yml", annotated.as_str()), ("b.yml", plain.as_str())),
        ] {
            let files = [first, second];
            assert_eq!(error_with(&files, both), None);
            let err = error_with(&files, both - 1).expect("an error");
            assert!(
                err.contains("Unmarshaling YAML template 'b.yml'")
                    && err.contains("excessive aliasing"),
                "{err}"
            );
            // too little for the first file alone: the first fails
            let err = error_with(&files, spends(first.1) - 1).expect("an error");
            assert!(err.contains("'a.yml'"), "{err}");
        }
    }

    /// A `.lib.yml` parsed during the run, its aliases spent after the files parsed
    /// meanwhile: it fails, not they, when what they left does not hold its copies.
    #[test]
    fn files_parsed_during_the_run_spend_after_the_files_parsed_meanwhile() {
        let padding = "---\nkind: ConfigMap\nmetadata:\n  name: padding\n".repeat(800);
        let plain = format!("{padding}{}", aliasing(6));
        let lib = format!(
            "#@ def f():\n{}#@ end\n",
            aliasing(3).trim_start_matches("---\n")
        );
        let tpl = "#@ load(\"f.lib.yml\", \"f\")\n---\nf: #@ f()\n";
        let files = [
            ("a.yml", plain.as_str()),
            ("f.lib.yml", &lib),
            ("t.yml", tpl),
        ];
        // (the library file is parsed twice: run for its effects, then loaded)
        let all = spends(&plain) + 2 * spends(&lib);
        assert_eq!(error_with(&files, all), None);
        let err = error_with(&files, all - 1).expect("an error");
        assert!(
            err.contains("excessive aliasing") && !err.contains("'a.yml'"),
            "{err}"
        );
    }
}
