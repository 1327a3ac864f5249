//! Validations: the rules of `@schema/validation` (copied onto data values by the schema)
//! and `@assert/validate` annotations, run leaves-first over the final data values of a
//! library or over its output documents, and the violation report.
//!
//! ```text
//! Validating final data values:
//!   limits.max
//!     from: schema.yml:11
//!     - must be: a value <= 100 (by: schema.yml:10)
//!       found: value > 100
//! ```

pub mod cel;
mod cel_cost;
mod cel_k8s;
pub mod formats;
pub mod go_url;
pub mod named;
pub mod re2;
mod report;
pub mod rules;

use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::Arc;

use anyhow::{anyhow, bail};
use starlark::collections::{SmallMap, StarlarkHasher};
use starlark::eval::Evaluator;
use starlark::values::{Heap, Value};

use crate::diagnostic::{Diagnostic, Kind};
use crate::eval::convert::from_node_in_fragment;
use crate::eval::fragment::{FragmentNode, YamlFragment};
use crate::eval::runtime::{names_of, runtime_of, Runtime};
use crate::eval::ystruct::YttStruct;
use crate::template::annotations::{ASSERT_VALIDATE, SCHEMA_VALIDATION};
use crate::yaml::{Annotation, Doc, DocSet, Meta, Node, Pos};
pub use report::{Entry, Report, Subject};
pub use rules::Validation;

/// Deepest node nesting validated (a clear error beyond, never a stack overflow).
const MAX_DEPTH: usize = 2_000;

pub use crate::eval::exec::with_evaluator;

/// Validates a library's final data values: `values` is the document's value, `doc`
/// the data-values document's metadata (its validations apply to the whole document,
/// reported as `(document)`).
pub fn validate_values(
    values: &Node,
    doc: Option<&Meta>,
    eval: &mut Evaluator,
) -> anyhow::Result<Report> {
    let mut report = Report::new(Subject::DataValues);
    let names = &[SCHEMA_VALIDATION, ASSERT_VALIDATE];
    let (mut paths, mut items) = (Paths::default(), Vec::new());
    collect(values, names, &mut paths, &mut items, 0).map_err(|e| report.wrap(e))?;
    if let Some(meta) = doc {
        if has_any(meta, names) {
            items.push(Item {
                node: values,
                meta,
                at: None,
                parent: None,
            });
        }
    }
    run(eval, &items, &paths, names, Root::Node(values), &mut report)?;
    Ok(report)
}

/// Validates the output documents of a library (after overlays): the `@assert/validate`
/// annotations on their nodes; `ctx.root` of `when=` is the document set.
pub fn validate_documents(docs: &[&DocSet], eval: &mut Evaluator) -> anyhow::Result<Report> {
    let mut report = Report::new(Subject::OutputDocuments);
    let names = &[ASSERT_VALIDATE];
    let (mut paths, mut items) = (Paths::default(), Vec::new());
    let mut starts = Vec::new();
    for d in docs.iter().flat_map(|ds| &ds.docs) {
        starts.push(items.len());
        collect_doc(d, names, &mut paths, &mut items).map_err(|e| report.wrap(e))?;
    }
    if items.is_empty() {
        return Ok(report);
    }
    run(
        eval,
        &items,
        &paths,
        names,
        Root::Docs(docs, &starts),
        &mut report,
    )?;
    Ok(report)
}

/// The malformed `@schema/validation` annotations of a schema document: the reference
/// reads a schema's rules as it takes the document, so a malformed one fails the schema
/// whatever the data values (and whether or not they are validated). Every one is
/// reported, as when validating (see [`Malformed`]); the text has no heading, the
/// position is the first's.
pub fn check_schema_rules(value: &Node, meta: &Meta, rt: &Runtime) -> Result<(), (String, Pos)> {
    fn add<'n>(meta: &'n Meta, out: &mut Vec<&'n Arc<Annotation>>) {
        out.extend(
            meta.annotations
                .iter()
                .filter(|a| a.name == SCHEMA_VALIDATION),
        )
    }
    fn walk<'n>(n: &'n Node, out: &mut Vec<&'n Arc<Annotation>>) {
        match n {
            Node::Map(m) => {
                for i in &m.items {
                    add(&i.meta, out);
                    walk(&i.value, out);
                }
            }
            Node::Array(a) => {
                for i in &a.items {
                    add(&i.meta, out);
                    walk(&i.value, out);
                }
            }
            _ => {}
        }
    }
    let mut found = Vec::new();
    add(meta, &mut found);
    walk(value, &mut found);
    if found.is_empty() {
        return Ok(());
    }
    with_evaluator(rt, |eval| {
        let mut malformed = Malformed::default();
        let mut first = None;
        for a in found {
            let (args, kwargs) = rt
                .resolve_args(eval, a)
                .map_err(|e| (e.to_string(), a.pos.clone()))?;
            let heap = eval.heap();
            if let Err(e) = rules::parse(heap, rt.names(), rules::Written::of(a), &args, &kwargs) {
                first.get_or_insert_with(|| a.pos.clone());
                malformed.push(&a.name, e);
            }
        }
        match (malformed.text(), first) {
            (Some(text), Some(at)) => Err((text, at)),
            _ => Ok(()),
        }
    })
}

/// Validates a yaml fragment's `@assert/validate` annotations (`assert.valid`).
pub fn validate_fragment(
    node: &FragmentNode,
    eval: &mut Evaluator,
    subject: Subject,
) -> anyhow::Result<Report> {
    let mut report = Report::new(subject);
    let names = &[ASSERT_VALIDATE];
    let (mut paths, mut items) = (Paths::default(), Vec::new());
    let wrapped;
    let mut starts = Vec::new();
    let root = match node {
        FragmentNode::Empty => return Ok(report),
        FragmentNode::DocSet(ds) => {
            for d in &ds.docs {
                starts.push(items.len());
                collect_doc(d, names, &mut paths, &mut items).map_err(|e| report.wrap(e))?;
            }
            wrapped = [ds];
            Root::Docs(&wrapped, &starts)
        }
        FragmentNode::Map(m) => {
            let n = Node::Map(m.clone());
            let mut r = Report::new(report.subject.clone());
            validate_owned(&n, eval, &mut r)?;
            return Ok(r);
        }
        FragmentNode::Array(a) => {
            let n = Node::Array(a.clone());
            let mut r = Report::new(report.subject.clone());
            validate_owned(&n, eval, &mut r)?;
            return Ok(r);
        }
    };
    run(eval, &items, &paths, names, root, &mut report)?;
    Ok(report)
}

fn validate_owned(n: &Node, eval: &mut Evaluator, report: &mut Report) -> anyhow::Result<()> {
    let names = &[ASSERT_VALIDATE];
    let (mut paths, mut items) = (Paths::default(), Vec::new());
    collect(n, names, &mut paths, &mut items, 0).map_err(|e| report.wrap(e))?;
    run(eval, &items, &paths, names, Root::Node(n), report)
}

/// Runs the validations of one annotation-like list of rules on a single value
/// (`assert.validate`).
pub fn validate_value<'v>(
    eval: &mut Evaluator<'v, '_, '_>,
    key: &str,
    node: &Node,
    pos: &Pos,
    args: &[Value<'v>],
    kwargs: &[(String, Value<'v>)],
) -> anyhow::Result<Report> {
    let mut report = Report::new(Subject::Value(key.to_owned()));
    let v = rules::parse(
        eval.heap(),
        &names_of(eval),
        rules::Written::at(pos),
        args,
        kwargs,
    )
    .map_err(|e| anyhow!("Invalid validation - {e}"))?;
    let subject = rules::Subject {
        node,
        key: Cow::Borrowed(key),
        budget: None,
    };
    let mut make_ctx = |heap: Heap<'v>| -> Value<'v> {
        let mut fields = SmallMap::new();
        fields.insert("parent".to_owned(), Value::new_none());
        fields.insert("root".to_owned(), from_node_in_fragment(heap, node));
        heap.alloc(YttStruct::new(fields))
    };
    let found = v
        .run(eval, &subject, &mut make_ctx)
        .map_err(|e| anyhow!("Validating {key}: {e}"))?;
    if !found.is_empty() {
        report.push(
            Entry {
                path: key.to_owned(),
                from: None,
                document: None,
                violations: found,
            },
            v.warn,
        );
    }
    Ok(report)
}

/// Validates output documents and reports: warnings go to the run's messages;
/// violations are the error. Documents are walked only when the run made an
/// `@assert/validate` annotation (most make none, and large outputs cost a walk).
pub fn check_documents(rt: &Runtime, docs: &[&DocSet]) -> anyhow::Result<()> {
    if !rt.makes_asserts() {
        return Ok(());
    }
    with_evaluator(rt, |eval| validate_documents(docs, eval))?.finish(rt.names(), || rt.messages())
}

/// A node that carries validation annotations.
struct Item<'n> {
    node: &'n Node,
    meta: &'n Meta,
    /// Where the node sits ([`Paths`]); `None` for a whole document.
    at: Option<usize>,
    parent: Option<&'n Node>,
}

/// One step down the tree: a map key or an array index.
#[derive(Clone, Copy)]
enum Step<'n> {
    Key(&'n Node),
    Index(usize),
}

/// The paths of the collected items, as steps linked to their parent step. A step is
/// stored only when an annotated node lies on it (output documents are large and mostly
/// unannotated), and text is built only for a violation or an error.
#[derive(Default)]
struct Paths<'n> {
    steps: Vec<(Option<usize>, Step<'n>)>,
    /// The steps down to the node being visited, with their index in `steps` once stored.
    current: Vec<(Step<'n>, Option<usize>)>,
}

impl<'n> Paths<'n> {
    /// Where the node being visited sits, storing the steps leading to it.
    fn here(&mut self) -> Option<usize> {
        let mut parent = None;
        for (step, stored) in &mut self.current {
            let i = *stored.get_or_insert_with(|| {
                self.steps.push((parent, *step));
                self.steps.len() - 1
            });
            parent = Some(i);
        }
        parent
    }
}

impl Paths<'_> {
    /// `a.b[0].c`, or `(document)`.
    fn path(&self, at: Option<usize>) -> String {
        let Some(at) = at else {
            return DOCUMENT.into();
        };
        let mut chain = Vec::new();
        let mut cur = Some(at);
        while let Some(i) = cur {
            chain.push(self.steps[i].1);
            cur = self.steps[i].0;
        }
        let mut out = String::new();
        for (n, step) in chain.iter().rev().enumerate() {
            match step {
                Step::Key(k) => {
                    if n > 0 {
                        out.push('.');
                    }
                    out.push_str(&key_text(k));
                }
                Step::Index(i) => {
                    use std::fmt::Write;
                    let _ = write!(out, "[{i}]");
                }
            }
        }
        out
    }

    /// `{key}` of custom messages: the map key, the array index, `(document)`.
    fn key(&self, at: Option<usize>) -> Cow<'_, str> {
        match at.map(|i| self.steps[i].1) {
            None => Cow::Borrowed(DOCUMENT),
            Some(Step::Key(k)) => key_text(k),
            Some(Step::Index(i)) => Cow::Owned(i.to_string()),
        }
    }
}

const DOCUMENT: &str = "(document)";

enum Root<'n> {
    Node(&'n Node),
    /// The document sets, and for each document the index of its first item.
    Docs(&'n [&'n DocSet], &'n [usize]),
}

fn has_any(meta: &Meta, names: &[&str]) -> bool {
    meta.annotations
        .iter()
        .any(|a| names.contains(&a.name.as_str()))
}

/// A map key as paths show it: strings as they are, other keys as YAML.
pub fn key_text(k: &Node) -> Cow<'_, str> {
    match k {
        Node::Str(s) => Cow::Borrowed(s),
        other => Cow::Owned(crate::yaml::emit::yaml_node(other).trim_end().to_owned()),
    }
}

/// Annotated items of a document, leaves first (the document's own after its nodes).
fn collect_doc<'n>(
    d: &'n Doc,
    names: &[&str],
    paths: &mut Paths<'n>,
    out: &mut Vec<Item<'n>>,
) -> anyhow::Result<()> {
    collect(&d.value, names, paths, out, 0)?;
    if has_any(&d.meta, names) {
        out.push(Item {
            node: &d.value,
            meta: &d.meta,
            at: None,
            parent: None,
        });
    }
    Ok(())
}

/// Annotated items under `node` (the last of `paths.current`), leaves first: an item after
/// all of its descendants.
fn collect<'n>(
    node: &'n Node,
    names: &[&str],
    paths: &mut Paths<'n>,
    out: &mut Vec<Item<'n>>,
    depth: usize,
) -> anyhow::Result<()> {
    if depth > MAX_DEPTH {
        let at = paths.here();
        bail!(
            "{}: value is nested too deeply (more than {MAX_DEPTH} levels) to validate",
            paths.path(at)
        );
    }
    let mut visit = |step: Step<'n>, value: &'n Node, meta: &'n Meta| {
        paths.current.push((step, None));
        collect(value, names, paths, out, depth + 1)?;
        if has_any(meta, names) {
            out.push(Item {
                node: value,
                meta,
                at: paths.here(),
                parent: Some(node),
            });
        }
        paths.current.pop();
        anyhow::Ok(())
    };
    match node {
        Node::Map(m) => {
            for i in &m.items {
                visit(Step::Key(&i.key), &i.value, &i.meta)?;
            }
        }
        Node::Array(a) => {
            for (idx, i) in a.items.iter().enumerate() {
                visit(Step::Index(idx), &i.value, &i.meta)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// The annotations of `meta` to run, schema rules before `@assert/validate` ones.
fn annotations<'m>(meta: &'m Meta, names: &[&str]) -> Vec<&'m Arc<Annotation>> {
    let mut out = Vec::new();
    for name in names {
        out.extend(meta.annotations.iter().filter(|a| a.name == *name));
    }
    out
}

fn run<'v>(
    eval: &mut Evaluator<'v, '_, '_>,
    items: &[Item],
    paths: &Paths,
    names: &[&str],
    root: Root,
    report: &mut Report,
) -> anyhow::Result<()> {
    // every annotation is checked before any rule runs, and every malformed one is
    // reported; an annotation a schema shared among many values is parsed once
    let mut validations: Vec<Validation<'v>> = Vec::new();
    let mut seen: HashMap<*const Annotation, usize, BuildHasherDefault<StarlarkHasher>> =
        HashMap::default();
    let mut parsed: Vec<(usize, usize)> = Vec::new();
    let mut malformed = Malformed::default();
    for (idx, item) in items.iter().enumerate() {
        for a in annotations(item.meta, names) {
            let vi = match seen.get(&Arc::as_ptr(a)) {
                Some(&vi) => vi,
                None => {
                    let (args, kwargs) = runtime_of(eval)
                        .and_then(|rt| rt.resolve_args(eval, a))
                        .map_err(|e| report.wrap(e))?;
                    match rules::parse(
                        eval.heap(),
                        &names_of(eval),
                        rules::Written::of(a),
                        &args,
                        &kwargs,
                    ) {
                        Ok(v) => validations.push(v),
                        Err(e) => {
                            malformed.push(&a.name, e);
                            continue;
                        }
                    }
                    seen.insert(Arc::as_ptr(a), validations.len() - 1);
                    validations.len() - 1
                }
            };
            parsed.push((idx, vi));
        }
    }
    if let Some(e) = malformed.error() {
        return Err(report.wrap(e));
    }
    let mut root_value: Option<Value<'v>> = None;
    let mut repeats: Option<Repeats> = None;
    // the CEL rules of one object (the values, a document) share a cost budget
    let budget = cel::CostBudget::new();
    let mut document = 0;
    for (idx, vi) in &parsed {
        let v = &validations[*vi];
        let item = &items[*idx];
        if let Root::Docs(_, starts) = &root {
            let doc = starts.partition_point(|&s| s <= *idx);
            if doc != document {
                document = doc;
                budget.renew();
            }
        }
        let subject = rules::Subject {
            node: item.node,
            key: paths.key(item.at),
            budget: Some(&budget),
        };
        let parent = item.parent;
        let mut make_ctx = |heap: Heap<'v>| -> Value<'v> {
            let root_v = *root_value.get_or_insert_with(|| match &root {
                Root::Node(n) => from_node_in_fragment(heap, n),
                Root::Docs(sets, _) => {
                    let mut all = DocSet::default();
                    for ds in sets.iter() {
                        all.docs.extend(ds.docs.iter().cloned());
                    }
                    heap.alloc(YamlFragment::new(FragmentNode::DocSet(all)))
                }
            });
            let parent_v = match parent {
                Some(p) => from_node_in_fragment(heap, p),
                None => Value::new_none(),
            };
            let mut fields = SmallMap::new();
            fields.insert("parent".to_owned(), parent_v);
            fields.insert("root".to_owned(), root_v);
            heap.alloc(YttStruct::new(fields))
        };
        let found = v
            .run(eval, &subject, &mut make_ctx)
            .map_err(|e| report.wrap(anyhow!("Validating {}: {e}", paths.path(item.at))))?;
        if !found.is_empty() {
            let document = match &root {
                Root::Docs(sets, starts) => {
                    // the document holding item `idx`: the last to start at or before it
                    let doc = starts.partition_point(|&s| s <= *idx).saturating_sub(1);
                    repeats
                        .get_or_insert_with(|| Repeats::new(sets))
                        .note(&item.meta.pos, doc)
                }
                Root::Node(_) => None,
            };
            report.push(
                Entry {
                    path: paths.path(item.at),
                    from: Some(item.meta.pos.clone()),
                    document,
                    violations: found,
                },
                v.warn,
            );
        }
    }
    Ok(())
}

/// Which output documents hold nodes made by each template line: a line that made nodes
/// of several documents (a document in a `for` loop, a fragment function called from
/// several documents) does not tell by itself which document a report is about. Built
/// on the first violation only.
struct Repeats<'n> {
    docs: Vec<&'n Doc>,
    /// Position → indexes of the documents holding a node from it, in output order.
    lines: HashMap<Pos, Vec<usize>>,
}

impl<'n> Repeats<'n> {
    fn new(sets: &[&'n DocSet]) -> Self {
        fn note(lines: &mut HashMap<Pos, Vec<usize>>, pos: &Pos, g: usize) {
            let docs = lines.entry(pos.clone()).or_default();
            if docs.last() != Some(&g) {
                docs.push(g);
            }
        }
        fn walk(n: &Node, g: usize, lines: &mut HashMap<Pos, Vec<usize>>) {
            match n {
                Node::Map(m) => {
                    for i in &m.items {
                        note(lines, &i.meta.pos, g);
                        walk(&i.value, g, lines);
                    }
                }
                Node::Array(a) => {
                    for i in &a.items {
                        note(lines, &i.meta.pos, g);
                        walk(&i.value, g, lines);
                    }
                }
                _ => {}
            }
        }
        let docs: Vec<&Doc> = sets.iter().flat_map(|ds| &ds.docs).collect();
        let mut lines: HashMap<Pos, Vec<usize>> = HashMap::new();
        for (g, d) in docs.iter().enumerate() {
            note(&mut lines, &d.meta.pos, g);
            walk(&d.value, g, &mut lines);
        }
        Repeats { docs, lines }
    }

    /// `document 2 of 3: Deployment web-2` when the line at `pos` made nodes of more
    /// than one document (`kind` and `metadata.name` when the document has them).
    fn note(&self, pos: &Pos, doc: usize) -> Option<String> {
        let docs = self.lines.get(pos).filter(|d| d.len() > 1)?;
        let n = docs.iter().position(|&g| g == doc)? + 1;
        let mut note = format!("document {n} of {}", docs.len());
        let names: Vec<&str> = self
            .docs
            .get(doc)
            .map(|d| document_names(&d.value))
            .unwrap_or_default();
        if !names.is_empty() {
            note.push_str(": ");
            note.push_str(&names.join(" "));
        }
        Some(note)
    }
}

/// A document's `kind` and `metadata.name`, those it has (strings only).
fn document_names(v: &Node) -> Vec<&str> {
    let Node::Map(m) = v else {
        return Vec::new();
    };
    let kind = m.get_str("kind");
    let name = match m.get_str("metadata") {
        Some(Node::Map(meta)) => meta.get_str("name"),
        _ => None,
    };
    [kind, name]
        .into_iter()
        .filter_map(|n| match n {
            Some(Node::Str(s)) => Some(s.as_str()),
            _ => None,
        })
        .collect()
}

/// The malformed annotations of one validation run, in the order met.
#[derive(Default)]
struct Malformed {
    /// `@name` and the error, without repeats (a template line in a loop makes one
    /// annotation per node).
    errors: Vec<(String, rules::ParseError)>,
}

impl Malformed {
    fn push(&mut self, name: &str, e: rules::ParseError) {
        if !self.errors.iter().any(|(n, x)| n == name && *x == e) {
            self.errors.push((name.to_owned(), e));
        }
    }

    /// One malformed annotation: its message, as it has always read. Several: one line
    /// each, every one naming where it was written.
    fn text(&self) -> Option<String> {
        Some(match self.errors.as_slice() {
            [] => return None,
            [(name, e)] => format!("Invalid @{name} annotation - {e}"),
            all => {
                let lines: Vec<String> = all
                    .iter()
                    .map(|(name, e)| format!("Invalid @{name} annotation - {}", e.positioned()))
                    .collect();
                lines.join("\n")
            }
        })
    }

    fn error(&self) -> Option<anyhow::Error> {
        let text = self.text()?;
        Some(Diagnostic::new(Kind::Validation, text).into())
    }
}

/// The template position of the native function call being evaluated (`by:` of
/// `assert.validate`).
pub fn call_site(eval: &Evaluator) -> Pos {
    let Some(span) = eval.call_stack_top_location() else {
        return Pos::unknown();
    };
    let Ok(id) = span.filename().parse::<u32>() else {
        return Pos::unknown();
    };
    let Some(t) = runtime_of(eval).ok().and_then(|rt| rt.template(id)) else {
        return Pos::unknown();
    };
    match t.report_line(span.resolve_span().begin.line) {
        Some((line, _)) => Pos::new(t.file, line),
        None => Pos::unknown(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::parser::{parse, ParseOptions};

    #[test]
    fn repeated_lines_name_their_documents() {
        let file = crate::yaml::FileNames::default().id("repeats-test.yml");
        let mut sets = Vec::new();
        for (i, src) in [
            "kind: Deployment\nmetadata: {name: web}\n",
            "kind: Service\n",
            "other: 1\n",
        ]
        .into_iter()
        .enumerate()
        {
            let mut ds = parse(src, file, &ParseOptions::default()).unwrap();
            ds.docs[0].meta.pos = Pos::new(file, 10 + i as u32);
            sets.push(ds);
        }
        let refs: Vec<&DocSet> = sets.iter().collect();
        let r = Repeats::new(&refs);
        // line 1 holds a node of every document; line 2 only of the first
        let line1 = Pos::new(file, 1);
        assert_eq!(
            r.note(&line1, 0).as_deref(),
            Some("document 1 of 3: Deployment web")
        );
        assert_eq!(
            r.note(&line1, 1).as_deref(),
            Some("document 2 of 3: Service")
        );
        assert_eq!(r.note(&line1, 2).as_deref(), Some("document 3 of 3"));
        assert_eq!(r.note(&Pos::new(file, 2), 0), None);
        assert_eq!(
            r.note(&Pos::new(file, 10), 0),
            None,
            "one document per line"
        );
    }

    #[test]
    fn one_malformed_annotation_reads_as_before_several_name_positions() {
        let e = |m: &str, line: Option<u32>| rules::ParseError {
            message: m.into(),
            unnamed_at: line.map(|l| format!("malformed-test.yml:{l}")),
        };
        let mut one = Malformed::default();
        one.push(
            "assert/validate",
            e("one_not_null= cannot be False", Some(3)),
        );
        one.push(
            "assert/validate",
            e("one_not_null= cannot be False", Some(3)),
        );
        assert_eq!(
            one.error().unwrap().to_string(),
            "Invalid @assert/validate annotation - one_not_null= cannot be False"
        );
        one.push(
            "schema/validation",
            e("unknown keyword argument \"x\" (at f:1)", None),
        );
        assert_eq!(
            one.error().unwrap().to_string(),
            "Invalid @assert/validate annotation - one_not_null= cannot be False (at malformed-test.yml:3)\nInvalid @schema/validation annotation - unknown keyword argument \"x\" (at f:1)"
        );
        assert!(Malformed::default().error().is_none());
    }
}
