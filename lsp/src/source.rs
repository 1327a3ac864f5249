//! What the text of a file says, with exact places: where its Starlark code is (a YAML
//! template's `#@` comments and its text-templated strings, a `.star` file as a whole, a
//! text template's `(@ … @)`), its annotations (`#@name args`), its documents, and the
//! code's tokens, as the engine lexes them. Every feature that reads a file's text starts
//! here; nothing here renders.

use std::path::Path;

use ytt::files::FileKind;
use ytt::frontend::syntax::{self, CommentKind, TokenKind};
use ytt::yaml::Comment;

/// How ytt reads a file: by its path, as the engine decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    Yaml,
    Starlark,
    Text,
    /// A data file: no code.
    Data,
}

impl Language {
    pub fn of(path: &Path) -> Language {
        match FileKind::from_path(&path.to_string_lossy()) {
            FileKind::YamlTemplate | FileKind::YamlPlain => Language::Yaml,
            FileKind::Starlark => Language::Starlark,
            FileKind::TextTemplate | FileKind::TextPlain => Language::Text,
            FileKind::Data => Language::Data,
        }
    }
}

/// A span of Starlark code in the file: its byte range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Code {
    pub start: usize,
    pub end: usize,
}

/// An annotation `#@name args`: the byte ranges of its name and of its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Annotation {
    pub name: String,
    /// From the `#` to the end of the comment.
    pub comment: (usize, usize),
    pub name_range: (usize, usize),
    pub args: Code,
    /// The 0-based line.
    pub line: u32,
}

/// What a comment of a YAML template is, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Remark {
    /// `#!` (and `#@comment`): ytt's own comment, dropped.
    Ignored(usize, usize),
    /// `# text`.
    Plain(usize, usize),
}

/// A token of the file's code, at absolute byte offsets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub start: usize,
    pub end: usize,
}

/// A file's text read as ytt reads it.
#[derive(Debug)]
pub struct Source<'t> {
    pub text: &'t str,
    pub language: Language,
    /// The code spans, in order (`#@` code and values, annotation arguments, a `.star`
    /// file's text, text templates' code).
    pub code: Vec<Code>,
    pub annotations: Vec<Annotation>,
    pub remarks: Vec<Remark>,
    /// The 0-based lines where a YAML file's documents start: each `---`, and line 0 when
    /// YAML comes before the first (comments and code alone make no document).
    pub documents: Vec<u32>,
    /// The code spans' tokens, in order.
    pub tokens: Vec<Token>,
    /// What marks code as code: a YAML template's `#@` (and `template/code` after it)
    /// before a line of code or a value, a text template's `(@`, `(@=`, `-@)`, `@)`.
    pub markers: Vec<(usize, usize)>,
}

impl<'t> Source<'t> {
    pub fn read(text: &'t str, path: &Path) -> Source<'t> {
        let language = Language::of(path);
        let mut s = Source {
            text,
            language,
            code: Vec::new(),
            annotations: Vec::new(),
            remarks: Vec::new(),
            documents: Vec::new(),
            tokens: Vec::new(),
            markers: Vec::new(),
        };
        match language {
            Language::Yaml => s.read_yaml(),
            Language::Starlark => s.code.push(Code {
                start: 0,
                end: text.len(),
            }),
            Language::Text => s.read_text(0, text.len()),
            Language::Data => {}
        }
        for code in &s.code {
            let piece = &text[code.start..code.end];
            s.tokens
                .extend(syntax::tokens(piece).into_iter().map(|t| Token {
                    kind: t.kind,
                    start: code.start + t.start,
                    end: code.start + t.end,
                }));
        }
        s
    }

    /// The text of a token.
    pub fn token_text(&self, t: &Token) -> &'t str {
        &self.text[t.start..t.end]
    }

    /// The code span holding byte `offset` (its end included: the cursor after the last
    /// character typed).
    pub fn code_at(&self, offset: usize) -> Option<Code> {
        (self.code.iter())
            .find(|c| c.start <= offset && offset <= c.end)
            .copied()
    }

    fn read_yaml(&mut self) {
        let text = self.text;
        let mut offset = 0;
        // a block scalar's content: lines indented more than this (or blank)
        let mut block: Option<usize> = None;
        let mut content_before_marker = false;
        // `#@yaml/text-templated-strings`: the node after it (its indentation, once seen)
        // and its children have text-templated strings
        let mut templated: Option<Option<usize>> = None;
        for (line_no, raw) in text.split_inclusive('\n').enumerate() {
            let line_start = offset;
            offset += raw.len();
            let line = raw.trim_end_matches(['\n', '\r']);
            let indent = line.len() - line.trim_start().len();
            if let Some(parent) = block {
                if line.trim().is_empty() || indent > parent {
                    continue;
                }
                block = None;
            }
            if line.starts_with("---")
                && matches!(line.as_bytes().get(3), None | Some(b' ' | b'\t'))
            {
                self.documents.push(line_no as u32);
            } else if self.documents.is_empty()
                && !line.trim().is_empty()
                && !line.trim_start().starts_with('#')
            {
                content_before_marker = true;
            }
            let hash = comment_start(line);
            let node = &line[..hash.unwrap_or(line.len())];
            if !node.trim().is_empty() {
                templated = match templated {
                    Some(None) => Some(Some(indent)),
                    Some(Some(i)) if indent > i => Some(Some(i)),
                    _ => None,
                };
                if templated.is_some() {
                    self.read_text(line_start, line_start + node.len());
                }
            }
            let Some(hash) = hash else {
                if opens_block_scalar(line) {
                    block = Some(indent);
                }
                continue;
            };
            if opens_block_scalar(&line[..hash]) {
                block = Some(indent);
            }
            let own_line = line[..hash].trim().is_empty()
                || (line.starts_with("---") && line[3..hash].trim().is_empty());
            let at = line_start + hash;
            let comment = Comment {
                line: line_no as u32 + 1,
                text: line[hash + 1..].to_owned(),
                own_line,
            };
            let end = line_start + line.len();
            match syntax::classify(&comment) {
                CommentKind::Code(_) | CommentKind::Value(_) => {
                    // after `#@` (or `#@template/code`), one blank
                    let after = &line[hash + 2..];
                    let start = if after.is_empty() || after.starts_with([' ', '\t']) {
                        hash + 2 + usize::from(!after.is_empty())
                    } else {
                        // `template/code` or `template/value`, and a blank
                        (after.find([' ', '\t'])).map_or(line.len(), |i| hash + 2 + i + 1)
                    };
                    let start = line_start + start.min(line.len());
                    let marker_end = at + 2 + text[at + 2..start].trim_end().len();
                    self.markers.push((at, marker_end));
                    self.code.push(Code { start, end });
                }
                CommentKind::Annotation { name, .. } => {
                    if name == "yaml/text-templated-strings" {
                        templated = Some(None);
                    }
                    let name_start = at + 2;
                    let name_end = name_start + name.len();
                    let args = Code {
                        start: (name_end + 1).min(end),
                        end,
                    };
                    self.code.push(args);
                    self.annotations.push(Annotation {
                        name,
                        comment: (at, end),
                        name_range: (name_start, name_end),
                        args,
                        line: line_no as u32,
                    });
                }
                CommentKind::Ignored => self.remarks.push(Remark::Ignored(at, end)),
                CommentKind::Plain => self.remarks.push(Remark::Plain(at, end)),
            }
        }
        if content_before_marker {
            self.documents.insert(0, 0);
        }
    }

    /// A text template's code between `from` and `to`: `(@ code @)` and `(@= expr @)`,
    /// `-` trims aside.
    fn read_text(&mut self, from: usize, to: usize) {
        let text = &self.text[..to];
        let mut pos = from;
        while let Some(open) = text[pos..].find("(@") {
            let open = pos + open;
            let mut start = open + 2;
            if text[start..].starts_with('-') {
                start += 1;
            }
            if text[start..].starts_with('=') {
                start += 1;
            }
            self.markers.push((open, start));
            let (end, next) = match text[start..].find("@)") {
                Some(close) => {
                    let close = start + close;
                    // `-@)` trims the text after it
                    let end = if text[..close].ends_with('-') {
                        close - 1
                    } else {
                        close
                    }
                    .max(start);
                    self.markers.push((end, close + 2));
                    (end, close + 2)
                }
                None => (text.len(), text.len()),
            };
            self.code.push(Code { start, end });
            pos = next;
        }
    }
}

/// Where the comment of a YAML line starts: a `#` at the start or after a blank, outside
/// a quoted scalar.
fn comment_start(line: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    let mut prev = ' ';
    let mut last_significant = None;
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match quote {
            Some('\'') if c == '\'' => {
                // `''` is a quote inside a single-quoted scalar
                if chars.peek().map(|&(_, n)| n) == Some('\'') {
                    chars.next();
                } else {
                    quote = None;
                }
            }
            Some('"') if c == '\\' => {
                chars.next();
            }
            Some('"') if c == '"' => quote = None,
            Some(_) => {}
            None => {
                if c == '#' && (prev == ' ' || prev == '\t' || i == 0) {
                    return Some(i);
                }
                // a quote opens a scalar only where a scalar starts
                if (c == '\'' || c == '"')
                    && matches!(
                        last_significant,
                        None | Some(':' | '-' | '[' | '{' | ',' | '?')
                    )
                {
                    quote = Some(c);
                }
                if !c.is_whitespace() {
                    last_significant = Some(c);
                }
            }
        }
        prev = c;
    }
    None
}

/// Does this line (without its comment) end with a block scalar's header (`key: |`,
/// `- >-`, `|2`)?
fn opens_block_scalar(line: &str) -> bool {
    let t = line.trim_end();
    let Some(last) = t.rsplit([' ', '\t']).next() else {
        return false;
    };
    let before = t[..t.len() - last.len()].trim_end();
    (last.starts_with('|') || last.starts_with('>'))
        && last[1..]
            .chars()
            .all(|c| c == '-' || c == '+' || c.is_ascii_digit())
        && (before.is_empty() || before.ends_with(':') || before.ends_with('-') || before == "---")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml(text: &str) -> Source<'_> {
        Source::read(text, Path::new("t.yml"))
    }

    fn code<'t>(s: &Source<'t>) -> Vec<&'t str> {
        s.code.iter().map(|c| &s.text[c.start..c.end]).collect()
    }

    #[test]
    fn yaml_comments_are_code_annotations_or_comments() {
        let t = "#@ load(\"@ytt:data\", \"data\")\n#! note\n---\n#@overlay/match by=\"name\"\na: #@ data.values.x # still code\nb: \"#@ no\" # plain\n#@template/code y = 1\nc: 'it''s #@ no'\n";
        let s = yaml(t);
        assert_eq!(
            code(&s),
            [
                "load(\"@ytt:data\", \"data\")",
                "by=\"name\"",
                "data.values.x # still code",
                "y = 1"
            ]
        );
        assert_eq!(s.documents, [2]);
        // the strings of a node annotated `yaml/text-templated-strings` and its children
        let templated =
            "#@yaml/text-templated-strings\na:\n  b: x (@= y @)\n  (@= k @): 1\nd: (@= no @)\n";
        assert_eq!(code(&yaml(templated)), ["", " y ", " k "]);
        let a = &s.annotations[0];
        assert_eq!((a.name.as_str(), a.line), ("overlay/match", 3));
        assert_eq!(&t[a.name_range.0..a.name_range.1], "overlay/match");
        assert_eq!(s.remarks.len(), 2);
        let markers: Vec<&str> = s.markers.iter().map(|&(a, b)| &t[a..b]).collect();
        assert_eq!(markers, ["#@", "#@", "#@template/code"]);
    }

    #[test]
    fn block_scalars_hold_no_comments() {
        let s = yaml("a: |\n  #@ not code\n  x\nb: #@ 1\nc: |- #@ 2\n  #@ 3\n");
        assert_eq!(code(&s), ["1", "2"]);
        assert_eq!(code(&yaml("#@template/code\n#@\n")), ["", ""]);
        // code alone makes no document
        assert!(yaml("#@ def f():\n#@ end\n").documents.is_empty());
    }

    #[test]
    fn starlark_and_text_templates() {
        let s = Source::read("def f():\n  return 1\nend\n", Path::new("a.star"));
        assert_eq!(s.code.len(), 1);
        assert_eq!(s.tokens[0].kind, TokenKind::Keyword);
        let t = "a (@= x @) b (@- if y: -@)c(@ end @)(@= unclosed";
        let s = Source::read(t, Path::new("a.txt"));
        assert_eq!(code(&s), [" x ", " if y: ", " end ", " unclosed"]);
        let markers: Vec<&str> = s.markers.iter().map(|&(a, b)| &t[a..b]).collect();
        assert_eq!(markers, ["(@=", "@)", "(@-", "-@)", "(@", "@)", "(@="]);
        assert!(Source::read("x: 1", Path::new("a.json")).code.is_empty());
    }

    #[test]
    fn tokens_are_at_the_files_offsets() {
        let t = "a: 1\nb: #@ f(\"s\")\n";
        let s = yaml(t);
        let texts: Vec<&str> = s.tokens.iter().map(|tok| s.token_text(tok)).collect();
        assert_eq!(texts, ["f", "(", "\"s\"", ")"]);
    }
}
