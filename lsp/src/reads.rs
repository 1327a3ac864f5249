//! The data values a file reads: `data.values.a.b` in its code, where `data` is the name
//! a `load("@ytt:data", ...)` bound to the module (`"data"`, or `d="data"`).

use lsp_types::{Position, Range};
use std::path::Path;

use crate::names;
use crate::source::{Source, Token};
use crate::text;
use ytt::frontend::syntax::TokenKind;

/// A read of a data value: the range from the module's name to the last key, and the
/// keys after `values`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Read {
    pub range: Range,
    pub path: Vec<String>,
}

/// Where completion of a data value is asked: the keys before the one being typed, and
/// the range of what is typed of it (empty after a `.`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partial {
    pub parent: Vec<String>,
    pub typed: Range,
}

/// One chain `data . values (. key)*` in token indices: (first token, keys' token
/// indices, index of a trailing `.` if the chain ends with one).
struct Chain {
    first: usize,
    keys: Vec<usize>,
    trailing_dot: Option<usize>,
}

fn chains(source: &Source) -> Vec<Chain> {
    let modules: Vec<String> = (names::loads(source).into_iter())
        .filter(|l| l.module.value == "@ytt:data")
        .flat_map(|l| l.names)
        .filter(|n| n.exported.value == "data")
        .map(|n| n.local)
        .collect();
    let toks = &source.tokens;
    let is = |i: usize, kind: TokenKind, text: Option<&str>| {
        toks.get(i)
            .is_some_and(|t| t.kind == kind && text.is_none_or(|x| source.token_text(t) == x))
    };
    // adjacent tokens only: `data.values` split over lines is no read here
    let touching = |a: usize, b: usize| toks[a].end == toks[b].start;
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if t.kind != TokenKind::Name || !modules.iter().any(|m| m == source.token_text(t)) {
            continue;
        }
        // not an attribute of something else (`x.data.values`)
        if i > 0 && is(i - 1, TokenKind::Operator, Some(".")) && touching(i - 1, i) {
            continue;
        }
        if !(is(i + 1, TokenKind::Operator, Some("."))
            && is(i + 2, TokenKind::Name, Some("values")))
        {
            continue;
        }
        let mut chain = Chain {
            first: i,
            keys: Vec::new(),
            trailing_dot: None,
        };
        let mut j = i + 3;
        while is(j, TokenKind::Operator, Some(".")) && touching(j - 1, j) {
            if is(j + 1, TokenKind::Name, None) && touching(j, j + 1) {
                chain.keys.push(j + 1);
                j += 2;
            } else {
                chain.trailing_dot = Some(j);
                break;
            }
        }
        out.push(chain);
    }
    out
}

fn range(source: &Source, start: usize, end: usize) -> Range {
    Range::new(
        text::position_of_offset(source.text, start),
        text::position_of_offset(source.text, end),
    )
}

fn key_of(source: &Source, t: &Token) -> String {
    source.token_text(t).to_owned()
}

/// Every data-value read in `text` (the file at `path`), in order.
pub fn data_value_reads(text: &str, path: &Path) -> Vec<Read> {
    let source = Source::read(text, path);
    (chains(&source).into_iter())
        .map(|c| {
            let toks = &source.tokens;
            let last = c.keys.last().copied().unwrap_or(c.first + 2);
            Read {
                range: range(&source, toks[c.first].start, toks[last].end),
                path: c.keys.iter().map(|&k| key_of(&source, &toks[k])).collect(),
            }
        })
        .collect()
}

/// The read at `pos`: with the cursor on a key, the path up to that key and the key's
/// range; on `data` or `values`, the read of all data values (an empty path).
pub fn data_value_read_at(text: &str, path: &Path, pos: Position) -> Option<Read> {
    let source = Source::read(text, path);
    let at = text::offset_of_position(text, pos);
    let toks = &source.tokens;
    for c in chains(&source) {
        let within = |i: usize| toks[i].start <= at && at <= toks[i].end;
        if let Some(n) = c.keys.iter().position(|&k| within(k)) {
            let k = c.keys[n];
            return Some(Read {
                range: range(&source, toks[k].start, toks[k].end),
                path: (c.keys[..=n].iter())
                    .map(|&k| key_of(&source, &toks[k]))
                    .collect(),
            });
        }
        if (c.first..=c.first + 2).any(within) {
            return Some(Read {
                range: range(&source, toks[c.first].start, toks[c.first + 2].end),
                path: Vec::new(),
            });
        }
    }
    None
}

/// Completion of a data value at `pos`: after `data.values.` (the parent path, nothing
/// typed) or within a key being typed (the keys before it, what is typed of it).
pub fn data_value_partial_at(text: &str, path: &Path, pos: Position) -> Option<Partial> {
    let source = Source::read(text, path);
    let at = text::offset_of_position(text, pos);
    let toks = &source.tokens;
    for c in chains(&source) {
        let keys: Vec<String> = c.keys.iter().map(|&k| key_of(&source, &toks[k])).collect();
        if let Some(dot) = c.trailing_dot.filter(|&d| toks[d].end == at) {
            let _ = dot;
            return Some(Partial {
                parent: keys,
                typed: range(&source, at, at),
            });
        }
        if let Some(n) = c
            .keys
            .iter()
            .position(|&k| toks[k].start <= at && at <= toks[k].end)
        {
            return Some(Partial {
                parent: keys[..n].to_vec(),
                typed: range(&source, toks[c.keys[n]].start, at),
            });
        }
        // right after `data.values.` with nothing typed was the trailing dot; after
        // `data.values` itself there is nothing to complete
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(l: u32, c: u32) -> Position {
        Position::new(l, c)
    }

    #[test]
    fn reads_follow_the_name_data_is_bound_to() {
        let t = "#@ load(\"@ytt:data\", d=\"data\")\na: #@ d.values.a.b\nb: #@ data.values.x\nc: #@ [d.values.c, x.d.values.e]\n";
        let reads = data_value_reads(t, Path::new("a.yml"));
        assert_eq!(
            reads,
            [
                Read {
                    range: Range::new(p(1, 6), p(1, 18)),
                    path: vec!["a".into(), "b".into()]
                },
                Read {
                    range: Range::new(p(3, 7), p(3, 17)),
                    path: vec!["c".into()]
                },
            ]
        );
    }

    #[test]
    fn reads_in_star_files_and_text_templates() {
        let star = "load(\"@ytt:data\", \"data\")\ndef f():\n  return data.values.port\nend\n";
        assert_eq!(
            data_value_reads(star, Path::new("f.star"))[0].path,
            ["port"]
        );
        let txt = "(@ load(\"@ytt:data\", \"data\") @)port=(@= str(data.values.port) @)\n";
        assert_eq!(data_value_reads(txt, Path::new("f.txt"))[0].path, ["port"]);
        let yml = "#@ load(\"@ytt:data\", \"data\")\n#@yaml/text-templated-strings\na: port (@= str(data.values.port) @)\n";
        assert_eq!(data_value_reads(yml, Path::new("a.yml"))[0].path, ["port"]);
    }

    #[test]
    fn the_read_at_a_position() {
        let t = "#@ load(\"@ytt:data\", \"data\")\na: #@ data.values.a.b\n";
        let at = |c| data_value_read_at(t, Path::new("a.yml"), p(1, c));
        assert_eq!(at(19).unwrap().path, ["a"]);
        assert_eq!(at(21).unwrap().path, ["a", "b"]);
        assert_eq!(at(21).unwrap().range, Range::new(p(1, 20), p(1, 21)));
        assert_eq!(at(7).unwrap().path, Vec::<String>::new());
        assert_eq!(at(1), None);
    }

    #[test]
    fn completion_after_a_dot_or_in_a_key() {
        let t = "#@ load(\"@ytt:data\", \"data\")\na: #@ data.values.a.\nb: #@ data.values.a.re\n";
        let at = |l, c| data_value_partial_at(t, Path::new("a.yml"), p(l, c));
        assert_eq!(
            at(1, 20),
            Some(Partial {
                parent: vec!["a".into()],
                typed: Range::new(p(1, 20), p(1, 20))
            })
        );
        assert_eq!(
            at(2, 22),
            Some(Partial {
                parent: vec!["a".into()],
                typed: Range::new(p(2, 20), p(2, 22))
            })
        );
        assert_eq!(at(1, 2), None);
    }
}
