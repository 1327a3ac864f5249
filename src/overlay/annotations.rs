//! Editing annotations with overlays: `@overlay/replace-ann`, `@overlay/merge-anns` and
//! `@overlay/remove-anns` on an overlay node change the annotations of each node it
//! matched (a package's `@schema/validation` rules, the `@assert/validate` rules of data
//! values or of output documents), whatever the operation does to the value.
//!
//! Rules:
//! - The annotations an edit carries over are the overlay node's own, except overlay
//!   annotations and those saying what a document is (`@data/values`,
//!   `@data/values-schema`, `@library/ref`).
//! - `replace-ann`: each such annotation replaces the matched node's annotation(s) of the
//!   same name, in place, or is added after them when the node has none; other
//!   annotations of the matched node stay.
//! - `merge-anns`: each such annotation merges into the matched node's first annotation
//!   of the same name — positional arguments are appended, keyword arguments it lacks
//!   are added, those it has are replaced — or is added when there is none.
//! - `remove-anns "a", "b"`: the named annotations leave the matched node. At least one
//!   name; each must be an annotation ytt keeps on nodes ([`REMOVABLE`]), so that a typo
//!   is an error, not a rule silently kept. Removal comes before a replace or merge on
//!   the same node; `replace-ann` and `merge-anns` exclude each other.
//! - Every argument keeps the position it was written at ([`Annotation::arg_pos`]): a
//!   rule reports `by:` the overlay line when the overlay wrote it, the base line when
//!   it was kept.

use std::sync::Arc;

use super::errors::{OverlayError, Result};
use super::Host;
use crate::template::annotations::{
    ASSERT_VALIDATE, DATA_VALUES, DATA_VALUES_SCHEMA, LIBRARY_REF, OVERLAY_MERGE_ANNS,
    OVERLAY_REMOVE_ANNS, OVERLAY_REPLACE_ANN, SCHEMA_DEFAULT, SCHEMA_DEPRECATED, SCHEMA_DESC,
    SCHEMA_EXAMPLES, SCHEMA_NULLABLE, SCHEMA_TITLE, SCHEMA_TYPE, SCHEMA_VALIDATION,
    SCHEMA_VALIDATION_DEFAULTS_FOR_STRINGS,
};
use crate::yaml::{Annotation, Meta, Node, Pos, ThinVec};

/// Annotations that say what a document is, not something about its value: never edited.
const DOCUMENT_ROLES: &[&str] = &[DATA_VALUES, DATA_VALUES_SCHEMA, LIBRARY_REF];

/// The annotations ytt keeps on nodes after evaluation, which `@overlay/remove-anns`
/// may name.
pub const REMOVABLE: &[&str] = &[
    ASSERT_VALIDATE,
    SCHEMA_DEFAULT,
    SCHEMA_DEPRECATED,
    SCHEMA_DESC,
    SCHEMA_EXAMPLES,
    SCHEMA_NULLABLE,
    SCHEMA_TITLE,
    SCHEMA_TYPE,
    SCHEMA_VALIDATION,
    SCHEMA_VALIDATION_DEFAULTS_FOR_STRINGS,
];

/// Annotations an overlay may not edit where it is applied, and why: a data-values
/// overlay may not edit the `schema/…` annotations a schema gives data values (the
/// schema gives them again after each overlay, so the edit would be silently undone).
#[derive(Debug, Clone, Copy)]
pub struct Protected {
    /// Annotation names starting with this are protected.
    pub prefix: &'static str,
    pub reason: &'static str,
}

/// How the overlay node's annotations combine with the matched node's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Combine {
    Replace,
    Merge,
}

/// What an overlay node does to the annotations of the nodes it matches.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Edits {
    /// Names `@overlay/remove-anns` removes.
    pub remove: Vec<String>,
    pub combine: Option<Combine>,
}

fn err<T>(msg: impl Into<String>) -> Result<T> {
    Err(OverlayError::new(msg))
}

/// Whether an annotation of an overlay node is carried over by `replace-ann` and
/// `merge-anns`.
pub fn is_carried(a: &Annotation) -> bool {
    !super::is_overlay_annotation(a) && !DOCUMENT_ROLES.contains(&a.name.as_str())
}

/// Whether the overlay node asks for an annotation edit.
pub fn has_edits(meta: &Meta) -> bool {
    meta.annotations.iter().any(|a| {
        matches!(
            a.name.as_str(),
            OVERLAY_REPLACE_ANN | OVERLAY_MERGE_ANNS | OVERLAY_REMOVE_ANNS
        )
    })
}

impl Edits {
    /// The edits the annotations of an overlay node ask for (`None`: none).
    pub fn read<H: Host + ?Sized>(meta: &Meta, host: &mut H) -> Result<Option<Edits>> {
        let mut edits = Edits::default();
        let mut any = false;
        for a in &meta.annotations {
            let combine = match a.name.as_str() {
                OVERLAY_REPLACE_ANN => Combine::Replace,
                OVERLAY_MERGE_ANNS => Combine::Merge,
                OVERLAY_REMOVE_ANNS => {
                    any = true;
                    edits.remove.extend(Self::names(a, host)?);
                    continue;
                }
                _ => continue,
            };
            any = true;
            if let Some((k, _)) = a.kwargs.first() {
                return err(format!(
                    "Unknown '{}' annotation keyword argument '{k}'",
                    a.name
                ));
            }
            if !a.args.is_empty() {
                return err(format!(
                    "Expected '{}' annotation to have no arguments (it carries the other annotations of its node)",
                    a.name
                ));
            }
            if edits.combine.is_some_and(|c| c != combine) {
                return err(format!(
                    "Expected only one of '{OVERLAY_REPLACE_ANN}' and '{OVERLAY_MERGE_ANNS}' on a node"
                ));
            }
            edits.combine = Some(combine);
        }
        Ok(any.then_some(edits))
    }

    /// The annotation names of a `@overlay/remove-anns`.
    fn names<H: Host + ?Sized>(a: &Annotation, host: &mut H) -> Result<Vec<String>> {
        if let Some((k, _)) = a.kwargs.first() {
            return err(format!(
                "Unknown '{OVERLAY_REMOVE_ANNS}' annotation keyword argument '{k}'"
            ));
        }
        if a.args.is_empty() {
            return err(format!(
                "Expected '{OVERLAY_REMOVE_ANNS}' annotation to name at least one annotation (e.g. \"{SCHEMA_VALIDATION}\")"
            ));
        }
        let mut names = Vec::with_capacity(a.args.len());
        for r in &a.args {
            let name = match host.value(*r) {
                Ok(Node::Str(s)) => s,
                _ => {
                    let t = host.type_name(*r)?;
                    return err(format!(
                        "Expected '{OVERLAY_REMOVE_ANNS}' annotation arguments to be annotation names (strings), but was {t}"
                    ));
                }
            };
            // written with or without the `@` of the comment
            let name = name.strip_prefix('@').unwrap_or(&name).to_owned();
            if !REMOVABLE.contains(&name.as_str()) {
                return err(format!(
                    "Unknown annotation '{name}' in '{OVERLAY_REMOVE_ANNS}' (known: {})",
                    REMOVABLE.join(", ")
                ));
            }
            names.push(name);
        }
        Ok(names)
    }

    /// Refuses edits of the annotations `protected` names: those an edit removes, and
    /// those it carries over from the overlay node (`meta`).
    pub fn check(&self, meta: &Meta, protected: Option<Protected>) -> Result<()> {
        let Some(p) = protected else {
            return Ok(());
        };
        let carried = meta
            .annotations
            .iter()
            .filter(|a| self.combine.is_some() && is_carried(a))
            .map(|a| a.name.as_str());
        let removed = self.remove.iter().map(String::as_str);
        match removed.chain(carried).find(|n| n.starts_with(p.prefix)) {
            Some(name) => err(format!("Annotation edit of @{name}: {}", p.reason)),
            None => Ok(()),
        }
    }

    /// The annotations `left` (those of a matched node) has after the edits of the
    /// overlay node whose metadata is `right`.
    pub fn apply(&self, left: &ThinVec<Arc<Annotation>>, right: &Meta) -> ThinVec<Arc<Annotation>> {
        let mut out: ThinVec<Arc<Annotation>> = left
            .iter()
            .filter(|a| !self.remove.contains(&a.name))
            .cloned()
            .collect();
        let Some(combine) = self.combine else {
            return out;
        };
        let carried = right.annotations.iter().filter(|a| is_carried(a));
        match combine {
            Combine::Replace => {
                let mut done: Vec<&str> = Vec::new();
                for r in carried {
                    if done.contains(&r.name.as_str()) {
                        continue;
                    }
                    done.push(&r.name);
                    let new: Vec<Arc<Annotation>> = right
                        .annotations
                        .iter()
                        .filter(|a| a.name == r.name)
                        .cloned()
                        .collect();
                    let at = out.iter().position(|a| a.name == r.name);
                    out.retain(|a| a.name != r.name);
                    let at = at.unwrap_or(out.len());
                    for (i, a) in new.into_iter().enumerate() {
                        out.insert(at + i, a);
                    }
                }
            }
            Combine::Merge => {
                for r in carried {
                    match out.iter_mut().find(|a| a.name == r.name) {
                        Some(l) => *l = Arc::new(merge(l, r)),
                        None => out.push(r.clone()),
                    }
                }
            }
        }
        out
    }
}

/// `base` with the arguments of `over` merged in: positional arguments appended, new
/// keyword arguments added, existing ones replaced; each keeps where it was written.
pub fn merge(base: &Annotation, over: &Annotation) -> Annotation {
    let mut args = base.args.clone();
    let mut arg_pos: Vec<Pos> = (0..base.args.len())
        .map(|i| base.arg_pos(i).clone())
        .collect();
    args.extend(over.args.iter().copied());
    arg_pos.extend((0..over.args.len()).map(|i| over.arg_pos(i).clone()));
    let mut kwargs = base.kwargs.clone();
    let mut kwarg_pos: Vec<Pos> = (0..base.kwargs.len())
        .map(|i| base.kwarg_pos(i).clone())
        .collect();
    for (i, (k, v)) in over.kwargs.iter().enumerate() {
        match kwargs.iter().position(|(bk, _)| bk == k) {
            Some(j) => {
                kwargs[j].1 = *v;
                kwarg_pos[j] = over.kwarg_pos(i).clone();
            }
            None => {
                kwargs.push((k.clone(), *v));
                kwarg_pos.push(over.kwarg_pos(i).clone());
            }
        }
    }
    arg_pos.extend(kwarg_pos);
    if arg_pos.iter().all(|p| *p == base.pos) {
        arg_pos.clear();
    }
    Annotation {
        name: base.name.clone(),
        pos: base.pos.clone(),
        args,
        kwargs,
        arg_pos,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::ValueRef;

    fn pos(line: u32) -> Pos {
        Pos::new(crate::yaml::FileNames::default().id("anns-test.yml"), line)
    }

    fn r(index: u32) -> ValueRef {
        ValueRef { serial: 0, index }
    }

    fn ann(name: &str, line: u32, args: &[u32], kwargs: &[(&str, u32)]) -> Arc<Annotation> {
        Arc::new(Annotation::new(
            name,
            pos(line),
            args.iter().map(|&i| r(i)).collect(),
            kwargs
                .iter()
                .map(|(k, i)| ((*k).to_owned(), r(*i)))
                .collect(),
        ))
    }

    fn meta(anns: Vec<Arc<Annotation>>) -> Meta {
        Meta {
            annotations: anns.into_iter().collect(),
            ..Meta::default()
        }
    }

    #[test]
    fn merge_appends_adds_and_replaces_keeping_positions() {
        let base = ann("schema/validation", 1, &[0], &[("not_null", 1)]);
        let over = ann("schema/validation", 9, &[2], &[("min", 3), ("not_null", 4)]);
        let m = merge(&base, &over);
        assert_eq!(m.args, vec![r(0), r(2)]);
        assert_eq!(
            m.kwargs,
            vec![("not_null".to_owned(), r(4)), ("min".to_owned(), r(3))]
        );
        assert_eq!(m.pos, pos(1));
        assert_eq!(m.arg_pos(0), &pos(1));
        assert_eq!(m.arg_pos(1), &pos(9));
        assert_eq!(m.kwarg_pos(0), &pos(9), "replaced: the overlay's");
        assert_eq!(m.kwarg_pos(1), &pos(9), "added: the overlay's");
        // merging a merged annotation keeps every position
        let again = merge(&m, &ann("schema/validation", 20, &[5], &[]));
        assert_eq!(again.arg_pos(0), &pos(1));
        assert_eq!(again.arg_pos(1), &pos(9));
        assert_eq!(again.arg_pos(2), &pos(20));
        assert_eq!(again.kwarg_pos(1), &pos(9));
    }

    #[test]
    fn merge_of_nothing_new_needs_no_positions() {
        let base = ann("schema/validation", 1, &[0], &[]);
        let m = merge(&base, &ann("schema/validation", 1, &[], &[]));
        assert!(m.arg_pos.is_empty());
    }

    #[test]
    fn replace_in_place_add_when_missing_others_stay() {
        let left: ThinVec<_> = [
            ann("schema/desc", 1, &[0], &[]),
            ann("schema/validation", 2, &[], &[("min", 1)]),
            ann("schema/nullable", 3, &[], &[]),
        ]
        .into_iter()
        .collect();
        let right = meta(vec![
            ann("overlay/replace-ann", 8, &[], &[]),
            ann("schema/validation", 9, &[], &[("min", 5)]),
            ann("schema/title", 10, &[6], &[]),
        ]);
        let edits = Edits {
            remove: vec![],
            combine: Some(Combine::Replace),
        };
        let out = edits.apply(&left, &right);
        let names: Vec<&str> = out.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "schema/desc",
                "schema/validation",
                "schema/nullable",
                "schema/title"
            ]
        );
        assert_eq!(out[1].pos, pos(9));
    }

    #[test]
    fn remove_then_merge_and_document_roles_stay() {
        let left: ThinVec<_> = [
            ann("data/values", 1, &[], &[]),
            ann("assert/validate", 2, &[], &[("min", 1)]),
            ann("schema/desc", 3, &[0], &[]),
        ]
        .into_iter()
        .collect();
        let right = meta(vec![
            ann("data/values", 7, &[], &[]),
            ann("assert/validate", 9, &[], &[("max", 5)]),
        ]);
        let edits = Edits {
            remove: vec!["schema/desc".into()],
            combine: Some(Combine::Merge),
        };
        let out = edits.apply(&left, &right);
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].pos, pos(1), "the document's role is not edited");
        assert_eq!(out[1].kwargs.len(), 2);
    }
}
