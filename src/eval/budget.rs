//! The embedder's memory budget, as evaluation sees it.
//!
//! An allocator cannot fail softly (a `Vec` aborts when refused) and does not know where
//! the run is. The command line's therefore raises a flag when the run passes its budget
//! and lets it go on for a while (see its `memory` module); every evaluator watches the
//! flag (a patch of starlark: `Evaluator::set_interrupt_flag`), so that Starlark code
//! stops at its next step — a loop iteration or a call — with the budget's message,
//! reported with the template line and frames as any evaluation error. The loop collector
//! keeps garbage from passing the budget (`eval::gc`).

use std::sync::atomic::{AtomicBool, Ordering};

use starlark::eval::Evaluator;

/// A memory budget the embedder's allocator keeps.
#[derive(Clone, Copy, Debug)]
pub struct MemoryBudget {
    /// The budget, in the bytes [`crate::RenderOptions::held_bytes`] counts.
    pub limit: usize,
    /// Raised by the embedder once the process holds more than `limit`.
    pub passed: &'static AtomicBool,
    /// What the run is told then.
    pub message: &'static str,
}

/// starlark's message for an evaluation its canceled-checking function stopped.
const CANCELLED: &str = "Evaluation cancelled";

impl MemoryBudget {
    /// Whether the run passed the budget.
    pub fn passed(&self) -> bool {
        self.passed.load(Ordering::Relaxed)
    }

    /// Makes `eval` stop at its next step once the run passed the budget.
    pub fn watch(&self, eval: &mut Evaluator<'_, '_, '_>) {
        let passed = self.passed;
        eval.set_interrupt_flag(passed);
        eval.set_check_cancelled(Box::new(move || passed.load(Ordering::Relaxed)));
    }

    /// The message of an error whose `message` says the budget stopped the evaluation.
    pub fn stopped(&self, message: &str) -> Option<&'static str> {
        (message == CANCELLED && self.passed()).then_some(self.message)
    }
}
