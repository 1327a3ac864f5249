//! Writing ahead: a template's finished documents are written as YAML on another core
//! while the template goes on. Evaluation runs on one core; the documents it finished are
//! final unless an overlay edits them later (`workspace::execution` drops the texts
//! then), so their text can be written in the meantime instead of after the run.
//!
//! The documents travel to the writing thread in batches and come back, in order, each
//! with its text ([`Doc::written`]): the evaluation owns them again when it ends.

use std::sync::mpsc;
use std::thread::JoinHandle;

use crate::yaml::node::{Doc, Written};

/// Documents sent at a time: a batch costs a channel message; few documents per batch
/// keep the writer close behind the evaluation.
const BATCH: usize = 32;

/// Documents fewer than this stay with the evaluation: starting a thread (some 50 µs)
/// costs more than writing them later.
const START_AT: usize = 2 * BATCH;

/// Stack of the writing thread: the emitter recurses once per level of nesting (see
/// `split`'s writers).
const STACK: usize = 256 << 20;

/// The writing side of one template's evaluation: collects its finished documents and
/// hands them to a thread of its own once there are enough of them.
#[derive(Debug, Default)]
pub struct AheadWriter {
    waiting: Vec<Doc>,
    thread: Option<Thread>,
    /// No thread could be started (WebAssembly): documents wait for the end.
    no_thread: bool,
}

#[derive(Debug)]
struct Thread {
    send: mpsc::Sender<Vec<Doc>>,
    done: JoinHandle<Vec<Doc>>,
}

impl AheadWriter {
    /// Takes finished documents, in order.
    pub fn push(&mut self, docs: impl IntoIterator<Item = Doc>) {
        self.waiting.extend(docs);
        let due = match &self.thread {
            Some(_) => BATCH,
            None => START_AT,
        };
        if self.waiting.len() < due || self.no_thread {
            return;
        }
        if self.thread.is_none() {
            self.thread = start();
            self.no_thread = self.thread.is_none();
        }
        if let Some(t) = &self.thread {
            // (the thread only ends when the channel closes)
            let _ = t.send.send(std::mem::take(&mut self.waiting));
        }
    }

    /// Every document taken, in order: those the thread wrote carry their text.
    pub fn finish(self) -> Vec<Doc> {
        let Some(Thread { send, done }) = self.thread else {
            return self.waiting;
        };
        drop(send);
        let mut docs = done
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        docs.extend(self.waiting);
        docs
    }
}

fn start() -> Option<Thread> {
    let (send, receive) = mpsc::channel::<Vec<Doc>>();
    let done = std::thread::Builder::new()
        .name("ytt-write-ahead".into())
        .stack_size(STACK)
        .spawn(move || {
            let mut written = Vec::new();
            for batch in receive {
                for mut doc in batch {
                    let mut text = String::new();
                    super::write_document(&doc.value, &mut text);
                    doc.written = Written::new(text);
                    written.push(doc);
                }
            }
            written
        })
        .ok()?;
    Some(Thread { send, done })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::node::{Meta, Node};

    fn docs(range: std::ops::Range<i64>) -> Vec<Doc> {
        range
            .map(|i| Doc::new(Node::Int(i.into()), Meta::default()))
            .collect()
    }

    #[test]
    fn documents_come_back_in_order_with_their_text() {
        for n in [0, 1, START_AT - 1, START_AT, START_AT + 1, 10 * BATCH + 7] {
            let mut w = AheadWriter::default();
            // in uneven pieces, as templates finish documents
            let all = docs(0..n as i64);
            let mut rest = all.clone();
            while !rest.is_empty() {
                let take = rest.len().min(5);
                w.push(rest.drain(..take));
            }
            let back = w.finish();
            assert_eq!(back, all);
            for (i, d) in back.iter().enumerate() {
                match d.written.text() {
                    Some(t) => assert_eq!(t, format!("{i}\n")),
                    // only what never reached the thread is unwritten: the last ones
                    None => assert!(n < START_AT || i >= n - BATCH, "{n}: {i}"),
                }
            }
            if n >= START_AT {
                assert!(back[0].written.text().is_some());
            }
        }
    }
}
