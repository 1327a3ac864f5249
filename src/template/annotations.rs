//! Reading ytt's comments: `#!` comments, `#@ code`, `#@ expr` values and `#@name args`
//! annotations; and the names of the annotations ytt reads, spelled here only, for every
//! step that reads them (the compiler, overlays, the schema, validations, the workspace).

use crate::yaml::Comment;

/// How a YAML template's node is built.
pub const YAML_TEXT_TEMPLATED_STRINGS: &str = "yaml/text-templated-strings";
pub const YAML_MAP_KEY_OVERRIDE: &str = "yaml/map-key-override";

/// What a document is: data values, a schema, addressed to a private library.
pub const DATA_VALUES: &str = "data/values";
pub const DATA_VALUES_SCHEMA: &str = "data/values-schema";
pub const LIBRARY_REF: &str = "library/ref";

/// A schema node's type, default and documentation.
pub const SCHEMA_NULLABLE: &str = "schema/nullable";
pub const SCHEMA_TYPE: &str = "schema/type";
pub const SCHEMA_DEFAULT: &str = "schema/default";
pub const SCHEMA_DESC: &str = "schema/desc";
pub const SCHEMA_TITLE: &str = "schema/title";
pub const SCHEMA_EXAMPLES: &str = "schema/examples";
pub const SCHEMA_DEPRECATED: &str = "schema/deprecated";
/// Rules on schema nodes (and, copied by the schema, on data values).
pub const SCHEMA_VALIDATION: &str = "schema/validation";
pub const SCHEMA_VALIDATION_DEFAULTS_FOR_STRINGS: &str = "schema/validation-defaults-for-strings";

/// Rules on data values and output document nodes.
pub const ASSERT_VALIDATE: &str = "assert/validate";

/// Which nodes an overlay node matches, and what it does to them and their annotations.
pub const OVERLAY_MATCH: &str = "overlay/match";
pub const OVERLAY_MATCH_CHILD_DEFAULTS: &str = "overlay/match-child-defaults";
pub const OVERLAY_MERGE: &str = "overlay/merge";
pub const OVERLAY_REMOVE: &str = "overlay/remove";
pub const OVERLAY_REPLACE: &str = "overlay/replace";
pub const OVERLAY_INSERT: &str = "overlay/insert";
pub const OVERLAY_APPEND: &str = "overlay/append";
pub const OVERLAY_ASSERT: &str = "overlay/assert";
pub const OVERLAY_NOOP: &str = "overlay/noop";
pub const OVERLAY_REPLACE_ANN: &str = "overlay/replace-ann";
pub const OVERLAY_MERGE_ANNS: &str = "overlay/merge-anns";
pub const OVERLAY_REMOVE_ANNS: &str = "overlay/remove-anns";

/// The keyword arguments of `overlay/match` and `overlay/match-child-defaults` (any other
/// is an error: a misspelt one would silently change what matches).
pub const OVERLAY_MATCH_KEYWORDS: &[&str] = &["by", "expects", "missing_ok", "when"];
pub const OVERLAY_MATCH_CHILD_DEFAULTS_KEYWORDS: &[&str] = &["expects", "missing_ok", "when"];

/// Every annotation ytt reads, with the keyword arguments it takes (a rule annotation's
/// named rules come from `validations::named`, beside the keywords listed here); what an
/// editor offers after `#@`.
pub const KNOWN: &[(&str, &[&str])] = &[
    (YAML_TEXT_TEMPLATED_STRINGS, &[]),
    (YAML_MAP_KEY_OVERRIDE, &[]),
    (DATA_VALUES, &["after_library_module"]),
    (DATA_VALUES_SCHEMA, &[]),
    (LIBRARY_REF, &[]),
    (SCHEMA_NULLABLE, &[]),
    (SCHEMA_TYPE, &["any"]),
    (SCHEMA_DEFAULT, &[]),
    (SCHEMA_DESC, &[]),
    (SCHEMA_TITLE, &[]),
    (SCHEMA_EXAMPLES, &[]),
    (SCHEMA_DEPRECATED, &[]),
    (SCHEMA_VALIDATION, &["not_null", "when", "warn"]),
    (SCHEMA_VALIDATION_DEFAULTS_FOR_STRINGS, &[]),
    (ASSERT_VALIDATE, &["not_null", "when", "warn"]),
    (OVERLAY_MATCH, &["by", "expects", "missing_ok", "when"]),
    (
        OVERLAY_MATCH_CHILD_DEFAULTS,
        &["expects", "missing_ok", "when"],
    ),
    (OVERLAY_MERGE, &[]),
    (OVERLAY_REMOVE, &[]),
    (OVERLAY_REPLACE, &["via", "or_add"]),
    (OVERLAY_INSERT, &["before", "after", "via"]),
    (OVERLAY_APPEND, &[]),
    (OVERLAY_ASSERT, &["via"]),
    (OVERLAY_NOOP, &[]),
    (OVERLAY_REPLACE_ANN, &[]),
    (OVERLAY_MERGE_ANNS, &[]),
    (OVERLAY_REMOVE_ANNS, &[]),
    ("template/code", &[]),
    ("template/value", &[]),
    ("comment", &[]),
];

/// The annotations whose keyword arguments include the named rules.
pub const TAKES_NAMED_RULES: &[&str] = &[SCHEMA_VALIDATION, ASSERT_VALIDATE];

/// What one comment means.
#[derive(Clone, Debug, PartialEq)]
pub enum CommentKind {
    /// `#! ...` or `#@comment ...`: dropped.
    Ignored,
    /// `#@ code` (own line) or `#@template/code code`.
    Code(String),
    /// `node: #@ expr` (trailing) or `#@template/value expr`.
    Value(String),
    /// `#@name args`.
    Annotation { name: String, args: String },
    /// `# text`: not allowed in templates unless unknown comments are ignored.
    Plain,
}

/// Classifies a comment attached to a node.
pub fn classify(c: &Comment) -> CommentKind {
    let text = c.text.as_str();
    if text.starts_with('!') {
        return CommentKind::Ignored;
    }
    let Some(rest) = text.strip_prefix('@') else {
        return CommentKind::Plain;
    };
    if rest.is_empty() || rest.starts_with([' ', '\t']) {
        let code = rest.strip_prefix([' ', '\t']).unwrap_or(rest).to_owned();
        return if c.own_line {
            CommentKind::Code(code)
        } else {
            CommentKind::Value(code)
        };
    }
    let (name, args) = match rest.find([' ', '\t']) {
        Some(i) => (&rest[..i], rest[i + 1..].trim()),
        None => (rest, ""),
    };
    match name {
        "template/code" => CommentKind::Code(args.to_owned()),
        "template/value" => CommentKind::Value(args.to_owned()),
        "comment" => CommentKind::Ignored,
        _ => CommentKind::Annotation {
            name: name.to_owned(),
            args: args.to_owned(),
        },
    }
}

/// The annotations (name, args) among `comments`.
pub fn annotations_of(comments: &[Comment]) -> impl Iterator<Item = (String, String)> + '_ {
    comments.iter().filter_map(|c| match classify(c) {
        CommentKind::Annotation { name, args } => Some((name, args)),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(text: &str, own_line: bool) -> Comment {
        Comment {
            line: 1,
            text: text.to_owned(),
            own_line,
        }
    }

    #[test]
    fn classifies_every_form() {
        assert_eq!(classify(&c("! note", true)), CommentKind::Ignored);
        assert_eq!(
            classify(&c("@ x = 1", true)),
            CommentKind::Code("x = 1".into())
        );
        assert_eq!(classify(&c("@ x", false)), CommentKind::Value("x".into()));
        assert_eq!(classify(&c("@", true)), CommentKind::Code("".into()));
        assert_eq!(
            classify(&c("@overlay/match by=\"name\"", true)),
            CommentKind::Annotation {
                name: "overlay/match".into(),
                args: "by=\"name\"".into()
            }
        );
        assert_eq!(
            classify(&c("@template/code y = 2", true)),
            CommentKind::Code("y = 2".into())
        );
        assert_eq!(classify(&c("@comment hi", true)), CommentKind::Ignored);
        assert_eq!(classify(&c(" plain", true)), CommentKind::Plain);
        assert_eq!(
            classify(&c("@x = 1", true)),
            CommentKind::Annotation {
                name: "x".into(),
                args: "= 1".into()
            }
        );
    }
}
