//! ytt's block syntax (`if …:` … `end`, indentation ignored) → Python-style indentation,
//! keeping a map from every generated line to its template line.
//!
//! Rewrites done here, on tokens of starlark_syntax's own lexer:
//! - a `def` whose body holds YAML nodes opens its own node context and returns it;
//!   its `return X` becomes `return __ytt_end_ctx(T, X)`; any other `def` first assigns
//!   a dummy local, so that starlark-rust never inlines it (see `instr::NO_INLINE`);
//! - `**expr` in a call becomes `**__ytt_kwargs(expr)`, so structs and fragments splat;
//! - `while cond:` (reserved in starlark-rust) becomes a `for` over an endless iterator;
//! - `pass` in user code is refused, as in the reference;
//! - a `load` nested in top-level `if`/`for`/`else` blocks becomes a runtime call (see
//!   [`LoadStmt`]).

use starlark::syntax::Dialect;
use starlark_syntax::codemap::CodeMap;
use starlark_syntax::lexer::{Lexer, Token};

use std::sync::Arc;

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

/// Stack one level of nesting takes when starlark-rust parses and compiles it: its parser
/// descends recursively and its compiler recurses over the syntax tree, whose left-deep
/// chains (`a or b or c`) are as deep as they are long. Measured on x86_64 with a
/// template holding one expression, as the largest depth that does not overflow the run's
/// stack (`RUN_STACK`, 256 MiB), per level: release build: a chain's operator 2.1 KiB, a
/// parenthesis 1.6, a call 2.9, a lambda 14.4, an `if` block 4.3, a `for` 6, a `def`
/// 8.6; debug build: an operator 25 KiB, a parenthesis 12.5, a list or call 27, a lambda
/// 78, an `if` block 28, a `for` 48, a `def` 53. A level is counted as the larger of
/// these over the build's unit: a lambda takes [`LAMBDA_LEVELS`], a block
/// [`BLOCK_LEVELS`].
#[cfg(not(target_arch = "wasm32"))]
const LEVEL_STACK: usize = if cfg!(debug_assertions) {
    32 << 10
} else {
    4 << 10
};

/// How deep code may nest, in levels of [`LEVEL_STACK`] (see [`Nesting`]): a quarter of the
/// run's stack, the rest being what the run holds when it compiles (library loads, the
/// evaluation around a `load()`). 16,384 levels in a release build, 2,048 in a debug one
/// (the reference, whose stacks grow, renders 100,000).
#[cfg(not(target_arch = "wasm32"))]
pub const MAX_NESTING: u32 = (crate::cores::RUN_STACK / 4 / LEVEL_STACK) as u32;

/// WebAssembly's calls run on the host's own stack, whatever stack the module is linked
/// with (that one holds only what Rust keeps in memory): V8's, 984 KiB in node and about
/// half as much in a Chromium Worker (where the playground runs). Measured with the
/// playground's build, a parenthesis takes 0.6 KiB of it (832 fit in Chromium's Worker,
/// 1,600 in node), a list 0.5; calls, operators, lambdas and blocks less than their counts
/// below.
#[cfg(target_arch = "wasm32")]
const LEVEL_STACK: usize = 1 << 10;

/// How deep code may nest on WebAssembly: a Chromium Worker's stack (512 KiB) over
/// [`LEVEL_STACK`], 512 levels, which leaves more than a third of it to the rest of the run.
#[cfg(target_arch = "wasm32")]
pub const MAX_NESTING: u32 = ((512 << 10) / LEVEL_STACK) as u32;

/// The levels a `lambda` takes (its body is compiled as a function of its own).
const LAMBDA_LEVELS: u32 = 4;

/// The levels an `if`/`for`/`def`/`while` block takes: statements nest in starlark-rust's
/// parser and compiler as expressions do, and an expression inside blocks nests on top.
const BLOCK_LEVELS: u32 = 3;

/// How deep blocks may nest.
pub const MAX_BLOCKS: u32 = MAX_NESTING / BLOCK_LEVELS;

/// An upper bound on the depth of an expression's syntax tree, from its tokens. At each
/// open bracket (the first level: outside any), since the last `,`: a level per operator,
/// call, index or attribute access (a chain `a + b + c` is a left-deep tree, as deep as
/// it is long; a `lambda` counts [`LAMBDA_LEVELS`]), on top of the deepest bracket closed
/// there (`(a or b)()()` nests the calls over the parenthesis); plus a level per bracket.
#[derive(Default)]
struct Nesting {
    /// Per open bracket: operators, and the depth of the deepest bracket closed, since the
    /// last separator.
    levels: Vec<(u32, u32)>,
    sum: u32,
}

impl Nesting {
    fn reset(&mut self) {
        self.levels.clear();
        self.sum = 0;
    }

    fn level(&mut self) -> &mut (u32, u32) {
        if self.levels.is_empty() {
            self.levels.push((0, 0));
        }
        let last = self.levels.len() - 1;
        &mut self.levels[last]
    }

    fn add(&mut self, n: u32) {
        self.level().0 += n;
        self.sum += n;
    }

    /// Takes `tok` (after `prev`); the depth reached.
    fn token(&mut self, tok: &Token, prev: Option<&Token>) -> u32 {
        let after_operand = matches!(
            prev,
            Some(
                Token::Identifier(_)
                    | Token::ClosingRound
                    | Token::ClosingSquare
                    | Token::ClosingCurly
                    | Token::Int(_)
                    | Token::Float(_)
                    | Token::String(_)
            )
        );
        match tok {
            Token::OpeningRound | Token::OpeningSquare | Token::OpeningCurly => {
                if after_operand {
                    // a call or an index
                    self.add(1);
                }
                self.level();
                self.levels.push((0, 0));
                self.sum += 1;
            }
            Token::ClosingRound | Token::ClosingSquare | Token::ClosingCurly
                if self.levels.len() > 1 =>
            {
                let (ops, inner) = self.levels.pop().unwrap_or_default();
                let depth = ops + inner + 1;
                self.sum -= depth;
                let outer = self.level();
                let deeper = depth.saturating_sub(outer.1);
                outer.1 += deeper;
                self.sum += deeper;
            }
            Token::Comma => {
                let (ops, inner) = std::mem::take(self.level());
                self.sum -= ops + inner;
            }
            Token::Lambda => self.add(LAMBDA_LEVELS),
            Token::Plus
            | Token::Minus
            | Token::Star
            | Token::StarStar
            | Token::Slash
            | Token::SlashSlash
            | Token::Percent
            | Token::EqualEqual
            | Token::BangEqual
            | Token::LessThan
            | Token::GreaterThan
            | Token::LessEqual
            | Token::GreaterEqual
            | Token::Pipe
            | Token::Ampersand
            | Token::Caret
            | Token::LessLess
            | Token::GreaterGreater
            | Token::Tilde
            | Token::And
            | Token::Or
            | Token::Not
            | Token::In
            | Token::If
            | Token::Else
            | Token::Dot => self.add(1),
            _ => {}
        }
        self.sum
    }
}

/// What `assert` and `while` (reserved words in starlark-rust) are renamed to before
/// lexing: names of the same length, so every offset stays valid.
const ASSERT_NAME: &str = "_asrt_";
const WHILE_NAME: &str = "_whl_";

enum LexFailure {
    Block(BlockError),
    /// A reserved word we rename, at this offset of the joined source.
    Reserved(usize, &'static str),
}

impl From<BlockError> for LexFailure {
    fn from(e: BlockError) -> Self {
        LexFailure::Block(e)
    }
}

pub(crate) struct Indented {
    pub code: String,
    pub line_map: Vec<Option<u32>>,
    pub line_display: Vec<Option<Arc<str>>>,
    /// Static errors the reference finds after parsing, before running anything.
    pub static_errors: Vec<BlockError>,
}

struct LogicalLine {
    first: usize,
    last: usize,
    first_tok: Token,
    first_word: String,
    /// End of the first token.
    first_end: usize,
    /// A `:` outside brackets (a block header, or a one-line `if x: y`).
    has_colon: bool,
    ends_with_colon: bool,
    /// Rewrites of the joined source: (start, end, replacement, part of a `return`
    /// rewrite); insertions have start == end.
    edits: Vec<(usize, usize, String, bool)>,
    /// The `load` statements of the line.
    loads: Vec<LoadToks>,
    /// The iterable of a `for` header: its start and end.
    loop_iter: Option<(usize, usize)>,
}

impl LogicalLine {
    /// The blocks open after this line, `open` before it: an `if`/`for`/`def`/`while`
    /// header opens one, `end` closes one, `else:`/`elif …:` closes one and opens one.
    fn blocks_after(&self, open: u32) -> u32 {
        if self.first_word == "end" && matches!(self.first_tok, Token::Identifier(_)) {
            open.saturating_sub(1)
        } else if self.ends_with_colon
            && (matches!(self.first_tok, Token::If | Token::For | Token::Def)
                || self.first_word == WHILE_NAME)
        {
            open + 1
        } else {
            open
        }
    }
}

/// The tokens of a `load` statement: token, start and end offsets in the joined source.
struct LoadToks {
    /// After the `:` of a one-line block (`if x: load(…)`).
    after_colon: bool,
    toks: Vec<(Token, usize, usize)>,
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
    /// A loop outside any function: its body may collect garbage (see `instr::GC`).
    collects: bool,
}

pub(crate) fn to_indented(template_id: u32, lines: &[Line]) -> Result<Indented, BlockError> {
    let src_of = |phys: usize| lines.get(phys).and_then(|l| l.src);
    // Leading whitespace is not significant in ytt code, except inside a string that
    // continues over several lines: lex once with every line trimmed, and again keeping
    // the lines found inside strings as they are.
    let mut keep = vec![false; lines.len()];
    let mut renames: Vec<(usize, usize, &'static str)> = Vec::new();
    let (joined, line_starts, logical) = loop {
        let (joined, line_starts) = join_lines(lines, &keep, &renames);
        let line_of = |off: usize| line_starts.partition_point(|&s| s <= off).saturating_sub(1);
        // is this offset of the joined source in user code?
        let user_at = |off: usize| {
            let phys = line_of(off);
            let code = &lines[phys].code;
            let trimmed = if keep[phys] {
                0
            } else {
                code.len() - code.trim_start().len()
            };
            lines[phys]
                .user_from
                .is_some_and(|from| off - line_starts[phys] + trimmed >= from)
        };
        match lex_logical_lines(template_id, &joined, &line_of, &src_of, &user_at) {
            Ok((logical, in_strings)) => {
                if in_strings.iter().all(|&l| keep[l]) {
                    break (joined, line_starts, logical);
                }
                for l in in_strings {
                    keep[l] = true;
                }
            }
            Err(LexFailure::Block(e)) => return Err(e),
            Err(LexFailure::Reserved(offset, name)) => {
                let phys = line_of(offset);
                let code = &lines[phys].code;
                let trimmed = if keep[phys] {
                    0
                } else {
                    code.len() - code.trim_start().len()
                };
                let col = offset - line_starts[phys] + trimmed;
                if renames.contains(&(phys, col, name)) {
                    return Err(BlockError {
                        message: format!("use of reserved keyword at column {col}"),
                        line: src_of(phys),
                        display: None,
                    });
                }
                renames.push((phys, col, name));
            }
        }
    };

    let line_of = |off: usize| line_starts.partition_point(|&s| s <= off).saturating_sub(1);

    // Block structure.
    let mut blocks: Vec<Block> = Vec::new();
    let mut stack: Vec<usize> = Vec::new();
    let mut depth = vec![0usize; logical.len()];
    let mut kind = vec![LineKind::Normal; logical.len()];
    let mut innermost_def: Vec<Option<usize>> = vec![None; logical.len()];
    let mut opens: Vec<Option<usize>> = vec![None; logical.len()];
    let mut closes: Vec<Option<usize>> = vec![None; logical.len()];
    // A text template's report shows a statement as its `(@ @)` code; an error found at
    // the end of the statement (a stray `end`, a missing colon), as the text that follows
    // it up to the next code (nothing when code follows). A YAML template's shows lines.
    let own = |phys: usize| lines[phys].display.clone();
    let after = |phys: usize| {
        lines[phys].display.as_ref()?;
        Some(match lines.get(phys + 1) {
            Some(next) if next.node_instr && next.user_from.is_none() => {
                next.display.clone().unwrap_or_else(|| Arc::from(""))
            }
            _ => Arc::from(""),
        })
    };
    for (i, ll) in logical.iter().enumerate() {
        let err_here = |message: &str| BlockError {
            message: message.to_owned(),
            line: src_of(ll.first),
            display: own(ll.first),
        };
        if ll.first_word == "end" && matches!(ll.first_tok, Token::Identifier(_)) {
            kind[i] = LineKind::End;
            let b = stack.pop().ok_or_else(|| BlockError {
                display: after(ll.last),
                ..err_here("unexpected end")
            })?;
            closes[i] = Some(b);
            depth[i] = stack.len() + 1;
            continue;
        }
        if matches!(ll.first_tok, Token::Else | Token::Elif) {
            kind[i] = LineKind::Continuation;
            // the reference's words for an `else` or `elif` that closes no block
            let b = stack.pop().ok_or_else(|| err_here("unexpected end"))?;
            closes[i] = Some(b);
        }
        if ll.first_word == WHILE_NAME {
            kind[i] = LineKind::While;
        }
        let opener = matches!(
            ll.first_tok,
            Token::If | Token::For | Token::Def | Token::Elif | Token::Else
        ) || kind[i] == LineKind::While;
        if opener && !ll.has_colon {
            return Err(BlockError {
                message: "got newline, want ':' (hint: missing colon at the end of 'if/for/def' statement?)".into(),
                line: src_of(ll.last + 1).or(src_of(ll.first)),
                display: after(ll.last),
            });
        }
        depth[i] = stack.len();
        innermost_def[i] = stack.iter().rev().find(|&&b| blocks[b].is_def).copied();
        if let Some(&b) = stack.last() {
            blocks[b].stmts += 1;
        }
        if let Some(d) = innermost_def[i] {
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
                collects: innermost_def[i].is_none()
                    && (kind[i] == LineKind::While || ll.loop_iter.is_some()),
            });
            stack.push(blocks.len() - 1);
            opens[i] = Some(blocks.len() - 1);
        }
    }
    if let Some(&b) = stack.last() {
        return Err(BlockError {
            message: "mismatched set of block openings (if/else/elif/for/def) and closing (end)"
                .into(),
            line: src_of(logical[blocks[b].opened_at].first),
            display: own(logical[blocks[b].opened_at].first),
        });
    }

    // Emit.
    let mut out = String::with_capacity(joined.len() * 2);
    let mut line_map = Vec::with_capacity(lines.len() + 16);
    let mut line_display = Vec::with_capacity(lines.len() + 16);
    let display_of = |phys: usize| lines.get(phys).and_then(|l| l.display.clone());
    let mut static_errors = Vec::new();
    let loop_open = format!("{}(", instr::LOOP);
    let mut push = |text: &str, src: Option<u32>, display: Option<Arc<str>>| {
        out.push_str(text);
        out.push('\n');
        line_map.push(src);
        line_display.push(display);
    };
    for (i, ll) in logical.iter().enumerate() {
        let ind = "    ".repeat(depth[i]);
        let src = src_of(ll.first);
        if kind[i] == LineKind::End {
            let b = &blocks[closes[i].unwrap_or(0)];
            if b.is_def && b.uses_tpl {
                push(
                    &format!("{ind}return {}({template_id})", instr::END_CTX),
                    src,
                    None,
                );
            } else if b.stmts == 0 {
                push(&format!("{ind}pass"), src, None);
            }
            if b.collects {
                let outer = "    ".repeat(depth[i].saturating_sub(1));
                push(&format!("{outer}{}()", instr::LOOP_END), src, None);
            }
            continue;
        }
        if kind[i] == LineKind::Continuation {
            if let Some(b) = closes[i] {
                if blocks[b].stmts == 0 {
                    push(&format!("{ind}    pass"), src, None);
                }
            }
        }
        // A `return` on a line that starts with `def` belongs to that one-line def
        // (`def f(): return x`), which holds no nodes whatever encloses it: only the
        // returns of a def holding nodes end its node context.
        let in_tpl_def = !matches!(ll.first_tok, Token::Def)
            && innermost_def[i].is_some_and(|d| blocks[d].uses_tpl);
        let start = line_starts[ll.first];
        let end = line_starts
            .get(ll.last + 1)
            .map(|&e| e - 1)
            .unwrap_or(joined.len());
        // loads outside functions: checked statically; rewritten when nested in a block
        // (in a block of several lines, or after the `:` of a one-line `if x: load(…)`)
        let in_def = innermost_def[i].is_some() || matches!(ll.first_tok, Token::Def);
        let loads = ll
            .loads
            .iter()
            .filter(|_| !in_def)
            .filter_map(|l| Some((LoadStmt::parse(&l.toks, &joined)?, l.after_colon)));
        let mut rewrites: Vec<(usize, usize, String)> = Vec::new();
        for (load, after_colon) in loads {
            for (_, _, name, at) in &load.names {
                if name.starts_with('_') {
                    static_errors.push(BlockError {
                        message: format!(
                            "load: names with leading underscores are not exported: {name}"
                        ),
                        line: src_of(line_of(*at)),
                        display: display_of(line_of(*at)),
                    });
                }
            }
            if depth[i] > 0 || after_colon {
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
        // a loop that collects garbage tells the runtime what it iterates over
        let collects = opens[i].is_some_and(|b| blocks[b].collects);
        if let (true, Some((from, to))) = (collects, ll.loop_iter) {
            replacements.push((from, from, loop_open.as_str()));
            replacements.push((to, to, ")"));
        }
        replacements.sort_by_key(|(at, _, _)| *at);
        let mut text = joined[start..end].to_owned();
        for (at, until, replacement) in replacements.iter().rev() {
            text.replace_range(at - start..until - start, replacement);
        }
        if kind[i] == LineKind::While {
            let cond = text
                .trim_start()
                .strip_prefix(WHILE_NAME)
                .unwrap_or("")
                .trim()
                .trim_end_matches(':')
                .to_owned();
            let d = display_of(ll.first);
            let forever = format!("{}()", instr::FOREVER);
            let over = if collects {
                format!("{}({forever})", instr::LOOP)
            } else {
                forever
            };
            push(&format!("{ind}for _ in {over}:"), src, d.clone());
            // a condition over several lines keeps each of them on its own line
            let test = format!("{ind}    if not ({cond}):");
            for (k, t) in test.split('\n').enumerate() {
                push(t, src_of(ll.first + k), display_of(ll.first + k));
            }
            push(&format!("{ind}        break"), src, d);
        } else {
            for (k, t) in text.split('\n').enumerate() {
                let phys_src = src_of(ll.first + k);
                let d = display_of(ll.first + k);
                if k == 0 {
                    push(&format!("{ind}{t}"), phys_src, d);
                } else {
                    push(t, phys_src, d);
                }
            }
        }
        if collects {
            // an error there (a run stopped for memory) is the loop's, shown as its header
            push(
                &format!("{ind}    {}()", instr::GC),
                src,
                display_of(ll.first),
            );
        }
        if let Some(b) = opens[i] {
            if blocks[b].is_def {
                // either statement keeps the body from being inlined (see NO_INLINE)
                let first = if blocks[b].uses_tpl {
                    // the first node tells what the body returns when the code reaches
                    // none of its nodes (an empty map, array, document set or text)
                    match blocks[b].first_node {
                        Some(tag) => format!("{}({template_id}, {tag})", instr::START_CTX),
                        None => format!("{}({template_id})", instr::START_CTX),
                    }
                } else {
                    format!("{} = None", instr::NO_INLINE)
                };
                push(&format!("{ind}    {first}"), src, None);
            }
        }
    }
    Ok(Indented {
        code: out,
        line_map,
        line_display,
        static_errors,
    })
}

fn join_lines(
    lines: &[Line],
    keep: &[bool],
    renames: &[(usize, usize, &'static str)],
) -> (String, Vec<usize>) {
    let mut joined = String::new();
    let mut line_starts = Vec::with_capacity(lines.len());
    for (i, (l, keep)) in lines.iter().zip(keep).enumerate() {
        line_starts.push(joined.len());
        let mut code = std::borrow::Cow::Borrowed(l.code.as_str());
        for (_, col, name) in renames.iter().filter(|(p, _, _)| *p == i) {
            if code.get(*col..col + name.len()).is_some() {
                code.to_mut().replace_range(*col..col + name.len(), name);
            }
        }
        joined.push_str(if *keep { &code } else { code.trim_start() });
        joined.push('\n');
    }
    (joined, line_starts)
}

/// Groups tokens into logical lines; also returns the physical lines that continue a
/// string literal begun on an earlier line.
fn lex_logical_lines(
    template_id: u32,
    joined: &str,
    line_of: &dyn Fn(usize) -> usize,
    src_of: &dyn Fn(usize) -> Option<u32>,
    user_at: &dyn Fn(usize) -> bool,
) -> Result<(Vec<LogicalLine>, Vec<usize>), LexFailure> {
    let mut in_strings = Vec::new();
    let codemap = CodeMap::new("template".into(), joined.to_owned());
    let lexer = Lexer::new(joined, &Dialect::Standard, codemap);
    let mut logical: Vec<LogicalLine> = Vec::new();
    let mut cur: Option<LogicalLine> = None;
    let mut last_sig: Option<Token> = None;
    let mut prev_tok: Option<Token> = None;
    // an open `return`: byte offset of its end, and the bracket depth it is at
    let mut pending_return: Option<usize> = None;
    // `**` splats being wrapped: (start of the expression, bracket depth of the call)
    let mut pending_kwargs: Vec<(usize, i32)> = Vec::new();
    let mut depth: i32 = 0;
    // end of the last significant token (a statement ends there, not after a comment)
    let mut last_end: usize = 0;
    // inside a def's parameter list or a lambda's parameters: `**kw` is a parameter there
    let mut param_depth: Option<i32> = None;
    let mut lambda_depth: Option<i32> = None;
    // inside a `load(…)` statement
    let mut in_load = false;
    let mut nesting = Nesting::default();
    // blocks open around the current line, counted as the block pass counts them
    let mut blocks_open: u32 = 0;
    // in a `for` header after its `in`: where the iterable starts, once it does
    let mut for_in: Option<Option<usize>> = None;

    for lexeme in lexer {
        let (s, tok, e) = lexeme.map_err(|err| {
            let err = err.into_error();
            let msg = err.without_diagnostic().to_string();
            let offset = err.span().map(|sp| sp.span.begin().get() as usize);
            for (word, name) in [("assert", ASSERT_NAME), ("while", WHILE_NAME)] {
                if msg.ends_with(&format!("reserved keyword `{word}`")) {
                    if let Some(o) = offset {
                        return LexFailure::Reserved(o, name);
                    }
                }
            }
            LexFailure::Block(BlockError {
                message: msg,
                line: offset.map(line_of).and_then(src_of),
                display: None,
            })
        })?;
        match tok {
            Token::Indent | Token::Dedent | Token::Comment(_) | Token::Tabs => continue,
            Token::Newline | Token::Semicolon => {
                if let Some(c) = cur.as_mut() {
                    let stmt_end = last_end.max(c.first_end).min(s);
                    for (ks, _) in pending_kwargs.drain(..) {
                        close_kwargs(c, ks, stmt_end);
                    }
                    if let Some(r) = pending_return.take() {
                        push_return_edits(c, template_id, joined, r, stmt_end.max(r));
                    }
                }
                if matches!(tok, Token::Semicolon) {
                    prev_tok = Some(tok);
                    continue;
                }
                if let Some(mut c) = cur.take() {
                    c.ends_with_colon = matches!(last_sig, Some(Token::Colon));
                    blocks_open = c.blocks_after(blocks_open);
                    logical.push(c);
                }
                last_sig = None;
                prev_tok = None;
                depth = 0;
                in_load = false;
                for_in = None;
                nesting.reset();
                continue;
            }
            Token::String(_) => {
                let (first, last) = (line_of(s), line_of(e.saturating_sub(1)));
                in_strings.extend(first + 1..=last);
            }
            Token::Pass => {
                return Err(BlockError {
                    message: "use of reserved keyword 'pass' is not allowed".into(),
                    line: src_of(line_of(s)),
                    display: None,
                }
                .into())
            }
            _ => {}
        }
        if let Token::Identifier(name) = &tok {
            if instr::is_reserved(name) && user_at(s) {
                return Err(BlockError {
                    message: format!("{name} is a name reserved for the code ytt generates"),
                    line: src_of(line_of(s)),
                    display: None,
                }
                .into());
            }
        }
        if cur.is_none() {
            cur = Some(LogicalLine {
                first: line_of(s),
                last: line_of(s),
                first_tok: tok.clone(),
                first_word: joined[s..e].to_owned(),
                first_end: e,
                has_colon: false,
                ends_with_colon: false,
                edits: Vec::new(),
                loads: Vec::new(),
                loop_iter: None,
            });
        }
        let Some(c) = cur.as_mut() else { continue };
        c.last = line_of(e.saturating_sub(1).max(s));
        // an expression nests on top of the blocks around it (blocks too deep on their own
        // are the block pass's error, at their opening line)
        let allowed = MAX_NESTING.saturating_sub(BLOCK_LEVELS * blocks_open);
        if nesting.token(&tok, prev_tok.as_ref()) > allowed && blocks_open < MAX_BLOCKS {
            return Err(BlockError {
                message: format!("expression is nested too deeply (more than {allowed} levels)"),
                line: src_of(line_of(s)),
                display: None,
            }
            .into());
        }
        // a statement starts at the line's start, after `;` or after a one-line block's `:`
        let stmt_start = matches!(prev_tok, None | Some(Token::Semicolon | Token::Colon));
        if matches!(tok, Token::Load) && depth == 0 && stmt_start {
            c.loads.push(LoadToks {
                after_colon: matches!(prev_tok, Some(Token::Colon)),
                toks: Vec::new(),
            });
            in_load = true;
        }
        if in_load {
            if let Some(l) = c.loads.last_mut() {
                l.toks.push((tok.clone(), s, e));
            }
        }
        if let Some(start @ None) = &mut for_in {
            *start = Some(s);
        }
        match tok {
            Token::OpeningRound | Token::OpeningSquare | Token::OpeningCurly => depth += 1,
            Token::ClosingRound | Token::ClosingSquare | Token::ClosingCurly => {
                // a `**expr` ends at the bracket closing its call
                while let Some(&(ks, d)) = pending_kwargs.last() {
                    if d == depth {
                        pending_kwargs.pop();
                        close_kwargs(c, ks, s);
                    } else {
                        break;
                    }
                }
                depth -= 1;
                if param_depth == Some(depth) {
                    param_depth = None;
                }
            }
            Token::Comma => {
                if let Some(&(ks, d)) = pending_kwargs.last() {
                    if d == depth {
                        pending_kwargs.pop();
                        close_kwargs(c, ks, s);
                    }
                }
            }
            Token::Def => param_depth = Some(depth),
            Token::Lambda => lambda_depth = Some(depth),
            Token::Colon if lambda_depth == Some(depth) => lambda_depth = None,
            Token::Colon if depth == 0 => {
                c.has_colon = true;
                if let Some(Some(start)) = for_in.take() {
                    c.loop_iter = Some((start, s));
                }
            }
            Token::In
                if depth == 0 && matches!(c.first_tok, Token::For) && c.loop_iter.is_none() =>
            {
                for_in = Some(None);
            }
            Token::Return => pending_return = Some(e),
            // `load("@ytt:assert", "assert")` binds the renamed name
            Token::String(ref name)
                if name == "assert" && in_load && matches!(prev_tok, Some(Token::Comma)) =>
            {
                c.edits
                    .push((s, e, format!("{ASSERT_NAME}=\"assert\""), false));
            }
            Token::StarStar => {
                let is_param = param_depth.is_some() || lambda_depth.is_some();
                let after_operand = matches!(
                    prev_tok,
                    Some(
                        Token::Identifier(_)
                            | Token::ClosingRound
                            | Token::ClosingSquare
                            | Token::ClosingCurly
                            | Token::Int(_)
                            | Token::Float(_)
                            | Token::String(_)
                    )
                );
                if !is_param && !after_operand {
                    pending_kwargs.push((e, depth));
                }
            }
            _ => {}
        }
        if in_load && matches!(tok, Token::ClosingRound) && depth == 0 {
            in_load = false;
        }
        last_sig = Some(tok.clone());
        prev_tok = Some(tok);
        last_end = e;
    }
    if let Some(mut c) = cur.take() {
        let end = last_end;
        for (ks, _) in pending_kwargs.drain(..) {
            close_kwargs(&mut c, ks, end);
        }
        if let Some(r) = pending_return.take() {
            push_return_edits(&mut c, template_id, joined, r, end);
        }
        c.ends_with_colon = matches!(last_sig, Some(Token::Colon));
        logical.push(c);
    }
    for c in &mut logical {
        c.edits.sort_by_key(|(at, _, _, _)| *at);
    }
    Ok((logical, in_strings))
}

fn close_kwargs(c: &mut LogicalLine, expr_start: usize, expr_end: usize) {
    c.edits
        .push((expr_start, expr_start, format!("{}(", instr::KWARGS), false));
    c.edits.push((expr_end, expr_end, ")".to_owned(), false));
}

/// `return X` → `return __ytt_end_ctx(T, X)`; applied only inside defs holding nodes.
fn push_return_edits(
    c: &mut LogicalLine,
    template_id: u32,
    joined: &str,
    after_return: usize,
    stmt_end: usize,
) {
    if joined[after_return..stmt_end].trim().is_empty() {
        // a bare `return` in a function holding nodes returns the nodes so far
        c.edits.push((
            after_return,
            after_return,
            format!(" {}({template_id})", instr::END_CTX),
            true,
        ));
    } else {
        c.edits.push((
            after_return,
            after_return,
            format!(" {}({template_id}, ", instr::END_CTX),
            true,
        ));
        c.edits.push((stmt_end, stmt_end, ")".to_owned(), true));
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
            "for _ in __ytt_loop(__ytt_forever()):\n    if not ((x <\n3)):\n        break\n    \
             __ytt_gc()\n    x += 1\n__ytt_loop_end()\ny = 1"
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
                Some(4),
                Some(5),
                None
            ]
        );
    }

    #[test]
    fn loops_outside_functions_get_collection_points() {
        let out = indent(
            "for k, v in sorted({\"a\": 1}.items(), key=lambda x: x[0]):\n  for i in [j for j in range(3)]:\n    y = i\n  end\nend\n",
        );
        assert_eq!(
            out.code,
            "for k, v in __ytt_loop(sorted({\"a\": 1}.items(), key=lambda x: x[0])):\n    \
             __ytt_gc()\n    for i in __ytt_loop([j for j in range(3)]):\n        \
             __ytt_gc()\n        y = i\n    __ytt_loop_end()\n__ytt_loop_end()"
        );
        // in a function: no collection (its caller's values are not visible)
        let out = indent("def f():\n  for i in l:\n    y = i\n  end\nend\n");
        assert_eq!(
            out.code,
            "def f():\n    __ytt_no_inline = None\n    for i in l:\n        y = i"
        );
        // an empty body stays a body
        let out = indent("for i in l:\nend\n");
        assert_eq!(
            out.code,
            "for i in __ytt_loop(l):\n    __ytt_gc()\n    pass\n__ytt_loop_end()"
        );
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
             else:\n    for i in __ytt_loop(l):\n        __ytt_gc()\n        \
             _asrt_ = __ytt_load(\"c.star\", \"assert\")\n    __ytt_loop_end()"
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
