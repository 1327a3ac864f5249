//! Reading ytt's comments: `#!` comments, `#@ code`, `#@ expr` values and `#@name args`
//! annotations.

use crate::yaml::Comment;

pub const TEXT_TEMPLATED_STRINGS: &str = "yaml/text-templated-strings";
pub const MAP_KEY_OVERRIDE: &str = "yaml/map-key-override";

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
