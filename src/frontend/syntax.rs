//! What an editor reads in a template's text, from the engine that reads it: the
//! annotations ytt knows and their keyword arguments, the named validation rules, the
//! tokens of Starlark code (the lexer the compiler uses), the `@ytt:` modules and what
//! they export, and Starlark's built-in functions with their signatures.

use starlark::docs::{DocItem, DocMember, DocModule};
use starlark::syntax::Dialect;
use starlark::values::Heap;
use starlark_syntax::codemap::CodeMap;
use starlark_syntax::lexer::{Lexer, Token as Lexeme};

use crate::eval::globals;
use crate::modules::{self, Modules, ENGINE_MODULES};
use crate::template::annotations;
use crate::template::{ASSERT_NAME, WHILE_NAME};
use crate::validations::named::RULES;

/// The name the engine suggests for one it does not know (`did you mean x?`).
pub use crate::eval::suggest::nearest;
/// How ytt reads a comment of a YAML template (`#@ code`, `#@name args`, `#!`, ...).
pub use crate::template::annotations::{classify, CommentKind};

/// The annotations ytt reads (`overlay/match`, `schema/validation`, ...), each with the
/// keyword arguments it takes; the rule annotations' keywords include the named rules.
pub fn annotations() -> Vec<(&'static str, Vec<&'static str>)> {
    (annotations::KNOWN.iter())
        .map(|&(name, keywords)| {
            let mut all = keywords.to_vec();
            if annotations::TAKES_NAMED_RULES.contains(&name) {
                all.extend(RULES.iter().map(|d| d.name));
            }
            (name, all)
        })
        .collect()
}

/// What a token of Starlark code is, as an editor colours it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    Keyword,
    Name,
    String,
    Number,
    Operator,
    Comment,
}

/// A token of Starlark code: its kind and byte range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub start: usize,
    pub end: usize,
}

/// The tokens of `code`, lexed as the template compiler lexes it: starlark-rust's lexer,
/// with the words it reserves and ytt reads, `while` (a keyword) and `assert` (a name),
/// renamed first to names of the same length, as the compiler renames them. Lexing stops
/// at the first error: the tokens before it are returned.
pub fn tokens(code: &str) -> Vec<Token> {
    let mut source = code.to_owned();
    let mut whiles: Vec<usize> = Vec::new();
    for (word, name) in [("while", WHILE_NAME), ("assert", ASSERT_NAME)] {
        let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
        let found: Vec<usize> = (code.match_indices(word))
            .map(|(at, _)| at)
            .filter(|&at| {
                !code[..at].chars().next_back().is_some_and(ident)
                    && !code[at + word.len()..].chars().next().is_some_and(ident)
            })
            .collect();
        for &at in &found {
            source.replace_range(at..at + word.len(), name);
        }
        if word == "while" {
            whiles = found;
        }
    }
    let codemap = CodeMap::new(String::new(), source.clone());
    let mut out = Vec::new();
    for lexeme in Lexer::new(&source, &Dialect::Standard, codemap) {
        let Ok((start, token, end)) = lexeme else {
            break;
        };
        let kind = match token {
            Lexeme::Identifier(_) if whiles.contains(&start) => Some(TokenKind::Keyword),
            token => kind_of(&token),
        };
        if let Some(kind) = kind {
            out.push(Token { kind, start, end });
        }
    }
    out
}

fn kind_of(token: &Lexeme) -> Option<TokenKind> {
    use Lexeme::*;
    Some(match token {
        Comment(_) => TokenKind::Comment,
        Identifier(_) => TokenKind::Name,
        Int(_) | Float(_) => TokenKind::Number,
        String(_) | Bytes(_) | FStringStart(_) | FStringText(_) | FStringEnd => TokenKind::String,
        And | Break | Continue | Def | Elif | Else | For | If | In | Lambda | Load | Not | Or
        | Pass | Return | Reserved => TokenKind::Keyword,
        Indent | Dedent | Newline | Tabs => return None,
        _ => TokenKind::Operator,
    })
}

/// A function or value a module or the global scope offers: its name, its signature
/// (`name(a, b=1)`, the engine's), and the first line of its documentation, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    pub name: String,
    pub signature: String,
    pub summary: Option<String>,
}

/// The names of the `@ytt:` modules a run with `modules` can load: the engine's own and
/// the embedder's.
pub fn module_names(modules: &Modules) -> Vec<String> {
    let mut names: Vec<String> = (ENGINE_MODULES.iter().map(|n| n.to_string()))
        .chain(modules.names().map(str::to_owned))
        .collect();
    names.sort();
    names
}

/// What `@ytt:<name>` exports (its namespace's members), or None for no such module.
pub fn module_members(modules: &Modules, name: &str) -> Option<Vec<Member>> {
    let module = modules::standalone(modules, name)?;
    let namespace = module.get(name).ok()?;
    let docs = Heap::temp(|heap| {
        // SAFETY: `module`, alive until the end of this function, holds the value's heap.
        let value = unsafe { namespace.unchecked_frozen_value() }.to_value();
        DocModule {
            docs: None,
            members: (value.dir_attr().into_iter())
                .filter_map(|m| {
                    let v = value.get_attr(&m, heap).ok()??;
                    Some((m, v.documentation()))
                })
                .collect(),
        }
    });
    Some(members(&docs, &format!("{name}.")))
}

/// The functions every template sees (Starlark's built-ins, ytt's among them).
pub fn builtins() -> Vec<Member> {
    let docs = globals::globals().documentation();
    let mut all = members(&docs, "");
    // the functions the compiled template calls are no part of the language
    all.retain(|m| !m.name.starts_with("__"));
    all
}

fn members(module: &DocModule, prefix: &str) -> Vec<Member> {
    (module.members.iter())
        .map(|(name, item)| {
            let signature = match item {
                DocItem::Member(DocMember::Function(f)) => {
                    let code = f.render_as_code(&format!("{prefix}{name}"));
                    // `def name(params) -> ret:` and a docstring: the first line is the signature
                    let head = code.split(":\n").next().unwrap_or(&code);
                    head.trim_start_matches("def ")
                        .trim_end_matches(':')
                        .to_owned()
                }
                _ => format!("{prefix}{name}"),
            };
            Member {
                name: name.clone(),
                signature,
                summary: (item.get_doc_summary())
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotations_come_with_their_keywords() {
        let all = annotations();
        let of = |n: &str| all.iter().find(|(a, _)| *a == n).unwrap().1.clone();
        assert_eq!(of("overlay/match"), ["by", "expects", "missing_ok", "when"]);
        assert!(of("schema/validation").contains(&"min_len"));
        assert!(of("assert/validate").contains(&"one_of"));
        assert_eq!(of("data/values"), ["after_library_module"]);
        assert!(of("overlay/merge").is_empty());
    }

    #[test]
    fn tokens_read_ytt_code() {
        let code = "if x == 1: assert.fail(\"no\") # why\nwhile True:";
        let kinds: Vec<(TokenKind, &str)> = (tokens(code).into_iter())
            .map(|t| (t.kind, &code[t.start..t.end]))
            .collect();
        use TokenKind::*;
        assert_eq!(
            kinds,
            [
                (Keyword, "if"),
                (Name, "x"),
                (Operator, "=="),
                (Number, "1"),
                (Operator, ":"),
                (Name, "assert"),
                (Operator, "."),
                (Name, "fail"),
                (Operator, "("),
                (String, "\"no\""),
                (Operator, ")"),
                (Comment, "# why"),
                (Keyword, "while"),
                (Name, "True"),
                (Operator, ":"),
            ]
            .iter()
            .map(|&(k, s)| (k, s))
            .collect::<Vec<_>>()
        );
        // an unterminated string: what came before it
        assert_eq!(tokens("x = \"ab").len(), 2);
        // the words only: in a string or a longer name they stay as they are
        let code = "assert_x = \"while\"";
        let kinds: Vec<TokenKind> = tokens(code).iter().map(|t| t.kind).collect();
        assert_eq!(kinds, [Name, Operator, String]);
    }

    #[test]
    fn modules_and_builtins_have_signatures() {
        let names = module_names(&Modules::default());
        assert_eq!(names, ["data", "library", "overlay", "template"]);
        let overlay = module_members(&Modules::default(), "overlay").unwrap();
        let apply = overlay.iter().find(|m| m.name == "apply").unwrap();
        assert!(apply.signature.starts_with("overlay.apply("), "{apply:?}");
        assert!(module_members(&Modules::default(), "nope").is_none());
        let len = builtins().into_iter().find(|m| m.name == "len").unwrap();
        assert!(len.signature.starts_with("len("), "{len:?}");
    }
}
