//! Lines of a text and the protocol's positions in them: a line from 0 and a column in
//! UTF-16 code units (the encoding every client supports). The engine counts lines from 1
//! and columns in characters; the project file's parser gives byte offsets.

use lsp_types::{Position, Range};

/// The text of line `line` (from 0) without its line break; empty past the end.
fn line_text(text: &str, line: u32) -> &str {
    let line = text.split('\n').nth(line as usize).unwrap_or("");
    line.strip_suffix('\r').unwrap_or(line)
}

fn utf16_len(s: &str) -> u32 {
    s.chars().map(|c| c.len_utf16() as u32).sum()
}

/// The range an engine position stands for: line `line` (from 1; 0 is the file as a
/// whole, its first line) from `column` (from 1, in characters) to the end of the line,
/// or the line's text without its indentation and trailing blanks. Past the last line,
/// the last line.
pub fn engine_range(text: &str, line: u32, column: Option<u32>) -> Range {
    let lines = text.split('\n').count() as u32;
    let mut l = line.saturating_sub(1);
    if l >= lines {
        l = lines.saturating_sub(1);
        // the last line of a text that ends with a line break is the empty one after it
        if text.ends_with('\n') && l > 0 && line_text(text, l).is_empty() {
            l -= 1;
        }
    }
    let content = line_text(text, l);
    let trimmed_end = content.trim_end();
    let indent = content.len() - content.trim_start().len();
    let mut start = utf16_len(&content[..indent.min(trimmed_end.len())]);
    let end = utf16_len(trimmed_end);
    if let Some(c) = column.filter(|&c| c > 0) {
        let at: String = content.chars().take(c as usize - 1).collect();
        let at = utf16_len(&at);
        if at < end {
            start = at;
        }
    }
    Range::new(Position::new(l, start), Position::new(l, end.max(start)))
}

/// The length of line `line` (from 0) in UTF-16 units.
pub fn line_len(text: &str, line: u32) -> u32 {
    utf16_len(line_text(text, line))
}

/// The position of byte `col` of `content`, the text of line `line`.
pub fn position_in_line(content: &str, line: u32, col: usize) -> Position {
    let mut col = col.min(content.len());
    while !content.is_char_boundary(col) {
        col -= 1;
    }
    Position::new(line, utf16_len(&content[..col]))
}

/// The position of byte `offset` of `text` (clamped to the text, and to a character
/// boundary before it).
pub fn position_of_offset(text: &str, offset: usize) -> Position {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() as u32;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    Position::new(line, utf16_len(&before[line_start..]))
}

/// The byte offset of `pos` in `text`, clamped to its line and to the text.
pub fn offset_of_position(text: &str, pos: Position) -> usize {
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if i as u32 == pos.line {
            let mut units = 0;
            for (b, c) in line.char_indices() {
                if units >= pos.character || c == '\n' || c == '\r' {
                    return offset + b;
                }
                units += c.len_utf16() as u32;
            }
            return offset + line.len();
        }
        offset += line.len();
    }
    text.len()
}

/// The range of the whole text.
pub fn whole(text: &str) -> Range {
    Range::new(Position::new(0, 0), position_of_offset(text, text.len()))
}

/// `text` with `range` replaced by `new` (an incremental change of a document).
pub fn replace(text: &str, range: Range, new: &str) -> String {
    let start = offset_of_position(text, range.start);
    let end = offset_of_position(text, range.end).max(start);
    let mut out = String::with_capacity(text.len() + new.len());
    out.push_str(&text[..start]);
    out.push_str(new);
    out.push_str(&text[end..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(l: u32, s: u32, e: u32) -> Range {
        Range::new(Position::new(l, s), Position::new(l, e))
    }

    #[test]
    fn engine_lines_become_the_text_of_the_line() {
        let t = "a: 1\n  b: #@ x  \nc: é😀d\n";
        assert_eq!(engine_range(t, 2, None), r(1, 2, 9));
        assert_eq!(engine_range(t, 1, Some(4)), r(0, 3, 4));
        // columns count characters; the protocol counts UTF-16 units
        assert_eq!(engine_range(t, 3, Some(6)), r(2, 6, 7));
        // the file as a whole, and past the end
        assert_eq!(engine_range(t, 0, None), r(0, 0, 4));
        assert_eq!(engine_range(t, 9, None), r(2, 0, 7));
        // a column past the line's text: the line
        assert_eq!(engine_range(t, 1, Some(40)), r(0, 0, 4));
        assert_eq!(engine_range("", 3, None), r(0, 0, 0));
    }

    #[test]
    fn offsets_and_positions() {
        let t = "ab\r\n😀x\n";
        // inside a character: the character's start
        assert_eq!(position_of_offset(t, 5), Position::new(1, 0));
        assert_eq!(position_of_offset(t, 8), Position::new(1, 2));
        assert_eq!(offset_of_position(t, Position::new(1, 2)), 8);
        assert_eq!(offset_of_position(t, Position::new(0, 9)), 2);
        assert_eq!(offset_of_position(t, Position::new(5, 0)), t.len());
        assert_eq!(
            whole(t),
            Range::new(Position::new(0, 0), Position::new(2, 0))
        );
    }

    #[test]
    fn incremental_changes_apply() {
        let t = "a: 1\nb: 2\n";
        let range = Range::new(Position::new(0, 3), Position::new(1, 1));
        assert_eq!(replace(t, range, "9\nc"), "a: 9\nc: 2\n");
    }
}
