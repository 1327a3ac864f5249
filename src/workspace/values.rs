//! Data values: `@data/values` documents, the command line's values, and how they merge.

use std::sync::Arc;

use anyhow::{anyhow, bail};

use crate::diagnostic::indent;
use crate::overlay::OverlayError;
use crate::template::annotations::{annotations_of, DATA_VALUES, DATA_VALUES_SCHEMA};
use crate::yaml::keys::{self, KeyIndex};
use crate::yaml::parser::ParseOptions;
use crate::yaml::{Doc, DocSet, FileNames, Map, MapItem, Meta, Node, Pos};

/// Data values given on the command line, already in precedence order (lowest first):
/// `--data-values-file`, `--data-values-env`, `--data-values-env-yaml`, `-v`,
/// `--data-value-yaml`, `--data-value-file`.
#[derive(Clone, Debug)]
pub enum CliValues {
    /// A plain YAML document (`--data-values-file`): new keys are added, arrays and
    /// scalars replaced.
    Plain {
        library: Option<String>,
        doc: Node,
        /// How the source is named in messages (and in the positions of `doc`).
        source: String,
        /// The file's text, for the source lines of reports.
        text: Arc<str>,
    },
    /// One value at a key path (`-v a.b=c`, env variables…): the path is created as needed.
    KeyValue {
        library: Option<String>,
        path: Vec<String>,
        value: Node,
        /// How the source is named in messages (`(data-value arg)`,
        /// `(data-values-env arg) PREFIX`, `(data-value-file arg) key=path`).
        source: String,
        /// The text reports show for the value (`key=value`, `PREFIX_key=value`, the
        /// file's contents).
        line: String,
    },
}

impl CliValues {
    pub fn source(&self) -> &str {
        match self {
            CliValues::Plain { source, .. } | CliValues::KeyValue { source, .. } => source,
        }
    }

    /// For a key-value flag, the text reports show for it.
    pub fn flag_line(&self) -> Option<&str> {
        match self {
            CliValues::KeyValue { line, .. } => Some(line),
            CliValues::Plain { .. } => None,
        }
    }

    /// For a key-value flag, which flag gave it and the argument as given (the
    /// variable, for the environment's).
    pub fn flag(&self) -> Option<(&'static str, String)> {
        let CliValues::KeyValue { source, line, .. } = self else {
            return None;
        };
        let (kind, rest) = source.split_once(") ").unwrap_or((source, ""));
        Some(match kind.trim_end_matches(')') {
            "(data-value arg" => ("-v", line.clone()),
            "(data-value-yaml arg" => ("--data-value-yaml", line.clone()),
            "(data-value-file arg" => ("--data-value-file", rest.to_owned()),
            "(data-values-env-yaml arg" => ("--data-values-env-yaml", line.clone()),
            _ => ("--data-values-env", line.clone()),
        })
    }

    pub fn library(&self) -> Option<&str> {
        match self {
            CliValues::Plain { library, .. } | CliValues::KeyValue { library, .. } => {
                library.as_deref()
            }
        }
    }

    /// `-v [@lib:]a.b=value`: the value as a string.
    pub fn from_kv(kv: &str) -> anyhow::Result<CliValues> {
        let (library, path, value) = split_kv(kv)?;
        Ok(CliValues::KeyValue {
            library,
            path,
            value: Node::Str(value.into()),
            source: "(data-value arg)".into(),
            line: kv.to_owned(),
        })
    }

    /// `--data-value-yaml [@lib:]a.b=value`: the value read as YAML, positioned in the
    /// run's file `names`.
    pub fn from_kv_yaml(
        kv: &str,
        opts: &ParseOptions,
        names: &FileNames,
    ) -> anyhow::Result<CliValues> {
        let (library, path, value) = split_kv(kv)?;
        let source = "(data-value-yaml arg)";
        let value = yaml_value(value, source, opts, names).map_err(|e| {
            anyhow!(
                "Extracting data value from KV:\n  Deserializing value for key '{}':\n{}",
                path.join("."),
                indent(&format!("Deserializing YAML value: {e:#}"), 4)
            )
        })?;
        Ok(CliValues::KeyValue {
            library,
            path,
            value,
            source: source.into(),
            line: kv.to_owned(),
        })
    }

    /// A file of `--data-values-file` (`arg`, found as `rel_path`: its base name, its path
    /// in a directory given, or the name given): its documents, each a plain YAML document
    /// of values (comments only: none), positioned in the run's file `names` under
    /// `rel_path`. A file with annotations is refused under the argument as given.
    pub fn from_values_file(
        arg: &str,
        rel_path: &str,
        bytes: Vec<u8>,
        library: Option<&str>,
        opts: &ParseOptions,
        names: &FileNames,
    ) -> anyhow::Result<Vec<CliValues>> {
        let display = rel_path;
        // bytes that are not UTF-8 are carried, for the parser to refuse in go-yaml's words
        let text = crate::bytestr::decode_vec(bytes);
        let ds = crate::yaml::pieces::parse_text(&text, names.id(display), opts)
            .map_err(|e| anyhow!("Unmarshaling YAML data values file '{display}': {e}"))?;
        if crate::template::is_templated(&ds) {
            bail!(
                "Checking data values file '{arg}':\n  Expected to be plain YAML, having no annotations (hint: remove comments starting with `#@`)"
            );
        }
        let text: Arc<str> = Arc::from(text.as_str());
        // documents with nothing in them (only comments) contribute nothing
        Ok((ds.docs.into_iter())
            .filter(|d| !d.value.is_null())
            .map(|doc| CliValues::Plain {
                library: library.map(str::to_owned),
                doc: plain(doc.value),
                source: display.to_owned(),
                text: text.clone(),
            })
            .collect())
    }
}

/// `[@lib:]rest`: the library selector, if any, and the rest.
pub fn split_library(s: &str) -> anyhow::Result<(Option<String>, &str)> {
    if !s.starts_with('@') {
        return Ok((None, s));
    }
    match s.split_once(':') {
        Some((lib, rest)) => Ok((Some(lib.to_owned()), rest)),
        None => bail!("Expected library ref to end with ':' in '{s}'"),
    }
}

/// `[@lib:]a.b.c=value`: the library selector, the key path and the value's text.
pub fn split_kv(kv: &str) -> anyhow::Result<(Option<String>, Vec<String>, &str)> {
    let err = |msg: String| anyhow!("Extracting data value from KV:\n  {msg}");
    let Some((key, value)) = kv.split_once('=') else {
        return Err(err(format!("Expected format key=value, but was '{kv}'")));
    };
    let (library, key) = if key.starts_with('@') {
        split_library(key).map_err(|e| err(e.to_string()))?
    } else {
        (None, key)
    };
    if key.contains(':') {
        return Err(err(format!(
            "Expected at most one library-key separator ':' in '{}'",
            kv.split_once('=').map_or(kv, |(k, _)| k)
        )));
    }
    if key.is_empty() {
        return Err(err(format!("Expected key to be non-empty in '{kv}'")));
    }
    Ok((library, key.split('.').map(str::to_owned).collect(), value))
}

/// A value given as YAML text on the command line (its first document, plain), named
/// `source` in positions.
pub fn yaml_value(
    text: &str,
    source: &str,
    opts: &ParseOptions,
    names: &FileNames,
) -> anyhow::Result<Node> {
    let ds =
        crate::yaml::parser::parse(text, names.id(source), opts).map_err(|e| anyhow!("{e}"))?;
    Ok(ds
        .docs
        .into_iter()
        .next()
        .map(|d| plain(d.value))
        .unwrap_or(Node::Null))
}

/// Plain YAML given as values: a repeated key keeps its last value.
fn plain(mut n: Node) -> Node {
    crate::yaml::parser::dedup_last_wins_deep(&mut n);
    n
}

/// Whether a parsed document is annotated `@data/values` (read from its comments, before
/// evaluation).
pub fn is_data_values_doc(doc: &Doc) -> bool {
    annotations_of(&doc.meta.comments).any(|(name, _)| name == DATA_VALUES)
}

/// Whether an annotation of this name makes a document a data-values or schema one.
pub fn is_values_annotation(name: &str) -> bool {
    name == DATA_VALUES || name == DATA_VALUES_SCHEMA
}

pub fn is_schema_doc(doc: &Doc) -> bool {
    annotations_of(&doc.meta.comments).any(|(name, _)| name == DATA_VALUES_SCHEMA)
}

/// `@data/values` is only allowed on documents.
pub fn check_annotation_placement(file: &str, ds: &DocSet) -> anyhow::Result<()> {
    fn walk(file: &str, n: &Node) -> anyhow::Result<()> {
        let check = |meta: &Meta, what: &str| -> anyhow::Result<()> {
            for (name, _) in annotations_of(&meta.comments) {
                if name == DATA_VALUES || name == DATA_VALUES_SCHEMA {
                    bail!(
                        "Found @{name} on {what} ({file}:{}); only documents (---) can be annotated with @{name}",
                        meta.pos.line
                    );
                }
            }
            Ok(())
        };
        match n {
            Node::Map(m) => {
                for i in &m.items {
                    check(&i.meta, "map item")?;
                    walk(file, &i.value)?;
                }
            }
            Node::Array(a) => {
                for i in &a.items {
                    check(&i.meta, "array item")?;
                    walk(file, &i.value)?;
                }
            }
            _ => {}
        }
        Ok(())
    }
    for d in &ds.docs {
        walk(file, &d.value)?;
    }
    Ok(())
}

/// A data-values overlay may edit the annotations data values carry of their own
/// (`@assert/validate`), not those the schema gives them: the schema gives every value
/// of a type its `schema/…` annotations again after each overlay, so such an edit would
/// be silently undone. A schema's rules are changed by a `@data/values-schema` overlay.
pub const SCHEMA_ANNOTATIONS: crate::overlay::annotations::Protected =
    crate::overlay::annotations::Protected {
        prefix: "schema/",
        reason: "a data-values overlay does not edit the annotations a schema gives data values; change the schema's with a @data/values-schema overlay",
    };

/// Plain merge: maps merge key by key (new keys are added), anything else replaces.
pub fn merge_plain(left: &mut Node, right: Node) {
    match (left, right) {
        (Node::Map(l), Node::Map(r)) => {
            let mut index = KeyIndex::for_lookups(l, r.items.len());
            for item in r.items {
                match keys::position(l, index.as_ref(), &item.key) {
                    Some(at) => {
                        let existing = &mut l.items[at];
                        if !(matches!(existing.value, Node::Map(_))
                            && matches!(item.value, Node::Map(_)))
                        {
                            existing.meta.pos = item.meta.pos.clone();
                        }
                        merge_plain(&mut existing.value, item.value)
                    }
                    None => {
                        if let Some(index) = &mut index {
                            index.add(&item.key, l.items.len());
                        }
                        l.items.push(item)
                    }
                }
            }
        }
        (l, r) => *l = r,
    }
}

/// Sets the value at `path`, creating maps on the way (`-v a.b.c=x`). The flag is an
/// overlay of a document of nested maps on the flag's line: a key on the way whose value
/// is not a map is reported as that overlay's mismatch. `source` names the flag among
/// the run's file `names`.
pub fn set_path(
    names: &FileNames,
    left: &mut Node,
    path: &[String],
    value: Node,
    source: &str,
) -> anyhow::Result<()> {
    let pos = names.pos(source, 1);
    let at = names.describe(&pos);
    let mut value = value;
    position_all(&mut value, &pos);
    set_path_at(left, path, value, &pos, &at).map_err(|e| {
        let e = e.within_node(format!("Document on line {at}"), &pos);
        e.diagnostic(names, e.indented(0)).into()
    })
}

fn set_path_at(
    left: &mut Node,
    path: &[String],
    value: Node,
    pos: &Pos,
    at: &str,
) -> Result<(), OverlayError> {
    let Some((first, rest)) = path.split_first() else {
        *left = value;
        return Ok(());
    };
    if left.is_null() {
        *left = Node::Map(Map::default());
    }
    let Node::Map(m) = left else {
        return Err(OverlayError::new(format!(
            "Expected map, but was {}",
            left.type_name()
        )));
    };
    let key = Node::Str(first.into());
    let within = |e: OverlayError| e.within(format!("Map item (key '{first}') on line {at}"));
    if let Some(item) = m.items.iter_mut().find(|i| i.key.value_eq(&key)) {
        if rest.is_empty() {
            item.meta.pos = pos.clone();
        }
        return set_path_at(&mut item.value, rest, value, pos, at).map_err(within);
    }
    let mut child = Node::Null;
    set_path_at(&mut child, rest, value, pos, at).map_err(within)?;
    m.items.push(MapItem {
        key,
        value: child,
        meta: Meta::at(pos.clone()),
    });
    Ok(())
}

/// Gives every item of `n` the position `pos` (values from a flag are all on its line).
fn position_all(n: &mut Node, pos: &Pos) {
    match n {
        Node::Map(m) => {
            for i in &mut m.items {
                i.meta.pos = pos.clone();
                position_all(&mut i.value, pos);
            }
        }
        Node::Array(a) => {
            for i in &mut a.items {
                i.meta.pos = pos.clone();
                position_all(&mut i.value, pos);
            }
        }
        _ => {}
    }
}

/// Applies the command line's values (those for this library) onto `values`.
pub fn apply_cli(
    values: &mut Node,
    cli: CliValues,
    sources: &crate::schema::Sources,
) -> anyhow::Result<()> {
    match cli {
        CliValues::Plain {
            doc, source, text, ..
        } => {
            sources.register(&source, Arc::from(text.as_bytes()));
            if values.is_null() {
                *values = Node::Map(Map::default());
            }
            merge_plain(values, doc);
        }
        CliValues::KeyValue {
            path,
            value,
            source,
            ..
        } => set_path(sources.names(), values, &path, value, &source)?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(items: &[(&str, Node)]) -> Node {
        Node::Map(Map {
            items: items
                .iter()
                .map(|(k, v)| MapItem {
                    key: Node::Str((*k).into()),
                    value: v.clone(),
                    meta: Meta::default(),
                })
                .collect(),
        })
    }

    #[test]
    fn plain_merge_adds_keys_and_replaces_the_rest() {
        let mut left = map(&[
            ("a", Node::Int(1.into())),
            ("b", map(&[("c", Node::Int(2.into()))])),
        ]);
        merge_plain(
            &mut left,
            map(&[
                ("b", map(&[("d", Node::Int(3.into()))])),
                ("e", Node::Bool(true)),
            ]),
        );
        assert_eq!(
            left,
            map(&[
                ("a", Node::Int(1.into())),
                (
                    "b",
                    map(&[("c", Node::Int(2.into())), ("d", Node::Int(3.into()))])
                ),
                ("e", Node::Bool(true))
            ])
        );
    }

    #[test]
    fn a_large_plain_merge_finds_keys_as_a_small_one() {
        let n = 3_000;
        let keys = |from: usize, to: usize| -> Vec<(String, Node)> {
            (from..to)
                .map(|i| (format!("k{i}"), Node::Int((i as i32).into())))
                .collect()
        };
        let as_map = |items: Vec<(String, Node)>| {
            let items: Vec<(&str, Node)> =
                items.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
            map(&items)
        };
        // the second half again and as many new keys: replaced in place, then added
        let mut left = as_map(keys(0, n));
        merge_plain(&mut left, as_map(keys(n / 2, n + n / 2)));
        assert_eq!(left, as_map(keys(0, n + n / 2)));
        // an integer key and a float key of one value are two keys, as in an overlay
        let num = |k: Node, v: Node| {
            Node::Map(Map {
                items: [MapItem {
                    key: k,
                    value: v,
                    meta: Meta::default(),
                }]
                .into_iter()
                .collect(),
            })
        };
        let mut left = as_map(keys(0, n));
        merge_plain(&mut left, num(Node::Int(7.into()), Node::Bool(true)));
        merge_plain(&mut left, num(Node::Float(7.0), Node::Bool(false)));
        let Node::Map(m) = &left else { panic!() };
        assert_eq!(m.items.len(), n + 2);
        assert_eq!(m.items[n].value, Node::Bool(true));
        assert_eq!(m.items[n + 1].value, Node::Bool(false));
    }

    #[test]
    fn splits_key_values_with_library_selectors() {
        let (lib, path, v) = split_kv("@lib:a.b=c=d").unwrap();
        assert_eq!(lib.as_deref(), Some("@lib"));
        assert_eq!(path, vec!["a", "b"]);
        assert_eq!(v, "c=d");
        let err = split_kv("i:nt=124").unwrap_err().to_string();
        assert!(err.contains("Expected at most one library-key separator ':' in 'i:nt'"));
        assert!(split_kv("novalue").is_err() && split_kv("=x").is_err());
    }

    #[test]
    fn a_values_file_is_named_by_its_relative_path_and_must_be_plain() {
        let names = FileNames::default();
        let opts = ParseOptions::default();
        let read = |arg: &str, rel: &str, text: &str| {
            CliValues::from_values_file(arg, rel, text.as_bytes().to_vec(), None, &opts, &names)
        };
        let docs = read("dir", "sub/v.yml", "a: 1\n---\n# nothing\n---\nb: 2\n").unwrap();
        assert_eq!(
            docs.len(),
            2,
            "a document of comments only contributes nothing"
        );
        assert!(docs.iter().all(|d| d.source() == "sub/v.yml"));
        // annotations: the argument as given; a parse error: the file's relative path
        let err = read("n.yml=dir/v.yml", "n.yml", "#@ x = 1\na: 1\n")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("Checking data values file 'n.yml=dir/v.yml':"),
            "{err}"
        );
        let err = read("n.yml=dir/v.yml", "n.yml", "a: [\n")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("Unmarshaling YAML data values file 'n.yml': yaml:"),
            "{err}"
        );
    }

    #[test]
    fn key_values_name_their_flag_and_its_argument() {
        let kv = |source: &str, line: &str| CliValues::KeyValue {
            library: None,
            path: vec!["a".into()],
            value: Node::Null,
            source: source.into(),
            line: line.into(),
        };
        let flag = |c: CliValues| c.flag().unwrap();
        assert_eq!(
            flag(CliValues::from_kv("a=1").unwrap()),
            ("-v", "a=1".into())
        );
        let opts = ParseOptions::default();
        let yaml = CliValues::from_kv_yaml("a=[1]", &opts, &FileNames::default()).unwrap();
        assert_eq!(flag(yaml), ("--data-value-yaml", "a=[1]".into()));
        // a value's file: the argument, not the file's text
        let file = kv("(data-value-file arg) a=owner.txt", "nobody\n");
        assert_eq!(flag(file), ("--data-value-file", "a=owner.txt".into()));
        let env = kv("(data-values-env-yaml arg) APP", "APP_a=1");
        assert_eq!(flag(env), ("--data-values-env-yaml", "APP_a=1".into()));
        let env = kv("(data-values-env arg) APP", "APP_a=1");
        assert_eq!(flag(env), ("--data-values-env", "APP_a=1".into()));
    }

    #[test]
    fn set_path_creates_maps() {
        let names = FileNames::default();
        let mut v = Node::Null;
        set_path(
            &names,
            &mut v,
            &["a".into(), "b".into()],
            Node::Str("x".into()),
            "t",
        )
        .unwrap();
        assert!(v.value_eq(&map(&[("a", map(&[("b", Node::Str("x".into()))]))])));
        // every item set from a flag is positioned on the flag's line
        let Node::Map(m) = &v else {
            panic!("not a map")
        };
        assert_eq!(names.describe(&m.items[0].meta.pos), "t:1");
        assert!(set_path(
            &names,
            &mut v,
            &["a".into(), "b".into(), "c".into()],
            Node::Null,
            "t"
        )
        .is_err());
    }

    #[test]
    fn set_path_repositions_the_leaf() {
        let names = FileNames::default();
        let mut v = map(&[("a", Node::Int(1.into()))]);
        set_path(
            &names,
            &mut v,
            &["a".into()],
            Node::Int(2.into()),
            "(data-value arg)",
        )
        .unwrap();
        let Node::Map(m) = &v else {
            panic!("not a map")
        };
        assert_eq!(m.items[0].value, Node::Int(2.into()));
        assert_eq!(names.describe(&m.items[0].meta.pos), "(data-value arg):1");
    }
}
