//! The ytt engine in the browser: [`render`] takes the page's request as JSON and returns
//! what the command line would print, as JSON (see [`run`]); [`hover`] and [`complete`]
//! answer the editor as the language server would, from the last render (see [`editor`]).
//!
//! The page runs this module in a Web Worker: a render that loops forever is stopped by
//! terminating the worker. A render that trips the engine (a panic) or goes over the
//! memory budget traps instead of returning; [`stopped`] then says why, and the worker
//! starts a fresh instance.

pub mod editor;
mod memory;
pub mod run;

pub use wasm::*;

/// The module's exports (they build natively too, so that native lints and tests see them).
mod wasm {
    use std::sync::Mutex;

    use wasm_bindgen::prelude::wasm_bindgen;
    use ytt::frontend::FactsSink;

    use crate::editor::{self, LastRun, Query};

    /// Why the last call trapped: a panic's message (the memory budget's is a panic too).
    static STOPPED: Mutex<Option<String>> = Mutex::new(None);

    /// What the last render left, for hover and completion.
    static LAST: Mutex<LastRun> = Mutex::new(LastRun::new());

    #[wasm_bindgen(start)]
    fn start() {
        std::panic::set_hook(Box::new(|info| {
            // a size past the address space (`[1] * 1000000000` on 32 bits) panics as
            // "capacity overflow" before the allocator is asked
            let too_big = info.payload_as_str() == Some("capacity overflow");
            let why = if crate::memory::over_budget() || too_big {
                format!(
                    "The render needed more than {} MiB of memory and was stopped.",
                    crate::memory::BUDGET >> 20
                )
            } else {
                format!("internal error (this is a bug in ytt): {info}")
            };
            *STOPPED.lock().unwrap_or_else(|e| e.into_inner()) = Some(why);
        }));
    }

    /// Renders the request (JSON, see `run::Request`); returns the response (JSON, see
    /// `run::Response`).
    #[wasm_bindgen]
    pub fn render(request: &str) -> String {
        let response = match serde_json::from_str::<crate::run::Request>(request) {
            Ok(req) => {
                let files = (req.files.iter())
                    .map(|f| (f.path.clone(), f.text.clone()))
                    .collect();
                let facts = FactsSink::default();
                let sink = Some(facts.clone());
                let response = crate::run::run_with_facts(req, Some(crate::memory::held), sink);
                LAST.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .update(files, facts.take());
                response
            }
            Err(e) => crate::run::Response {
                stderr: format!("ytt: Error: the playground sent a bad request: {e}\n"),
                ..Default::default()
            },
        };
        serde_json::to_string(&response).unwrap_or_default()
    }

    /// The hover at a position (JSON, see `editor::Query`): the protocol's `Hover`, as
    /// JSON, or `null`.
    #[wasm_bindgen]
    pub fn hover(query: &str) -> String {
        answer(query, editor::hover)
    }

    /// The completion at a position (JSON, see `editor::Query`): the protocol's
    /// `CompletionResponse`, as JSON, or `null`.
    #[wasm_bindgen]
    pub fn complete(query: &str) -> String {
        answer(query, editor::completion)
    }

    fn answer<R: serde::Serialize>(query: &str, f: fn(&LastRun, &Query) -> Option<R>) -> String {
        let Ok(query) = serde_json::from_str::<Query>(query) else {
            return "null".into();
        };
        let last = LAST.lock().unwrap_or_else(|e| e.into_inner());
        serde_json::to_string(&f(&last, &query)).unwrap_or_else(|_| "null".into())
    }

    /// Why the last call trapped, if it did.
    #[wasm_bindgen]
    pub fn stopped() -> Option<String> {
        STOPPED.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}
