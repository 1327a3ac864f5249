//! Semantic tokens (`textDocument/semanticTokens/full`): what the code of a file is —
//! in a YAML template's `#@` comments, a `.star` file, a text template's `(@ … @)` — and
//! a YAML template's annotations and ytt comments, for an editor to colour.
//!
//! The legend ([`legend`]), by index: `keyword`, `string`, `number`, `operator`,
//! `comment`, `function` (a name called: `f(`), `variable` (any other name), `decorator`
//! (an annotation's `#@name`), `macro` (what marks code: the `#@` before a line of code
//! or a value, a text template's `(@`, `(@=`, `@)`).

use std::path::Path;

use lsp_types::{SemanticToken, SemanticTokenType, SemanticTokensLegend};
use ytt::frontend::syntax::TokenKind;

use crate::source::{Remark, Source};
use crate::text;

const TYPES: &[SemanticTokenType] = &[
    SemanticTokenType::KEYWORD,
    SemanticTokenType::STRING,
    SemanticTokenType::NUMBER,
    SemanticTokenType::OPERATOR,
    SemanticTokenType::COMMENT,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::VARIABLE,
    SemanticTokenType::DECORATOR,
    SemanticTokenType::MACRO,
];

const KEYWORD: u32 = 0;
const STRING: u32 = 1;
const NUMBER: u32 = 2;
const OPERATOR: u32 = 3;
const COMMENT: u32 = 4;
const FUNCTION: u32 = 5;
const VARIABLE: u32 = 6;
const DECORATOR: u32 = 7;
const MACRO: u32 = 8;

/// The token types the server's tokens index.
pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TYPES.to_vec(),
        token_modifiers: Vec::new(),
    }
}

/// The tokens of `text`, the file at `path`, encoded as the protocol says (relative
/// positions, UTF-16 lengths, one line each).
pub fn semantic_tokens(text: &str, path: &Path) -> Vec<SemanticToken> {
    let source = Source::read(text, path);
    let mut spans: Vec<(usize, usize, u32)> = Vec::new();
    for (i, t) in source.tokens.iter().enumerate() {
        let kind = match t.kind {
            TokenKind::Keyword => KEYWORD,
            TokenKind::String => STRING,
            TokenKind::Number => NUMBER,
            TokenKind::Operator => OPERATOR,
            TokenKind::Comment => COMMENT,
            // ytt's block end
            TokenKind::Name if source.token_text(t) == "end" && ends_block(&source, i) => KEYWORD,
            TokenKind::Name => {
                let called = source
                    .tokens
                    .get(i + 1)
                    .is_some_and(|n| n.start == t.end && source.token_text(n) == "(");
                if called {
                    FUNCTION
                } else {
                    VARIABLE
                }
            }
        };
        spans.push((t.start, t.end, kind));
    }
    for a in &source.annotations {
        spans.push((a.comment.0, a.name_range.1, DECORATOR));
    }
    for r in &source.remarks {
        let (Remark::Ignored(start, end) | Remark::Plain(start, end)) = *r;
        spans.push((start, end, COMMENT));
    }
    for &(start, end) in &source.markers {
        spans.push((start, end, MACRO));
    }
    spans.sort();
    encode(text, &spans)
}

/// Is token `i` (`end`) alone on its line of code?
fn ends_block(source: &Source, i: usize) -> bool {
    let text = source.text;
    let toks = &source.tokens;
    let apart =
        |a: usize, b: usize| text[a..b].contains('\n') || source.code_at(a) != source.code_at(b);
    let t = &toks[i];
    let alone_before = i == 0 || apart(toks[i - 1].end, t.start);
    let alone_after =
        (toks.get(i + 1)).is_none_or(|n| n.kind == TokenKind::Comment || apart(t.end, n.start));
    alone_before && alone_after
}

/// Spans as the protocol's tokens: a span over several lines is one token per line.
fn encode(text: &str, spans: &[(usize, usize, u32)]) -> Vec<SemanticToken> {
    let mut out = Vec::new();
    let (mut prev_line, mut prev_start) = (0, 0);
    for &(start, end, kind) in spans {
        let mut from = start;
        while from < end {
            let line_end = text[from..end].find('\n').map_or(end, |i| from + i);
            let a = text::position_of_offset(text, from);
            let b = text::position_of_offset(text, line_end.max(from));
            if b.character > a.character {
                let delta_line = a.line - prev_line;
                let delta_start = if delta_line == 0 {
                    a.character - prev_start
                } else {
                    a.character
                };
                out.push(SemanticToken {
                    delta_line,
                    delta_start,
                    length: b.character - a.character,
                    token_type: kind,
                    token_modifiers_bitset: 0,
                });
                (prev_line, prev_start) = (a.line, a.character);
            }
            from = line_end + 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (line, column, length, type) of each token.
    fn decoded(text: &str, path: &str) -> Vec<(u32, u32, u32, u32)> {
        let (mut line, mut col) = (0, 0);
        (semantic_tokens(text, Path::new(path)).iter())
            .map(|t| {
                line += t.delta_line;
                col = if t.delta_line == 0 {
                    col + t.delta_start
                } else {
                    t.delta_start
                };
                (line, col, t.length, t.token_type)
            })
            .collect()
    }

    #[test]
    fn annotations_code_and_comments() {
        let t = "#@overlay/match by=\"a\"\nk: #@ f(1) #! no\n#! note\n";
        assert_eq!(
            decoded(t, "a.yml"),
            [
                (0, 0, 15, DECORATOR),
                (0, 16, 2, VARIABLE),
                (0, 18, 1, OPERATOR),
                (0, 19, 3, STRING),
                (1, 3, 2, MACRO),
                (1, 6, 1, FUNCTION),
                (1, 7, 1, OPERATOR),
                (1, 8, 1, NUMBER),
                (1, 9, 1, OPERATOR),
                (1, 11, 5, COMMENT),
                (2, 0, 7, COMMENT),
            ]
        );
    }

    #[test]
    fn a_string_over_lines_is_a_token_a_line() {
        let t = "x = \"\"\"a\nbc\"\"\"\n";
        assert_eq!(
            decoded(t, "a.star"),
            [
                (0, 0, 1, VARIABLE),
                (0, 2, 1, OPERATOR),
                (0, 4, 4, STRING),
                (1, 0, 5, STRING)
            ]
        );
    }
}
