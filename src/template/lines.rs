//! Template code → logical lines, on tokens of starlark_syntax's own lexer: each
//! statement's physical lines, what its first token is, whether it opens a block, and the
//! rewrites its tokens call for (see `blocks` for what they are and why):
//! - `**expr` in a call becomes `**__ytt_kwargs(expr)`;
//! - `return X` is marked, to become `return __ytt_end_ctx(T, X)` in a def holding nodes;
//! - `assert` and `while` (reserved words in starlark-rust) are renamed before lexing;
//! - `pass` and the names reserved for generated code are refused;
//! - the `load` statements are collected, and expressions kept within [`MAX_NESTING`].

use starlark::syntax::Dialect;
use starlark_syntax::codemap::CodeMap;
use starlark_syntax::lexer::{Lexer, Token};

use super::blocks::BlockError;
use super::nesting::{ends_operand, Nesting, BLOCK_LEVELS, MAX_BLOCKS, MAX_NESTING};
use super::{instr, Line};

/// What `assert` and `while` (reserved words in starlark-rust) are renamed to before
/// lexing: names of the same length, so every offset stays valid.
pub(crate) const ASSERT_NAME: &str = "_asrt_";
pub(crate) const WHILE_NAME: &str = "_whl_";

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

pub(super) struct LogicalLine {
    pub first: usize,
    pub last: usize,
    pub first_tok: Token,
    pub first_word: String,
    /// End of the first token.
    first_end: usize,
    /// A `:` outside brackets (a block header, or a one-line `if x: y`).
    pub has_colon: bool,
    pub ends_with_colon: bool,
    /// Rewrites of the joined source: (start, end, replacement, part of a `return`
    /// rewrite); insertions have start == end.
    pub edits: Vec<(usize, usize, String, bool)>,
    /// The `load` statements of the line.
    pub loads: Vec<LoadToks>,
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
pub(super) struct LoadToks {
    /// After the `:` of a one-line block (`if x: load(…)`).
    pub after_colon: bool,
    pub toks: Vec<(Token, usize, usize)>,
}

/// A template's code lexed: the physical lines joined, where each starts, and the logical
/// lines.
pub(super) struct Lexed {
    pub joined: String,
    pub line_starts: Vec<usize>,
    pub logical: Vec<LogicalLine>,
}

impl Lexed {
    /// The physical line an offset of the joined source is on.
    pub fn line_of(&self, off: usize) -> usize {
        line_of(&self.line_starts, off)
    }
}

fn line_of(line_starts: &[usize], off: usize) -> usize {
    line_starts.partition_point(|&s| s <= off).saturating_sub(1)
}

/// Lexes a template's code lines into logical lines.
pub(super) fn lex(template_id: u32, lines: &[Line]) -> Result<Lexed, BlockError> {
    let src_of = |phys: usize| lines.get(phys).and_then(|l| l.src);
    // Leading whitespace is not significant in ytt code, except inside a string that
    // continues over several lines: lex once with every line trimmed, and again keeping
    // the lines found inside strings as they are.
    let mut keep = vec![false; lines.len()];
    let mut renames: Vec<(usize, usize, &'static str)> = Vec::new();
    loop {
        let (joined, line_starts) = join_lines(lines, &keep, &renames);
        let line_of = |off: usize| line_of(&line_starts, off);
        // the column in the template line of an offset of the joined source
        let col_of = |off: usize| {
            let phys = line_of(off);
            let code = &lines[phys].code;
            let trimmed = if keep[phys] {
                0
            } else {
                code.len() - code.trim_start().len()
            };
            (phys, off - line_starts[phys] + trimmed)
        };
        // is this offset of the joined source in user code?
        let user_at = |off: usize| {
            let (phys, col) = col_of(off);
            lines[phys].user_from.is_some_and(|from| col >= from)
        };
        match lex_logical_lines(template_id, &joined, &line_of, &src_of, &user_at) {
            Ok((logical, in_strings)) => {
                if in_strings.iter().all(|&l| keep[l]) {
                    return Ok(Lexed {
                        joined,
                        line_starts,
                        logical,
                    });
                }
                for l in in_strings {
                    keep[l] = true;
                }
            }
            Err(LexFailure::Block(e)) => return Err(e),
            Err(LexFailure::Reserved(offset, name)) => {
                let (phys, col) = col_of(offset);
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
    }
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
    let codemap = CodeMap::new("template".into(), joined.to_owned());
    let lexer = Lexer::new(joined, &Dialect::Standard, codemap);
    let mut state = LineLexer {
        template_id,
        joined,
        line_of,
        src_of,
        user_at,
        in_strings: Vec::new(),
        logical: Vec::new(),
        cur: None,
        last_sig: None,
        prev_tok: None,
        pending_return: None,
        pending_kwargs: Vec::new(),
        depth: 0,
        last_end: 0,
        param_depth: None,
        lambda_depth: None,
        in_load: false,
        nesting: Nesting::default(),
        blocks_open: 0,
    };
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
        state.token(s, tok, e)?;
    }
    Ok(state.finish())
}

/// The state of [`lex_logical_lines`] between tokens.
struct LineLexer<'a> {
    template_id: u32,
    joined: &'a str,
    line_of: &'a dyn Fn(usize) -> usize,
    src_of: &'a dyn Fn(usize) -> Option<u32>,
    user_at: &'a dyn Fn(usize) -> bool,
    in_strings: Vec<usize>,
    logical: Vec<LogicalLine>,
    cur: Option<LogicalLine>,
    last_sig: Option<Token>,
    prev_tok: Option<Token>,
    /// An open `return`: byte offset of its end.
    pending_return: Option<usize>,
    /// `**` splats being wrapped: (start of the expression, bracket depth of the call).
    pending_kwargs: Vec<(usize, i32)>,
    depth: i32,
    /// End of the last significant token (a statement ends there, not after a comment).
    last_end: usize,
    /// Inside a def's parameter list or a lambda's parameters: `**kw` is a parameter there.
    param_depth: Option<i32>,
    lambda_depth: Option<i32>,
    /// Inside a `load(…)` statement.
    in_load: bool,
    nesting: Nesting,
    /// Blocks open around the current line, counted as the block pass counts them.
    blocks_open: u32,
}

impl LineLexer<'_> {
    /// Takes one token, from offset `s` to `e` of the joined source.
    fn token(&mut self, s: usize, tok: Token, e: usize) -> Result<(), LexFailure> {
        match tok {
            Token::Indent | Token::Dedent | Token::Comment(_) | Token::Tabs => return Ok(()),
            Token::Newline | Token::Semicolon => {
                self.end_statement(s, matches!(tok, Token::Semicolon));
                return Ok(());
            }
            _ => {}
        }
        self.screen(s, &tok, e)?;
        self.begin_line(s, &tok, e)?;
        self.track_load(s, &tok, e);
        self.structure(s, &tok, e);
        if self.in_load && matches!(tok, Token::ClosingRound) && self.depth == 0 {
            self.in_load = false;
        }
        self.last_sig = Some(tok.clone());
        self.prev_tok = Some(tok);
        self.last_end = e;
        Ok(())
    }

    /// A newline or `;` at `s`: closes the statement's pending rewrites, and at a newline
    /// the logical line.
    fn end_statement(&mut self, s: usize, semicolon: bool) {
        if let Some(c) = self.cur.as_mut() {
            let stmt_end = self.last_end.max(c.first_end).min(s);
            for (ks, _) in self.pending_kwargs.drain(..) {
                close_kwargs(c, ks, stmt_end);
            }
            if let Some(r) = self.pending_return.take() {
                push_return_edits(c, self.template_id, self.joined, r, stmt_end.max(r));
            }
        }
        if semicolon {
            self.prev_tok = Some(Token::Semicolon);
            return;
        }
        if let Some(mut c) = self.cur.take() {
            c.ends_with_colon = matches!(self.last_sig, Some(Token::Colon));
            self.blocks_open = c.blocks_after(self.blocks_open);
            self.logical.push(c);
        }
        self.last_sig = None;
        self.prev_tok = None;
        self.depth = 0;
        self.in_load = false;
        self.nesting.reset();
    }

    /// Notes the lines a string continues on; refuses `pass` and the names reserved for
    /// generated code.
    fn screen(&mut self, s: usize, tok: &Token, e: usize) -> Result<(), LexFailure> {
        let line = || (self.src_of)((self.line_of)(s));
        match tok {
            Token::String(_) => {
                let (first, last) = ((self.line_of)(s), (self.line_of)(e.saturating_sub(1)));
                self.in_strings.extend(first + 1..=last);
            }
            Token::Pass => {
                return Err(BlockError {
                    message: "use of reserved keyword 'pass' is not allowed".into(),
                    line: line(),
                    display: None,
                }
                .into())
            }
            Token::Identifier(name) if instr::is_reserved(name) && (self.user_at)(s) => {
                return Err(BlockError {
                    message: format!("{name} is a name reserved for the code ytt generates"),
                    line: line(),
                    display: None,
                }
                .into());
            }
            _ => {}
        }
        Ok(())
    }

    /// Starts a logical line at its first token, extends it to each next one, and keeps
    /// its expressions within [`MAX_NESTING`].
    fn begin_line(&mut self, s: usize, tok: &Token, e: usize) -> Result<(), LexFailure> {
        let line_of = self.line_of;
        let c = self.cur.get_or_insert_with(|| LogicalLine {
            first: line_of(s),
            last: line_of(s),
            first_tok: tok.clone(),
            first_word: self.joined[s..e].to_owned(),
            first_end: e,
            has_colon: false,
            ends_with_colon: false,
            edits: Vec::new(),
            loads: Vec::new(),
        });
        c.last = line_of(e.saturating_sub(1).max(s));
        // an expression nests on top of the blocks around it (blocks too deep on their own
        // are the block pass's error, at their opening line)
        let allowed = MAX_NESTING.saturating_sub(BLOCK_LEVELS * self.blocks_open);
        if self.nesting.token(tok, self.prev_tok.as_ref()) > allowed
            && self.blocks_open < MAX_BLOCKS
        {
            return Err(BlockError {
                message: format!("expression is nested too deeply (more than {allowed} levels)"),
                line: (self.src_of)(line_of(s)),
                display: None,
            }
            .into());
        }
        Ok(())
    }

    /// Collects the tokens of a `load` statement, and notes where a `for`'s iterable
    /// starts.
    fn track_load(&mut self, s: usize, tok: &Token, e: usize) {
        let Some(c) = self.cur.as_mut() else { return };
        // a statement starts at the line's start, after `;` or after a one-line block's `:`
        let stmt_start = matches!(self.prev_tok, None | Some(Token::Semicolon | Token::Colon));
        if matches!(tok, Token::Load) && self.depth == 0 && stmt_start {
            c.loads.push(LoadToks {
                after_colon: matches!(self.prev_tok, Some(Token::Colon)),
                toks: Vec::new(),
            });
            self.in_load = true;
        }
        if self.in_load {
            if let Some(l) = c.loads.last_mut() {
                l.toks.push((tok.clone(), s, e));
            }
        }
    }

    /// Follows brackets, parameter lists, block colons, `return`, renamed
    /// `assert` loads and `**` splats.
    fn structure(&mut self, s: usize, tok: &Token, e: usize) {
        let Some(c) = self.cur.as_mut() else { return };
        let depth = self.depth;
        match tok {
            Token::OpeningRound | Token::OpeningSquare | Token::OpeningCurly => self.depth += 1,
            Token::ClosingRound | Token::ClosingSquare | Token::ClosingCurly => {
                // a `**expr` ends at the bracket closing its call
                while let Some(&(ks, d)) = self.pending_kwargs.last() {
                    if d == depth {
                        self.pending_kwargs.pop();
                        close_kwargs(c, ks, s);
                    } else {
                        break;
                    }
                }
                self.depth -= 1;
                if self.param_depth == Some(self.depth) {
                    self.param_depth = None;
                }
            }
            Token::Comma => {
                if let Some(&(ks, d)) = self.pending_kwargs.last() {
                    if d == depth {
                        self.pending_kwargs.pop();
                        close_kwargs(c, ks, s);
                    }
                }
            }
            Token::Def => self.param_depth = Some(depth),
            Token::Lambda => self.lambda_depth = Some(depth),
            Token::Colon if self.lambda_depth == Some(depth) => self.lambda_depth = None,
            Token::Colon if depth == 0 => c.has_colon = true,
            Token::Return => self.pending_return = Some(e),
            // `load("@ytt:assert", "assert")` binds the renamed name
            Token::String(name)
                if name == "assert"
                    && self.in_load
                    && matches!(self.prev_tok, Some(Token::Comma)) =>
            {
                c.edits
                    .push((s, e, format!("{ASSERT_NAME}=\"assert\""), false));
            }
            Token::StarStar => {
                let is_param = self.param_depth.is_some() || self.lambda_depth.is_some();
                let after_operand = ends_operand(self.prev_tok.as_ref());
                if !is_param && !after_operand {
                    self.pending_kwargs.push((e, depth));
                }
            }
            _ => {}
        }
    }

    /// Closes the last logical line: the logical lines, and the physical lines inside
    /// strings.
    fn finish(mut self) -> (Vec<LogicalLine>, Vec<usize>) {
        if let Some(mut c) = self.cur.take() {
            let end = self.last_end;
            for (ks, _) in self.pending_kwargs.drain(..) {
                close_kwargs(&mut c, ks, end);
            }
            if let Some(r) = self.pending_return.take() {
                push_return_edits(&mut c, self.template_id, self.joined, r, end);
            }
            c.ends_with_colon = matches!(self.last_sig, Some(Token::Colon));
            self.logical.push(c);
        }
        for c in &mut self.logical {
            c.edits.sort_by_key(|(at, _, _, _)| *at);
        }
        (self.logical, self.in_strings)
    }
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
