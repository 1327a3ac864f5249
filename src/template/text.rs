//! Text templates: `(@ code @)`, `(@= expr @)`, with `-` trims on either side.

use std::sync::Arc;

use super::{instr, Builder, CompileError, CompiledTemplate, Line, TKind};
use crate::yaml::FileId;

enum Segment {
    Text(String, u32),
    Code(String, u32),
    Expr(String, u32),
}

/// Compiles a whole text file (`.txt`, `.lib.txt`).
pub fn compile_text(
    id: u32,
    name: Arc<str>,
    file: FileId,
    src: &str,
) -> Result<CompiledTemplate, CompileError> {
    let mut b = Builder::new(id, name, file);
    b.start_ctx(None);
    let root = b.add_node(TKind::Text, None, 1);
    b.start_node(root, None);
    emit_text(&mut b, root, src, 1)?;
    b.lines
        .push(Line::instr(format!("{}({id})", instr::END_ROOT), None));
    b.finish(src)
}

/// Adds the nodes and lines of a text template under the text root `root`. Error reports
/// show the code of a line, not the whole line.
pub(crate) fn emit_text(
    b: &mut Builder,
    root: u32,
    text: &str,
    first_line: u32,
) -> Result<(), CompileError> {
    let segments = split(text, first_line, &b.name)?;
    for seg in segments {
        match seg {
            Segment::Text(t, line) => {
                if t.is_empty() {
                    continue;
                }
                let tag = b.add_node(TKind::TextChunk, Some(root), line);
                b.start_node(tag, Some(line));
                // an error found at the end of the code before shows this text
                if let Some(l) = b.lines.last_mut() {
                    l.display = Some(Arc::from(t.as_str()));
                }
                b.nodes[tag as usize].text = Some(t);
            }
            Segment::Code(code, line) => {
                let display: Arc<str> = Arc::from(code.as_str());
                for (i, l) in code.split('\n').enumerate() {
                    let mut l = Line::user(l.trim(), line + i as u32);
                    l.display = Some(display.clone());
                    b.lines.push(l);
                }
            }
            Segment::Expr(expr, line) => {
                let tag = b.add_node(TKind::TextChunk, Some(root), line);
                b.start_node(tag, Some(line));
                let sep = if expr.contains('#') { "\n" } else { "" };
                let mut l = Line::instr_with_user(
                    format!("{}({}, {tag}, (", instr::SET_NODE, b.id),
                    expr.trim(),
                    &format!("{sep}))"),
                    Some(line),
                );
                l.display = Some(Arc::from(format!("={expr}").as_str()));
                b.lines.push(l);
            }
        }
    }
    Ok(())
}

/// The line and the 1-based column, in characters, of `offset`.
fn line_col(text: &str, offset: usize, first_line: u32) -> (u32, usize) {
    let before = &text[..offset];
    let line = first_line + before.matches('\n').count() as u32;
    let col = before[before.rfind('\n').map_or(0, |i| i + 1)..]
        .chars()
        .count()
        + 1;
    (line, col)
}

fn split(text: &str, first_line: u32, name: &str) -> Result<Vec<Segment>, CompileError> {
    let err = |what: &str, offset: usize| {
        let (line, col) = line_col(text, offset, first_line);
        CompileError::Template(format!(
            "Parsing text template '{name}':\n  {what} at line {line} col {col}"
        ))
    };
    let mut segs: Vec<Segment> = Vec::new();
    let mut pos = 0;
    let mut trim_next = false;
    while pos < text.len() {
        let rest = &text[pos..];
        let open = rest.find("(@");
        let close = rest.find("@)");
        if let Some(c) = close {
            if open.is_none_or(|o| c < o) {
                return Err(err("Unexpected code closing '@)'", pos + c));
            }
        }
        let Some(o) = open else {
            let mut t = rest.to_owned();
            if trim_next {
                t = t.trim_start().to_owned();
            }
            segs.push(Segment::Text(t, line_col(text, pos, first_line).0));
            break;
        };
        let mut t = rest[..o].to_owned();
        if trim_next {
            t = t.trim_start().to_owned();
        }
        let text_line = line_col(text, pos, first_line).0;
        let code_start = pos + o + 2;
        let mut inner_start = code_start;
        let trim_prev = text[inner_start..].starts_with('-');
        if trim_prev {
            inner_start += 1;
            t = t.trim_end().to_owned();
        }
        segs.push(Segment::Text(t, text_line));
        let is_expr = text[inner_start..].starts_with('=');
        if is_expr {
            inner_start += 1;
        }
        let after = &text[inner_start..];
        let close = after.find("@)");
        // an opening inside code is an error, whether or not the code is closed after
        // it; the reference places it at the opening's `@`
        if let Some(o2) = after.find("(@") {
            if close.is_none_or(|c| o2 < c) {
                return Err(err("Unexpected code opening '(@'", inner_start + o2 + 1));
            }
        }
        let Some(c) = close else {
            return Err(err("Missing code closing '@)'", pos + o));
        };
        let mut inner = &after[..c];
        trim_next = inner.ends_with('-');
        if trim_next {
            inner = &inner[..inner.len() - 1];
        }
        let code_line = line_col(text, code_start, first_line).0;
        segs.push(if is_expr {
            Segment::Expr(inner.to_owned(), code_line)
        } else {
            Segment::Code(inner.to_owned(), code_line)
        });
        pos = inner_start + c + 2;
    }
    Ok(segs)
}

#[cfg(test)]
mod tests {
    use super::split;

    fn error(src: &str) -> String {
        match split(src, 1, "t.txt") {
            Err(super::CompileError::Template(m)) => m,
            _ => panic!("no error for {src:?}"),
        }
    }

    /// Measured: an opening inside code is placed at its `@`, in characters, whether or
    /// not the code is closed after it.
    #[test]
    fn an_opening_inside_code_is_placed_at_its_at_sign() {
        let at = |src: &str| error(src).lines().nth(1).unwrap_or("").trim().to_owned();
        assert_eq!(
            at("a (@= x\n(@ y @)"),
            "Unexpected code opening '(@' at line 2 col 2"
        );
        assert_eq!(
            at("a (@ x\n\u{e4}\u{e4}(@ y"),
            "Unexpected code opening '(@' at line 2 col 4"
        );
        assert_eq!(at("x(@ (@"), "Unexpected code opening '(@' at line 1 col 6");
        assert_eq!(at("x(@\n"), "Missing code closing '@)' at line 1 col 2");
    }
}
