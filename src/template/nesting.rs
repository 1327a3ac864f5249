//! How deep template code may nest before starlark-rust's recursive parser and compiler
//! would overflow the run's stack: the bounds, and an expression's depth from its tokens.

use starlark_syntax::lexer::Token;

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
pub(super) const BLOCK_LEVELS: u32 = 3;

/// How deep blocks may nest.
pub const MAX_BLOCKS: u32 = MAX_NESTING / BLOCK_LEVELS;

/// An upper bound on the depth of an expression's syntax tree, from its tokens. At each
/// open bracket (the first level: outside any), since the last `,`: a level per operator,
/// call, index or attribute access (a chain `a + b + c` is a left-deep tree, as deep as
/// it is long; a `lambda` counts [`LAMBDA_LEVELS`]), on top of the deepest bracket closed
/// there (`(a or b)()()` nests the calls over the parenthesis); plus a level per bracket.
#[derive(Default)]
pub(super) struct Nesting {
    /// Per open bracket: operators, and the depth of the deepest bracket closed, since the
    /// last separator.
    levels: Vec<(u32, u32)>,
    sum: u32,
}

impl Nesting {
    pub(super) fn reset(&mut self) {
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
    pub(super) fn token(&mut self, tok: &Token, prev: Option<&Token>) -> u32 {
        let after_operand = ends_operand(prev);
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

/// Whether a token ends an operand, so that a bracket after it is a call or an index (or,
/// for `(`, not a parenthesised expression or a tuple).
pub(super) fn ends_operand(tok: Option<&Token>) -> bool {
    matches!(
        tok,
        Some(
            Token::Identifier(_)
                | Token::ClosingRound
                | Token::ClosingSquare
                | Token::ClosingCurly
                | Token::Int(_)
                | Token::Float(_)
                | Token::String(_)
        )
    )
}
