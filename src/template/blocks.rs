//! ytt's block syntax (`if …:` … `end`, indentation ignored) → Python-style indentation,
//! keeping a map from every generated line to its template line. The code is lexed into
//! logical lines first (`lines`), whose tokens mark the rewrites applied here:
//! - a `def` whose body holds YAML nodes opens its own node context and returns it;
//!   its `return X` becomes `return __ytt_end_ctx(T, X)`; any other `def` first assigns
//!   a dummy local, so that starlark-rust never inlines it (see `instr::NO_INLINE`);
//! - `**expr` in a call becomes `**__ytt_kwargs(expr)`, so structs and fragments splat;
//! - `while cond:` (reserved in starlark-rust) becomes a `for` over an endless iterator;
//! - `pass` in user code is refused, as in the reference;
//! - a `load` nested in top-level `if`/`for`/`else` blocks becomes a runtime call (see
//!   [`LoadStmt`]).

use starlark_syntax::lexer::Token;

use std::sync::Arc;

use super::lines::{self, Lexed, LogicalLine, ASSERT_NAME, WHILE_NAME};
use super::nesting::MAX_BLOCKS;
use super::{instr, Line};

#[derive(Debug)]
pub struct BlockError {
    pub message: String,
    /// Template line the error is on (None when it is in generated code).
    pub line: Option<u32>,
    /// What the report shows for the line, when not the template's line: in a text
    /// template, the code of a `(@ @)` segment or the text that follows it.
    pub display: Option<Arc<str>>,
}

pub(crate) struct Indented {
    pub code: String,
    pub line_map: Vec<Option<u32>>,
    pub line_display: Vec<Option<Arc<str>>>,
    /// Static errors the reference finds after parsing, before running anything.
    pub static_errors: Vec<BlockError>,
}

/// A `load(...)` statement, read from its tokens.
///
/// ytt's Starlark allows `load` anywhere outside a function: nested in top-level
/// `if`/`elif`/`else`/`for` blocks (any depth) it runs when reached, in order with the
/// other statements, binding its names as any assignment would. starlark-rust only
/// accepts `load` at the top level, so a nested one is rewritten into
/// `a, b = __ytt_load("path", "a", "b")` (see `instr::LOAD`), which loads through the
/// same file loader and reports the same errors. Names with a leading underscore are a
/// static error, checked here for every `load` outside a function, wherever it is.
/// A `load` inside a `def` is left alone: starlark-rust refuses it, as the reference does.
struct LoadStmt {
    /// Offsets of the statement in the joined source: `load` to its closing `)`.
    start: usize,
    end: usize,
    /// The module path as written (a string literal).
    module: String,
    /// (local name, exported name as written, exported name, offset of the exported name).
    names: Vec<(String, String, String, usize)>,
}

impl LoadStmt {
    /// None when the tokens are not a well-formed `load` (starlark-rust reports it).
    fn parse(toks: &[(Token, usize, usize)], joined: &str) -> Option<LoadStmt> {
        let mut it = toks.iter();
        let (Token::Load, start, _) = it.next()? else {
            return None;
        };
        let (Token::OpeningRound, ..) = it.next()? else {
            return None;
        };
        let (Token::String(_), ms, me) = it.next()? else {
            return None;
        };
        let text = |s: &usize, e: &usize| joined[*s..*e].to_owned();
        let mut names = Vec::new();
        let end = loop {
            match it.next()? {
                (Token::ClosingRound, _, end) => break *end,
                (Token::Comma, ..) => {}
                _ => return None,
            }
            match it.next()? {
                (Token::ClosingRound, _, end) => break *end,
                // `"name"`: bound to the same name (`assert` is renamed before lexing)
                (Token::String(name), s, e) => {
                    let local = match name.as_str() {
                        "assert" => ASSERT_NAME.to_owned(),
                        _ if is_identifier(name) => name.clone(),
                        _ => return None,
                    };
                    names.push((local, text(s, e), name.clone(), *s));
                }
                // `local="name"`
                (Token::Identifier(_), ls, le) => {
                    let (Token::Equal, ..) = it.next()? else {
                        return None;
                    };
                    let (Token::String(name), s, e) = it.next()? else {
                        return None;
                    };
                    names.push((text(ls, le), text(s, e), name.clone(), *s));
                }
                _ => return None,
            }
        };
        Some(LoadStmt {
            start: *start,
            end,
            module: text(ms, me),
            names,
        })
    }

    /// The statement as an assignment from a runtime call.
    fn as_call(&self) -> String {
        let mut call = format!("{}({}", instr::LOAD, self.module);
        for (_, written, _, _) in &self.names {
            call.push_str(", ");
            call.push_str(written);
        }
        call.push(')');
        let locals: Vec<&str> = self.names.iter().map(|(l, ..)| l.as_str()).collect();
        if locals.is_empty() {
            call
        } else {
            format!("{} = {call}", locals.join(", "))
        }
    }
}

fn is_identifier(name: &str) -> bool {
    name.chars().all(|c| c.is_alphanumeric() || c == '_')
        && name.chars().next().is_some_and(|c| !c.is_ascii_digit())
}

#[derive(Clone, Copy, PartialEq)]
enum LineKind {
    Normal,
    End,
    /// `else:` / `elif …:`: closes the previous block and opens another.
    Continuation,
    While,
}

struct Block {
    is_def: bool,
    uses_tpl: bool,
    /// A def's first YAML (or text) node: what it returns when no node is reached.
    first_node: Option<u32>,
    stmts: usize,
    opened_at: usize,
    /// A loop: its body may collect garbage (see `instr::GC`).
    collects: bool,
}

pub(crate) fn to_indented(template_id: u32, lines: &[Line]) -> Result<Indented, BlockError> {
    let lexed = lines::lex(template_id, lines)?;
    let shape = Shape::of(lines, &lexed.logical)?;
    let mut emit = Emit {
        template_id,
        lines,
        lexed: &lexed,
        shape: &shape,
        out: String::with_capacity(lexed.joined.len() * 2),
        line_map: Vec::with_capacity(lines.len() + 16),
        line_display: Vec::with_capacity(lines.len() + 16),
        static_errors: Vec::new(),
    };
    for (i, ll) in lexed.logical.iter().enumerate() {
        emit.line(i, ll);
    }
    Ok(Indented {
        code: emit.out,
        line_map: emit.line_map,
        line_display: emit.line_display,
        static_errors: emit.static_errors,
    })
}

fn src_of(lines: &[Line], phys: usize) -> Option<u32> {
    lines.get(phys).and_then(|l| l.src)
}

fn display_of(lines: &[Line], phys: usize) -> Option<Arc<str>> {
    lines.get(phys).and_then(|l| l.display.clone())
}

// A text template's report shows a statement as its `(@ @)` code; an error found at the
// end of the statement (a stray `end`, a missing colon), as the text that follows it up
// to the next code (nothing when code follows). A YAML template's shows lines.
fn display_after(lines: &[Line], phys: usize) -> Option<Arc<str>> {
    lines[phys].display.as_ref()?;
    Some(match lines.get(phys + 1) {
        Some(next) if next.node_instr && next.user_from.is_none() => {
            next.display.clone().unwrap_or_else(|| Arc::from(""))
        }
        _ => Arc::from(""),
    })
}

/// The block structure of the logical lines.
struct Shape {
    blocks: Vec<Block>,
    /// Per logical line: the blocks open around it, what it is, the innermost def around
    /// it, the block it opens and the one it closes.
    depth: Vec<usize>,
    kind: Vec<LineKind>,
    innermost_def: Vec<Option<usize>>,
    opens: Vec<Option<usize>>,
    closes: Vec<Option<usize>>,
}

impl Shape {
    fn of(lines: &[Line], logical: &[LogicalLine]) -> Result<Shape, BlockError> {
        let mut shape = Shape {
            blocks: Vec::new(),
            depth: vec![0; logical.len()],
            kind: vec![LineKind::Normal; logical.len()],
            innermost_def: vec![None; logical.len()],
            opens: vec![None; logical.len()],
            closes: vec![None; logical.len()],
        };
        let mut stack: Vec<usize> = Vec::new();
        for (i, ll) in logical.iter().enumerate() {
            shape.line(lines, &mut stack, i, ll)?;
        }
        if let Some(&b) = stack.last() {
            let first = logical[shape.blocks[b].opened_at].first;
            return Err(BlockError {
                message:
                    "mismatched set of block openings (if/else/elif/for/def) and closing (end)"
                        .into(),
                line: src_of(lines, first),
                display: lines[first].display.clone(),
            });
        }
        Ok(shape)
    }

    /// Places logical line `i`, with `stack` the blocks open before it.
    fn line(
        &mut self,
        lines: &[Line],
        stack: &mut Vec<usize>,
        i: usize,
        ll: &LogicalLine,
    ) -> Result<(), BlockError> {
        let err_here = |message: &str| BlockError {
            message: message.to_owned(),
            line: src_of(lines, ll.first),
            display: lines[ll.first].display.clone(),
        };
        if ll.first_word == "end" && matches!(ll.first_tok, Token::Identifier(_)) {
            self.kind[i] = LineKind::End;
            let b = stack.pop().ok_or_else(|| BlockError {
                display: display_after(lines, ll.last),
                ..err_here("unexpected end")
            })?;
            self.closes[i] = Some(b);
            self.depth[i] = stack.len() + 1;
            return Ok(());
        }
        if matches!(ll.first_tok, Token::Else | Token::Elif) {
            self.kind[i] = LineKind::Continuation;
            // the reference's words for an `else` or `elif` that closes no block
            let b = stack.pop().ok_or_else(|| err_here("unexpected end"))?;
            self.closes[i] = Some(b);
        }
        if ll.first_word == WHILE_NAME {
            self.kind[i] = LineKind::While;
        }
        let opener = matches!(
            ll.first_tok,
            Token::If | Token::For | Token::Def | Token::Elif | Token::Else
        ) || self.kind[i] == LineKind::While;
        if opener && !ll.has_colon {
            return Err(BlockError {
                message: "got newline, want ':' (hint: missing colon at the end of 'if/for/def' statement?)".into(),
                line: src_of(lines, ll.last + 1).or(src_of(lines, ll.first)),
                display: display_after(lines, ll.last),
            });
        }
        self.depth[i] = stack.len();
        let blocks = &mut self.blocks;
        self.innermost_def[i] = stack.iter().rev().find(|&&b| blocks[b].is_def).copied();
        if let Some(&b) = stack.last() {
            blocks[b].stmts += 1;
        }
        if let Some(d) = self.innermost_def[i] {
            if (ll.first..=ll.last).any(|p| lines[p].node_instr) {
                blocks[d].uses_tpl = true;
            }
            if blocks[d].first_node.is_none() {
                blocks[d].first_node = (ll.first..=ll.last).find_map(|p| lines[p].start_tag);
            }
        }
        if ll.ends_with_colon {
            if stack.len() >= MAX_BLOCKS as usize {
                return Err(err_here(&format!(
                    "blocks are nested too deeply (more than {MAX_BLOCKS} levels)"
                )));
            }
            blocks.push(Block {
                is_def: matches!(ll.first_tok, Token::Def),
                uses_tpl: false,
                first_node: None,
                stmts: 0,
                opened_at: i,
                collects: self.kind[i] == LineKind::While || matches!(ll.first_tok, Token::For),
            });
            stack.push(blocks.len() - 1);
            self.opens[i] = Some(blocks.len() - 1);
        }
        Ok(())
    }
}

/// The indented program being written, with its line map.
struct Emit<'a> {
    template_id: u32,
    lines: &'a [Line],
    lexed: &'a Lexed,
    shape: &'a Shape,
    out: String,
    line_map: Vec<Option<u32>>,
    line_display: Vec<Option<Arc<str>>>,
    static_errors: Vec<BlockError>,
}

impl Emit<'_> {
    fn push(&mut self, text: &str, src: Option<u32>, display: Option<Arc<str>>) {
        self.out.push_str(text);
        self.out.push('\n');
        self.line_map.push(src);
        self.line_display.push(display);
    }

    /// Writes logical line `i` at its depth, with what its block needs around it.
    fn line(&mut self, i: usize, ll: &LogicalLine) {
        let shape = self.shape;
        let ind = "    ".repeat(shape.depth[i]);
        let src = src_of(self.lines, ll.first);
        if shape.kind[i] == LineKind::End {
            self.end(i, &ind, src);
            return;
        }
        if shape.kind[i] == LineKind::Continuation {
            if let Some(b) = shape.closes[i] {
                if shape.blocks[b].stmts == 0 {
                    self.push(&format!("{ind}    pass"), src, None);
                }
            }
        }
        let collects = shape.opens[i].is_some_and(|b| shape.blocks[b].collects);
        let text = self.rewritten(i, ll);
        if shape.kind[i] == LineKind::While {
            self.while_loop(ll, &ind, &text);
        } else {
            for (k, t) in text.split('\n').enumerate() {
                let phys_src = src_of(self.lines, ll.first + k);
                let d = display_of(self.lines, ll.first + k);
                if k == 0 {
                    self.push(&format!("{ind}{t}"), phys_src, d);
                } else {
                    self.push(t, phys_src, d);
                }
            }
        }
        if collects {
            // an error there (a run stopped for memory) is the loop's, shown as its header
            let d = display_of(self.lines, ll.first);
            self.push(&format!("{ind}    {}()", instr::GC), src, d);
        }
        if let Some(b) = shape.opens[i] {
            if shape.blocks[b].is_def {
                self.def_start(&shape.blocks[b], &ind, src);
            }
        }
    }

    /// An `end`: what closes its block.
    fn end(&mut self, i: usize, ind: &str, src: Option<u32>) {
        let b = &self.shape.blocks[self.shape.closes[i].unwrap_or(0)];
        if b.is_def && b.uses_tpl {
            let ret = format!("{ind}return {}({})", instr::END_CTX, self.template_id);
            self.push(&ret, src, None);
        } else if b.stmts == 0 {
            self.push(&format!("{ind}pass"), src, None);
        }
    }

    /// The source of logical line `i` with its rewrites applied; records the static
    /// errors of its loads.
    fn rewritten(&mut self, i: usize, ll: &LogicalLine) -> String {
        let (shape, lexed, lines) = (self.shape, self.lexed, self.lines);
        let joined = lexed.joined.as_str();
        // A `return` on a line that starts with `def` belongs to that one-line def
        // (`def f(): return x`), which holds no nodes whatever encloses it: only the
        // returns of a def holding nodes end its node context.
        let in_tpl_def = !matches!(ll.first_tok, Token::Def)
            && shape.innermost_def[i].is_some_and(|d| shape.blocks[d].uses_tpl);
        let start = lexed.line_starts[ll.first];
        let end = lexed
            .line_starts
            .get(ll.last + 1)
            .map(|&e| e - 1)
            .unwrap_or(joined.len());
        // loads outside functions: checked statically; rewritten when nested in a block
        // (in a block of several lines, or after the `:` of a one-line `if x: load(…)`)
        let in_def = shape.innermost_def[i].is_some() || matches!(ll.first_tok, Token::Def);
        let loads = ll
            .loads
            .iter()
            .filter(|_| !in_def)
            .filter_map(|l| Some((LoadStmt::parse(&l.toks, joined)?, l.after_colon)));
        let mut rewrites: Vec<(usize, usize, String)> = Vec::new();
        for (load, after_colon) in loads {
            for (_, _, name, at) in &load.names {
                if name.starts_with('_') {
                    self.static_errors.push(BlockError {
                        message: format!(
                            "load: names with leading underscores are not exported: {name}"
                        ),
                        line: src_of(lines, lexed.line_of(*at)),
                        display: display_of(lines, lexed.line_of(*at)),
                    });
                }
            }
            if shape.depth[i] > 0 || after_colon {
                rewrites.push((load.start, load.end, load.as_call()));
            }
        }
        let mut replacements: Vec<(usize, usize, &str)> = ll
            .edits
            .iter()
            .filter(|(_, _, _, is_return)| !*is_return || in_tpl_def)
            .filter(|(at, until, _, _)| !rewrites.iter().any(|(s, e, _)| at >= s && until <= e))
            .map(|(at, until, r, _)| (*at, *until, r.as_str()))
            .chain(rewrites.iter().map(|(s, e, r)| (*s, *e, r.as_str())))
            .collect();
        replacements.sort_by_key(|(at, _, _)| *at);
        let mut text = joined[start..end].to_owned();
        for (at, until, replacement) in replacements.iter().rev() {
            text.replace_range(at - start..until - start, replacement);
        }
        text
    }

    /// `while cond:` → a `for` over an endless iterator, broken when `cond` fails.
    fn while_loop(&mut self, ll: &LogicalLine, ind: &str, text: &str) {
        let lines = self.lines;
        let src = src_of(lines, ll.first);
        let cond = text
            .trim_start()
            .strip_prefix(WHILE_NAME)
            .unwrap_or("")
            .trim()
            .trim_end_matches(':');
        let d = display_of(lines, ll.first);
        self.push(
            &format!("{ind}for _ in {}():", instr::FOREVER),
            src,
            d.clone(),
        );
        // a condition over several lines keeps each of them on its own line
        let test = format!("{ind}    if not ({cond}):");
        for (k, t) in test.split('\n').enumerate() {
            self.push(
                t,
                src_of(lines, ll.first + k),
                display_of(lines, ll.first + k),
            );
        }
        self.push(&format!("{ind}        break"), src, d);
    }

    /// The first statement of a def's body.
    fn def_start(&mut self, b: &Block, ind: &str, src: Option<u32>) {
        let template_id = self.template_id;
        // either statement keeps the body from being inlined (see NO_INLINE)
        let first = if b.uses_tpl {
            // the first node tells what the body returns when the code reaches none of
            // its nodes (an empty map, array, document set or text)
            match b.first_node {
                Some(tag) => format!("{}({template_id}, {tag})", instr::START_CTX),
                None => format!("{}({template_id})", instr::START_CTX),
            }
        } else {
            format!("{} = None", instr::NO_INLINE)
        };
        self.push(&format!("{ind}    {first}"), src, None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn indent(src: &str) -> Indented {
        let lines: Vec<Line> = src
            .lines()
            .enumerate()
            .map(|(i, l)| Line::user(l, i as u32 + 1))
            .collect();
        let mut out = to_indented(0, &lines).unwrap_or_else(|e| panic!("{}", e.message));
        out.code.truncate(out.code.trim_end().len());
        out
    }

    /// A text template's block errors show its code as the reference does: the opening
    /// segment of a block left open, the text after a stray `end`.
    #[test]
    fn text_template_block_errors_show_code_or_the_text_after_it() {
        let text = |s: &str, src: u32| {
            let mut l = Line::instr(format!("__ytt_start_node(0, {src})"), Some(src));
            l.display = Some(Arc::from(s));
            l
        };
        let code = |c: &str, src: u32| {
            let mut l = Line::user(c.trim(), src);
            l.display = Some(Arc::from(c));
            l
        };
        let stray = [code(" x = 1 ", 1), code(" end ", 1), text(" tail\n", 1)];
        let e = to_indented(0, &stray).err().expect("a stray end");
        assert_eq!(
            (e.message.as_str(), e.display.as_deref()),
            ("unexpected end", Some(" tail\n"))
        );
        let open = [code(" if True: ", 2), text("dangling\n", 2)];
        let e = to_indented(0, &open).err().expect("an open block");
        assert_eq!(e.display.as_deref(), Some(" if True: "));
        // `else` without a block, in the reference's words
        let e = to_indented(0, &[code(" else: ", 1)])
            .err()
            .expect("a stray else");
        assert_eq!(
            (e.message.as_str(), e.display.as_deref()),
            ("unexpected end", Some(" else: "))
        );
        // a YAML template shows its lines
        let e = to_indented(0, &[Line::user("end", 3)])
            .err()
            .expect("a stray end");
        assert_eq!((e.line, e.display), (Some(3), None));
    }

    #[test]
    fn a_one_line_def_keeps_its_return_inside_a_def_holding_nodes() {
        let mut lines = vec![
            Line::user("def outer():", 1),
            Line::user("def inner(x): return x", 2),
            Line::instr("__ytt_start_node(0, 1)".into(), Some(3)),
            Line::user("return inner", 4),
            Line::user("end", 5),
        ];
        lines[2].start_tag = Some(1);
        let out = to_indented(0, &lines).unwrap_or_else(|e| panic!("{}", e.message));
        assert_eq!(
            out.code,
            "def outer():\n    __ytt_start_ctx(0, 1)\n    def inner(x): return x\n    \
             __ytt_start_node(0, 1)\n    return __ytt_end_ctx(0,  inner)\n    \
             return __ytt_end_ctx(0)\n"
        );
    }

    #[test]
    fn a_while_condition_over_several_lines_keeps_its_line_map() {
        let out = indent("while (x <\n  3):\n  x += 1\nend\ny = 1\n");
        assert_eq!(
            out.code,
            "for _ in __ytt_forever():\n    if not ((x <\n3)):\n        break\n    \
             __ytt_gc()\n    x += 1\ny = 1"
        );
        assert_eq!(
            out.line_map,
            vec![
                Some(1),
                Some(1),
                Some(2),
                Some(1),
                Some(1),
                Some(3),
                Some(5),
                None
            ]
        );
    }

    #[test]
    fn loops_get_collection_points() {
        let out = indent(
            "for k, v in sorted({\"a\": 1}.items(), key=lambda x: x[0]):\n  for i in [j for j in range(3)]:\n    y = i\n  end\nend\n",
        );
        assert_eq!(
            out.code,
            "for k, v in sorted({\"a\": 1}.items(), key=lambda x: x[0]):\n    \
             __ytt_gc()\n    for i in [j for j in range(3)]:\n        \
             __ytt_gc()\n        y = i"
        );
        // in a function too (the runtime collects only where that is sound)
        let out = indent("def f():\n  for i in l:\n    y = i\n  end\nend\n");
        assert_eq!(
            out.code,
            "def f():\n    __ytt_no_inline = None\n    for i in l:\n        __ytt_gc()\n        y = i"
        );
        // an empty body stays a body
        let out = indent("for i in l:\nend\n");
        assert_eq!(out.code, "for i in l:\n    __ytt_gc()\n    pass");
    }

    #[test]
    fn top_level_load_stays_a_load() {
        let out = indent("load(\"a.star\", \"x\")\ny = x\n");
        assert_eq!(out.code, "load(\"a.star\", \"x\")\ny = x");
    }

    #[test]
    fn load_nested_in_blocks_becomes_a_runtime_call() {
        let out = indent(
            "if c:\n  load(\"a.star\", \"x\")\nelif d:\n  load('b.star', \"x\", y=\"z\")\nelse:\n  for i in l:\n    load(\"c.star\", \"assert\")\n  end\nend\n",
        );
        assert_eq!(
            out.code,
            "if c:\n    x = __ytt_load(\"a.star\", \"x\")\n\
             elif d:\n    x, y = __ytt_load('b.star', \"x\", \"z\")\n\
             else:\n    for i in l:\n        __ytt_gc()\n        \
             _asrt_ = __ytt_load(\"c.star\", \"assert\")"
        );
        assert!(out.static_errors.is_empty());
    }

    #[test]
    fn a_load_over_several_lines_becomes_one_line_at_its_first() {
        let out = indent("if c:\n  load(\"a.star\",\n    \"x\",\n  )  # done\n  y = x\nend\n");
        assert_eq!(
            out.code,
            "if c:\n    x = __ytt_load(\"a.star\", \"x\")  # done\n    y = x"
        );
        assert_eq!(out.line_map, vec![Some(1), Some(2), Some(5)]);
    }

    #[test]
    fn load_in_a_one_line_block_or_after_a_semicolon() {
        let out = indent("if c: load(\"a.star\", \"x\")\nz = 1; load(\"b.star\", \"y\")\n");
        assert_eq!(
            out.code,
            "if c: x = __ytt_load(\"a.star\", \"x\")\nz = 1; load(\"b.star\", \"y\")"
        );
    }

    #[test]
    fn load_inside_a_def_is_left_to_the_parser() {
        let src = "def f():\n  if c:\n    load(\"a.star\", \"_x\")\n  end\nend\n";
        let out = indent(src);
        assert!(
            out.code.contains("    load(\"a.star\", \"_x\")"),
            "{}",
            out.code
        );
        assert!(out.static_errors.is_empty());
    }

    #[test]
    fn names_with_leading_underscores_are_static_errors_wherever_the_load_is() {
        let out =
            indent("load(\"a.star\", \"_a\")\nif False:\n  load(\"b.star\",\n    y=\"_b\")\nend\n");
        let errors: Vec<(&str, Option<u32>)> = out
            .static_errors
            .iter()
            .map(|e| (e.message.as_str(), e.line))
            .collect();
        assert_eq!(
            errors,
            vec![
                (
                    "load: names with leading underscores are not exported: _a",
                    Some(1)
                ),
                (
                    "load: names with leading underscores are not exported: _b",
                    Some(4)
                ),
            ]
        );
    }
}
