//! Folding (`textDocument/foldingRange`): the blocks of code — `if`/`for`/`def`/`while`
//! from their header to their `end` (`else`/`elif` begin a new fold), or, in a `.star`
//! file written without `end`, to the last line indented under the header — and a YAML
//! file's documents.

use std::path::Path;

use lsp_types::{FoldingRange, FoldingRangeKind};
use ytt::frontend::syntax::TokenKind;

use crate::source::{Language, Source, Token};

/// The folds of `text`, the file at `path`.
pub fn folding_ranges(text: &str, path: &Path) -> Vec<FoldingRange> {
    let source = Source::read(text, path);
    let mut out = Vec::new();
    if source.language == Language::Yaml {
        let lines = text.split('\n').count() as u32;
        let mut starts = source.documents.clone();
        starts.push(lines);
        for pair in starts.windows(2) {
            push(&mut out, pair[0], last_filled(text, pair[0], pair[1]), None);
        }
    }
    // indentation closes blocks only where it means something: a `.star` file's lines
    let by_indent = source.language == Language::Starlark;
    // open blocks: (header line, its indentation)
    let mut open: Vec<(u32, usize)> = Vec::new();
    for line in code_lines(&source) {
        let first = &source.tokens[line.first];
        let word = source.token_text(first);
        let n = line.number;
        if by_indent {
            while let Some(&(header, indent)) = open.last() {
                if line.indent > indent
                    || (line.indent == indent && matches!(word, "end" | "else" | "elif"))
                {
                    break;
                }
                open.pop();
                push(
                    &mut out,
                    header,
                    last_filled(text, header, n),
                    Some(FoldingRangeKind::Region),
                );
            }
        }
        match word {
            "end" if first.kind == TokenKind::Name => {
                if let Some((header, _)) = open.pop() {
                    push(&mut out, header, n, None);
                }
            }
            "else" | "elif" if line.ends_block_header => {
                if let Some((header, indent)) = open.pop() {
                    push(&mut out, header, n.saturating_sub(1), None);
                    open.push((n, indent));
                }
            }
            "if" | "for" | "def" | "while" if line.ends_block_header => open.push((n, line.indent)),
            _ => {}
        }
    }
    let lines = text.split('\n').count() as u32;
    for (header, _) in open.into_iter().rev().filter(|_| by_indent) {
        push(&mut out, header, last_filled(text, header, lines), None);
    }
    out.sort_by_key(|f| (f.start_line, f.end_line));
    out
}

/// A line of code: its number, the index of its first token, its indentation, and
/// whether it ends with `:` (a block's header).
struct CodeLine {
    number: u32,
    first: usize,
    indent: usize,
    ends_block_header: bool,
}

fn code_lines(source: &Source) -> Vec<CodeLine> {
    let text = source.text;
    let line_of = |t: &Token| text[..t.start].matches('\n').count() as u32;
    let mut out: Vec<CodeLine> = Vec::new();
    let mut depth = 0i32;
    let mut prev_line = None;
    for (i, t) in source.tokens.iter().enumerate() {
        if t.kind == TokenKind::Comment {
            continue;
        }
        let n = line_of(t);
        let tok = source.token_text(t);
        let starts_line = depth == 0 && prev_line != Some(n);
        prev_line = Some(n);
        if starts_line {
            let line_start = text[..t.start].rfind('\n').map_or(0, |i| i + 1);
            let indent = text[line_start..t.start].len();
            out.push(CodeLine {
                number: n,
                first: i,
                indent,
                ends_block_header: false,
            });
        }
        match tok {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth = (depth - 1).max(0),
            _ => {}
        }
        if let Some(last) = out.last_mut() {
            last.ends_block_header = t.kind == TokenKind::Operator && tok == ":";
        }
    }
    out
}

/// The last line before `before` (and after `from`) that is not blank.
fn last_filled(text: &str, from: u32, before: u32) -> u32 {
    let lines: Vec<&str> = text.split('\n').collect();
    (from..before)
        .rev()
        .find(|&l| lines.get(l as usize).is_some_and(|s| !s.trim().is_empty()))
        .unwrap_or(from)
}

fn push(out: &mut Vec<FoldingRange>, start: u32, end: u32, kind: Option<FoldingRangeKind>) {
    if end > start {
        out.push(FoldingRange {
            start_line: start,
            start_character: None,
            end_line: end,
            end_character: None,
            kind,
            collapsed_text: None,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folds(text: &str, path: &str) -> Vec<(u32, u32)> {
        (folding_ranges(text, Path::new(path)).iter())
            .map(|f| (f.start_line, f.end_line))
            .collect()
    }

    #[test]
    fn template_blocks_fold_to_their_end() {
        let t =
            "#@ def f(x):\na: 1\n#@ if x:\nb: 2\n#@ else:\nc: 3\n#@ end\n#@ end\n---\nd: 4\ne: 5\n";
        assert_eq!(folds(t, "a.yml"), [(0, 7), (0, 7), (2, 3), (4, 6), (8, 10)]);
    }

    #[test]
    fn star_blocks_fold_by_end_or_indentation() {
        let t = "def f(x):\n  if x:\n    return 1\n  end\n  return 2\nend\ndef g(\n  y):\n  return y\n\nz = 1\n";
        assert_eq!(folds(t, "a.star"), [(0, 5), (1, 3), (6, 8)]);
    }

    #[test]
    fn text_templates_fold_blocks() {
        let t = "(@ for x in [1]: @)\nline\n(@ end @)\n";
        assert_eq!(folds(t, "a.txt"), [(0, 2)]);
    }
}
