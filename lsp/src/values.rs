//! What the server says of a data value, by its path (`["app", "replicas"]`): its final
//! value, its type, what set it in order, its schema's documentation and rules (hover);
//! the keys under it (completion) and the values `one_of` allows; where it is declared
//! and the lines that set it (definition). All from the facts the engine left for each
//! run of a file (`ytt::frontend::Facts`, kept with the run's last analysis that got
//! that far). A caller holding a position in code gives the path it found there.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lsp_types::{
    CompletionItem, CompletionItemKind, Documentation, Location as LspLocation, MarkupContent,
    MarkupKind,
};
use ytt::frontend::{Facts, Origin, Seg};
use ytt::schema::export::{Field, FieldKind};
use ytt::yaml::emit::yaml_node;
use ytt::yaml::{Location, Node};

use crate::{text, uri};

/// How much of a value a hover shows.
const VALUE_LINES: usize = 20;
const VALUE_BYTES: usize = 2_000;

/// A run's facts, with what is needed to show them: where the files the run names are.
#[derive(Clone)]
pub struct RunFacts {
    /// The run's name (a hover names it when several runs have the value).
    pub run: String,
    pub facts: Arc<Facts>,
    /// The run's last analysis stopped before its data values were final: these are
    /// from the one before.
    pub stale: bool,
    /// Each file the run read, by the name the run knows it: where it is and its bytes.
    pub files: BTreeMap<String, (PathBuf, Arc<[u8]>)>,
    /// The files the run read as `--data-values-file`.
    pub values_files: BTreeSet<PathBuf>,
}

impl RunFacts {
    /// The facts of a run that read `files` (by the names the run knows them, with their
    /// bytes) from under `root`, without `--data-values-file` files: the playground's.
    pub fn new(run: &str, facts: Facts, root: &Path, files: &[(String, Arc<[u8]>)]) -> RunFacts {
        RunFacts {
            run: run.to_owned(),
            facts: Arc::new(facts),
            stale: false,
            files: (files.iter())
                .map(|(name, bytes)| (name.clone(), (root.join(name), bytes.clone())))
                .collect(),
            values_files: BTreeSet::new(),
        }
    }

    /// The directory of the run's root library, from where it found `file` (the file
    /// goes by its path from there: `overlays/a.yml` at `/w/config/overlays/a.yml` is
    /// `/w/config`'s). None when the run did not read it.
    pub fn root_of(&self, file: &Path) -> Option<PathBuf> {
        let (name, _) = self.files.iter().find(|(_, (p, _))| p == file)?;
        let mut root = file.to_path_buf();
        for _ in Path::new(name).components() {
            root.pop();
        }
        (root.join(name) == file).then_some(root)
    }

    /// The final value at `path`.
    pub fn value(&self, path: &[Seg]) -> Option<&Node> {
        let mut n = &self.facts.values;
        for seg in path {
            n = match (n, seg) {
                (Node::Map(m), Seg::Key(k)) => {
                    &m.items.iter().find(|i| i.key.key_text() == *k)?.value
                }
                (Node::Array(a), Seg::Index(i)) => &a.items.get(*i)?.value,
                _ => return None,
            };
        }
        Some(n)
    }

    /// The schema's field at `path` (an array's items share one).
    pub fn field(&self, path: &[Seg]) -> Option<&Field> {
        let mut f = self.facts.schema.as_ref()?.root.as_ref()?;
        for seg in path {
            f = match (&f.kind, seg) {
                (FieldKind::Map(items), Seg::Key(k)) => {
                    &items.iter().find(|(key, _)| key.key_text() == *k)?.1
                }
                (FieldKind::Array(item), Seg::Index(_)) => item,
                _ => return None,
            };
        }
        Some(f)
    }

    /// Where an engine location is: the file and the range of its line's text.
    pub(crate) fn locate(&self, l: &Location) -> Option<LspLocation> {
        let (path, bytes) = self.files.get(l.file.as_deref()?)?;
        let range = text::engine_range(&String::from_utf8_lossy(bytes), l.line, None);
        Some(LspLocation::new(uri::from_path(path), range))
    }

    /// An engine location as shown: its file relative to `base` where it is under it,
    /// and its line.
    pub(crate) fn shown(&self, l: &Location, base: &Path) -> String {
        match l.file.as_deref().and_then(|f| self.files.get(f)) {
            Some((path, _)) => {
                let path = path.strip_prefix(base).unwrap_or(path);
                format!("{}:{}", path.display(), l.line)
            }
            None => l.to_string(),
        }
    }
}

/// A path as code reads it: `app.ports[0].name`.
pub fn dotted(path: &[Seg]) -> String {
    let mut out = String::new();
    for seg in path {
        match seg {
            Seg::Key(k) if out.is_empty() => out.push_str(k),
            Seg::Key(k) => write!(out, ".{k}").unwrap_or(()),
            Seg::Index(i) => write!(out, "[{i}]").unwrap_or(()),
        }
    }
    out
}

/// The hover of the data value at `path`, in markdown: for each run that has it (named
/// when several do), its final value, type, what set it, and its schema's documentation
/// and rules. Files are shown relative to `base`. None when no run knows the path.
pub fn hover(runs: &[&RunFacts], path: &[Seg], base: &Path) -> Option<String> {
    let having: Vec<&RunFacts> = (runs.iter().copied())
        .filter(|run| run.value(path).is_some() || run.field(path).is_some())
        .collect();
    let named = having.len() > 1;
    let sections: Vec<String> = (having.into_iter())
        .map(|run| section(run, path, base, named))
        .collect();
    (!sections.is_empty()).then(|| sections.join("\n\n---\n\n"))
}

/// What `run` says of the value at `path` (which it has), after its name when `named`.
fn section(run: &RunFacts, path: &[Seg], base: &Path, named: bool) -> String {
    let value = run.value(path);
    let field = run.field(path);
    let mut out = String::new();
    if named {
        write!(out, "[{}] ", run.run).unwrap_or(());
    }
    if run.stale {
        out.push_str("*(the last analysis stopped before the data values were final: from the one before)*\n\n");
    }
    let ty = match field {
        Some(f) if f.nullable => format!("{} or null", f.kind.name()),
        Some(f) => f.kind.name().to_owned(),
        None => value.map_or("null", Node::type_name).to_owned(),
    };
    writeln!(out, "`{}`: {ty}", shown_path(path)).unwrap_or(());
    match value {
        Some(v) => writeln!(out, "\n```yaml\n{}```", truncated(&yaml_node(v))).unwrap_or(()),
        None => out.push_str("\nnot in the final data values\n"),
    }
    if let Some(f) = field {
        documentation(&mut out, f);
    }
    let origins = run.facts.provenance.of(path);
    if !origins.is_empty() {
        out.push_str("\nset by:\n");
        for (i, o) in origins.iter().enumerate() {
            let what = match o {
                Origin::Schema(l) => format!("schema default, `{}`", run.shown(l, base)),
                Origin::Document(l) => format!("data values, `{}`", run.shown(l, base)),
                Origin::ValuesFile(l) => {
                    format!("`--data-values-file`, `{}`", run.shown(l, base))
                }
                Origin::Flag { flag, text } => format!("`{flag} {text}`"),
                Origin::Caller => "the library's caller (`with_data_values()`)".to_owned(),
            };
            writeln!(out, "{}. {what}", i + 1).unwrap_or(());
        }
    }
    if let Some(f) = field.filter(|f| !f.rules.is_empty()) {
        out.push_str("\nrules:\n");
        for r in &f.rules {
            let mut notes = String::new();
            if r.warn {
                notes.push_str(" (a warning)");
            }
            if r.conditional {
                notes.push_str(" (when a condition holds)");
            }
            let at = run.shown(&r.by, base);
            writeln!(out, "- must be: {}{notes}, `{at}`", r.desc).unwrap_or(());
        }
    }
    out.trim_end().to_owned()
}

fn shown_path(path: &[Seg]) -> String {
    match path {
        [] => "data.values".to_owned(),
        _ => dotted(path),
    }
}

/// A schema field's title, description, examples and deprecation.
fn documentation(out: &mut String, f: &Field) {
    let doc = &f.doc;
    if let Some(title) = &doc.title {
        writeln!(out, "\n**{title}**").unwrap_or(());
    }
    if let Some(d) = &doc.description {
        writeln!(out, "\n{d}").unwrap_or(());
    }
    if let Some(d) = &doc.deprecated {
        let d = if d.is_empty() { "deprecated" } else { d };
        writeln!(out, "\n**deprecated**: {d}").unwrap_or(());
    }
    if !doc.examples.is_empty() {
        out.push_str("\nexamples:\n");
        for (desc, value) in &doc.examples {
            let v = yaml_node(value);
            let v = v.trim_end();
            match (desc.is_empty(), v.contains('\n')) {
                (true, false) => writeln!(out, "- `{v}`"),
                (false, false) => writeln!(out, "- {desc}: `{v}`"),
                (_, true) => writeln!(out, "- {desc}\n\n```yaml\n{v}\n```"),
            }
            .unwrap_or(());
        }
    }
}

/// `yaml` cut to what a hover shows, said when cut.
fn truncated(yaml: &str) -> String {
    let mut out = String::new();
    for (i, line) in yaml.lines().enumerate() {
        if i == VALUE_LINES || out.len() + line.len() > VALUE_BYTES {
            out.push_str("# …\n");
            break;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The keys under `parent` (from the schema where there is one, else from the final
/// values), for each run; a key's detail is its type, its documentation the schema's
/// description. Keys in `present` are left out.
pub fn complete(runs: &[&RunFacts], parent: &[Seg], present: &[String]) -> Vec<CompletionItem> {
    let mut items: BTreeMap<String, CompletionItem> = BTreeMap::new();
    for run in runs {
        let children: Vec<(String, String, Option<String>)> = match run.field(parent) {
            Some(Field {
                kind: FieldKind::Map(fields),
                ..
            }) => (fields.iter())
                .map(|(k, f)| (k.key_text(), f.kind.name().to_owned(), described(f)))
                .collect(),
            Some(_) => Vec::new(),
            None => match run.value(parent) {
                Some(Node::Map(m)) => (m.items.iter())
                    .map(|i| (i.key.key_text(), i.value.type_name().to_owned(), None))
                    .collect(),
                _ => Vec::new(),
            },
        };
        for (key, ty, doc) in children {
            if present.contains(&key) {
                continue;
            }
            items.entry(key.clone()).or_insert_with(|| CompletionItem {
                label: key,
                kind: Some(CompletionItemKind::FIELD),
                detail: Some(ty),
                documentation: doc.map(|d| {
                    Documentation::MarkupContent(MarkupContent {
                        kind: MarkupKind::Markdown,
                        value: d,
                    })
                }),
                ..CompletionItem::default()
            });
        }
    }
    items.into_values().collect()
}

/// What a completion shows of a schema field: its title and description.
fn described(f: &Field) -> Option<String> {
    let parts: Vec<&str> = [&f.doc.title, &f.doc.description]
        .into_iter()
        .flatten()
        .map(String::as_str)
        .collect();
    (!parts.is_empty()).then(|| parts.join("\n\n"))
}

/// The values a `one_of` rule of the value at `path` allows, as YAML.
pub fn allowed(runs: &[&RunFacts], path: &[Seg]) -> Vec<CompletionItem> {
    let mut seen = BTreeSet::new();
    let mut items = Vec::new();
    for run in runs {
        let Some(f) = run.field(path) else { continue };
        for values in f.rules.iter().filter_map(|r| r.one_of()) {
            for v in values {
                let text = yaml_node(v).trim_end().to_owned();
                if seen.insert(text.clone()) {
                    items.push(CompletionItem {
                        label: text,
                        kind: Some(CompletionItemKind::ENUM_MEMBER),
                        detail: Some("one_of".into()),
                        ..CompletionItem::default()
                    });
                }
            }
        }
    }
    items
}

/// Where the data value at `path` is declared in the schema, then the lines that set it,
/// in order, for each run (each place once).
pub fn definition(runs: &[&RunFacts], path: &[Seg]) -> Vec<LspLocation> {
    let mut out: Vec<LspLocation> = Vec::new();
    for run in runs {
        let declared = run.field(path).map(|f| &f.pos);
        let set = run
            .facts
            .provenance
            .of(path)
            .iter()
            .filter_map(|o| match o {
                Origin::Schema(l) | Origin::Document(l) | Origin::ValuesFile(l) => Some(l),
                _ => None,
            });
        for l in declared.into_iter().chain(set) {
            if let Some(loc) = run.locate(l) {
                if !out.contains(&loc) {
                    out.push(loc);
                }
            }
        }
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use ytt::files::SourceFile;
    use ytt::frontend::{self, FactsSink, Host, Request};

    /// The facts of a run of `files` (in a directory `/w`) with `-v` flags `strings`.
    pub fn facts_of(files: &[(&str, &str)], strings: &[&str]) -> RunFacts {
        let mut req = Request {
            files: (files.iter())
                .map(|(p, t)| SourceFile::new(*p, t.as_bytes().to_vec()))
                .collect(),
            ..Request::default()
        };
        req.data_values.strings = strings.iter().map(|s| s.to_string()).collect();
        let sink = FactsSink::default();
        let host = Host {
            facts: Some(sink.clone()),
            ..Host::default()
        };
        let _ = frontend::run(req, host);
        RunFacts {
            run: "run".into(),
            facts: Arc::new(sink.take().expect("facts")),
            stale: false,
            files: (files.iter())
                .map(|(p, t)| {
                    let bytes: Arc<[u8]> = Arc::from(t.as_bytes());
                    (p.to_string(), (Path::new("/w").join(p), bytes))
                })
                .collect(),
            values_files: BTreeSet::new(),
        }
    }

    #[test]
    fn a_runs_root_is_where_its_files_are_named_from() {
        let run = facts_of(&[("sub/a.yml", "a: 1\n"), ("b.yml", "b: 1\n")], &[]);
        let root = Some(PathBuf::from("/w"));
        assert_eq!(run.root_of(Path::new("/w/sub/a.yml")), root);
        assert_eq!(run.root_of(Path::new("/w/b.yml")), root);
        // a file the run did not read
        assert_eq!(run.root_of(Path::new("/w/c.yml")), None);
    }

    pub const SCHEMA: &str = "#@data/values-schema
---
#@schema/title \"The app\"
app:
  #@schema/desc \"How many\"
  #@schema/validation min=1
  replicas: 1
  #@schema/validation one_of=[\"debug\", \"info\"]
  level: info
  ports:
  - 80
";

    fn key(path: &str) -> Vec<Seg> {
        path.split('.').map(|k| Seg::Key(k.into())).collect()
    }

    #[test]
    fn a_hover_says_the_value_its_type_what_set_it_and_the_rules() {
        let run = facts_of(
            &[
                ("schema.yml", SCHEMA),
                ("values.yml", "#@data/values\n---\napp:\n  replicas: 2\n"),
            ],
            &["app.level=debug"],
        );
        let h = hover(&[&run], &key("app.replicas"), Path::new("/w")).unwrap();
        assert_eq!(
            h,
            "`app.replicas`: integer

```yaml
2
```

How many

set by:
1. schema default, `schema.yml:7`
2. data values, `values.yml:4`

rules:
- must be: a value >= 1, `schema.yml:6`"
        );
        let h = hover(&[&run], &key("app.level"), Path::new("/w")).unwrap();
        assert!(h.contains("2. `-v app.level=debug`"), "{h}");
        let kept = RunFacts {
            stale: true,
            ..run.clone()
        };
        let h = hover(&[&kept], &key("app.level"), Path::new("/w")).unwrap();
        assert!(h.starts_with("*(the last analysis stopped"), "{h}");
        assert!(hover(&[&run], &key("app.nothing"), Path::new("/w")).is_none());
        // an array's item has its item's schema
        let mut item = key("app.ports");
        item.push(Seg::Index(0));
        let h = hover(&[&run], &item, Path::new("/w")).unwrap();
        assert!(h.starts_with("`app.ports[0]`: integer"), "{h}");
    }

    #[test]
    fn completion_lists_the_schema_keys_and_the_allowed_values() {
        let run = facts_of(&[("schema.yml", SCHEMA)], &[]);
        let labels = |items: Vec<CompletionItem>| -> Vec<String> {
            items.into_iter().map(|i| i.label).collect()
        };
        assert_eq!(labels(complete(&[&run], &[], &[])), ["app"]);
        let items = complete(&[&run], &key("app"), &["ports".into()]);
        assert_eq!(items[1].detail.as_deref(), Some("integer"));
        let doc = |i: &CompletionItem| match &i.documentation {
            Some(Documentation::MarkupContent(m)) => Some(m.value.clone()),
            _ => None,
        };
        assert_eq!(doc(&items[1]).as_deref(), Some("How many"));
        assert_eq!(doc(&items[0]), None);
        assert_eq!(labels(items), ["level", "replicas"]);
        assert_eq!(
            labels(allowed(&[&run], &key("app.level"))),
            ["debug", "info"]
        );
        // without a schema, the final values' keys
        let plain = facts_of(&[("v.yml", "#@data/values\n---\na:\n  b: 1\n")], &[]);
        assert_eq!(labels(complete(&[&plain], &key("a"), &[])), ["b"]);
    }

    #[test]
    fn definition_is_the_declaration_then_each_line_that_set_it() {
        let run = facts_of(
            &[
                ("schema.yml", SCHEMA),
                ("values.yml", "#@data/values\n---\napp:\n  replicas: 2\n"),
            ],
            &["app.level=debug"],
        );
        let lines: Vec<(String, u32)> = definition(&[&run], &key("app.replicas"))
            .into_iter()
            .map(|l| (l.uri.path().to_string(), l.range.start.line))
            .collect();
        assert_eq!(
            lines,
            [("/w/schema.yml".into(), 6), ("/w/values.yml".into(), 3)]
        );
        // a flag has no line
        assert_eq!(definition(&[&run], &key("app.level")).len(), 1);
    }

    #[test]
    fn large_values_are_cut() {
        let long: String = (0..50).map(|i| format!("- {i}\n")).collect();
        let t = truncated(&long);
        assert_eq!(t.lines().count(), VALUE_LINES + 1);
        assert!(t.ends_with("# …\n"));
        assert_eq!(dotted(&[Seg::Key("a".into()), Seg::Index(2)]), "a[2]");
    }
}
