//! A large output is written on every core: its documents are cut into consecutive
//! runs, the cores take runs one after another and write each into a text of its own,
//! and the texts are joined in order. Every document is written exactly as one writer
//! would write it (an emitter's state starts afresh at each document), so the output is
//! the same bytes.

use crate::cores::on_cores;
use crate::yaml::node::{Doc, Node};

/// Below this many nodes of output, a second thread costs more than it saves (a
/// thread starts in some 50 µs; a node takes about 0.1 µs to write).
const PARALLEL_FROM: usize = 50_000;

/// Runs per core: many small runs balance documents of unequal size without measuring
/// them (a measuring walk costs a third of the writing).
const RUNS_PER_CORE: usize = 16;

/// Stack of a writing thread: as deep as the thread that would otherwise write (the
/// emitter recurses once per level of nesting).
const WRITE_STACK: usize = 256 << 20;

/// Writes `docs` with `write(run, first_index, out)` (run after run, the index of the
/// run's first document in `docs`), on every core when the output is large: the texts,
/// in order. The first error in document order wins, as with one writer.
pub(super) fn write_docs<E: Send>(
    docs: &[Doc],
    write: impl Fn(&[Doc], usize, &mut String) -> Result<(), E> + Sync,
) -> Result<Vec<String>, E> {
    let cores = match docs.len() >= 2 && larger_than(docs, PARALLEL_FROM) {
        // (asking for the cores reads cgroup files: only for a large output)
        true => crate::cores::available(),
        false => 1,
    };
    if cores < 2 {
        return write_serially(docs, &write);
    }
    let runs = docs.len().min(cores * RUNS_PER_CORE);
    let bounds = |k: usize| (k * docs.len() / runs, (k + 1) * docs.len() / runs);
    let write_run = |k: usize| {
        let (start, end) = bounds(k);
        let mut text = String::new();
        write(&docs[start..end], start, &mut text).map(|()| text)
    };
    let texts = on_cores(cores, "ytt-write", WRITE_STACK, runs, |k| {
        Some(write_run(k))
    });
    texts
        .into_iter()
        .enumerate()
        .map(|(k, written)| {
            // a run whose helper panicked is written here
            written.unwrap_or_else(|| write_run(k))
        })
        .collect()
}

/// One writer's texts: a text ends after the document that brings it to [`TEXT_BYTES`],
/// and the next starts with room for twice that. A text grown by doubling is copied at
/// each step, into fresh memory each time: a 145 kB output touched twice its size.
fn write_serially<E>(
    docs: &[Doc],
    write: &impl Fn(&[Doc], usize, &mut String) -> Result<(), E>,
) -> Result<Vec<String>, E> {
    let mut texts = Vec::new();
    // (the first starts small, as most outputs are)
    let mut text = String::new();
    for i in 0..docs.len() {
        write(&docs[i..=i], i, &mut text)?;
        if text.len() >= TEXT_BYTES {
            texts.push(std::mem::replace(
                &mut text,
                String::with_capacity(2 * TEXT_BYTES),
            ));
        }
    }
    if !text.is_empty() || texts.is_empty() {
        texts.push(text);
    }
    Ok(texts)
}

/// See [`write_serially`].
const TEXT_BYTES: usize = 64 << 10;

/// `texts` appended to `out` (moved when `out` is empty and they are one).
pub(super) fn append<T: AsRef<str> + Into<String>>(out: &mut String, mut texts: Vec<T>) {
    if out.is_empty() && texts.len() == 1 {
        *out = texts.pop().map(Into::into).unwrap_or_default();
        return;
    }
    out.reserve(texts.iter().map(|t| t.as_ref().len()).sum());
    for text in texts {
        out.push_str(text.as_ref());
    }
}

/// Whether `docs` hold more than `n` nodes (keys and values); counts no further.
fn larger_than(docs: &[Doc], n: usize) -> bool {
    fn spend(node: &Node, left: &mut usize) -> bool {
        if *left == 0 {
            return true;
        }
        *left -= 1;
        match node {
            Node::Map(m) => m
                .items
                .iter()
                .any(|i| spend(&i.key, left) || spend(&i.value, left)),
            Node::Array(a) => a.items.iter().any(|i| spend(&i.value, left)),
            _ => false,
        }
    }
    let mut left = n;
    docs.iter().any(|d| spend(&d.value, &mut left))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::emit::{json_docset, write_document, yaml_docset, yaml_texts};
    use crate::yaml::node::{Array, ArrayItem, DocSet, Map, MapItem, Meta};

    /// A document of about `size` nodes: `{name: s<i>, items: [{k: 0}, …]}`.
    fn doc(i: usize, size: usize) -> Node {
        let item = |k: usize| MapItem {
            key: Node::Str("k".into()),
            value: Node::Int((k as u64).into()),
            meta: Meta::default(),
        };
        let items = (0..size / 3)
            .map(|k| ArrayItem {
                value: Node::Map(Map {
                    items: thin_vec::thin_vec![item(k)],
                }),
                meta: Meta::default(),
            })
            .collect();
        Node::Map(Map {
            items: thin_vec::thin_vec![
                MapItem {
                    key: Node::Str("name".into()),
                    value: Node::Str(format!("s{i}").into()),
                    meta: Meta::default(),
                },
                MapItem {
                    key: Node::Str("items".into()),
                    value: Node::Array(Array { items }),
                    meta: Meta::default(),
                },
            ],
        })
    }

    fn docset(values: Vec<Node>) -> DocSet {
        DocSet {
            docs: values
                .into_iter()
                .map(|v| Doc::new(v, Meta::default()))
                .collect(),
            meta: Meta::default(),
        }
    }

    fn one_writer_yaml(ds: &DocSet) -> String {
        let mut out = String::new();
        for (i, d) in ds.docs.iter().enumerate() {
            if i > 0 {
                out.push_str("---\n");
            }
            write_document(&d.value, &mut out);
        }
        out
    }

    #[test]
    fn only_a_large_output_is_measured_as_large() {
        assert!(!larger_than(&[], 0));
        let one = docset(vec![Node::Null]);
        assert!(!larger_than(&one.docs, 1));
        assert!(larger_than(&one.docs, 0));
        // `doc(i, 30)`: a map (1) of two keys with a string (2) and an array (2) of ten
        // maps of one key and value (30): 35 nodes
        let ds = docset((0..10).map(|i| doc(i, 30)).collect());
        assert!(!larger_than(&ds.docs, 10 * 35));
        assert!(larger_than(&ds.docs, 10 * 35 - 1));
        let ds = docset(vec![doc(0, 3 * PARALLEL_FROM)]);
        assert!(larger_than(&ds.docs, PARALLEL_FROM));
    }

    /// Below the size written on every core, one writer's output comes in texts of about
    /// `TEXT_BYTES`, cut after whole documents: the same bytes joined.
    #[test]
    fn one_writer_cuts_its_text_after_documents() {
        let long = |i: usize| Node::Str(format!("{i}-{}", "x".repeat(3_000)).into());
        for n in [0, 1, 5, 21, 22, 60] {
            let ds = docset((0..n).map(long).collect());
            let texts = yaml_texts(&ds);
            assert_eq!(texts.concat(), one_writer_yaml(&ds), "{n} documents");
            // 22 documents of 3 kB reach 64 KiB
            assert_eq!(texts.len(), n.div_ceil(22), "{n} documents");
            for t in texts.iter().rev().skip(1) {
                assert!(t.len() >= TEXT_BYTES && t.ends_with('\n'));
            }
        }
    }

    #[test]
    fn a_large_output_is_the_bytes_of_one_writer() {
        for values in [
            (0..3_000).map(|i| doc(i, 30)).collect::<Vec<_>>(),
            // scalar and empty documents at the cuts
            (0..3_000)
                .map(|i| match i % 3 {
                    0 => Node::Map(Map::default()),
                    1 => Node::Str(format!("x{i}").into()),
                    _ => doc(i, 90),
                })
                .collect(),
        ] {
            let ds = docset(values);
            let mut out = String::new();
            yaml_docset(&ds, &mut out);
            assert_eq!(out, one_writer_yaml(&ds));
            let mut json = String::new();
            json_docset(&ds, &mut json).unwrap();
            let mut one = String::new();
            for d in &ds.docs {
                json_docset(&docset(vec![d.value.clone()]), &mut one).unwrap();
            }
            assert_eq!(json, one);
        }
    }

    #[test]
    fn the_first_error_in_document_order_is_reported() {
        let many = || (0..3_000).map(|i| doc(i, 30)).collect::<Vec<_>>();
        // in the last run only
        let mut values = many();
        values[2_990] = Node::Float(f64::NAN);
        let err = json_docset(&docset(values), &mut String::new()).unwrap_err();
        assert!(err.to_string().contains("nan"), "{err}");
        // in the first run and the last: the first one
        let mut values = many();
        values[5] = Node::Float(f64::INFINITY);
        values[2_990] = Node::Float(f64::NAN);
        let err = json_docset(&docset(values), &mut String::new()).unwrap_err();
        assert!(err.to_string().contains("inf"), "{err}");
    }
}
