//! Where a run's messages go as they happen: `print()` output and warnings.

use std::sync::Arc;

/// Where a run's messages go as they happen — `print()` output and warnings, each a
/// line, in the order they happen: the command line writes them to stderr; a test, a
/// playground or a language server keeps them. By default they are dropped.
#[derive(Clone, Default)]
pub struct Messages(Option<Arc<Sink>>);

/// Takes the bytes of one or more message lines (from the thread the run is on).
type Sink = dyn Fn(&[u8]) + Send + Sync;

impl Messages {
    pub fn new(sink: impl Fn(&[u8]) + Send + Sync + 'static) -> Self {
        Messages(Some(Arc::new(sink)))
    }

    /// One message line (`\n` added); its text is the bytes it stands for (`crate::bytestr`).
    pub fn line(&self, text: &str) {
        if let Some(sink) = &self.0 {
            let mut bytes = crate::bytestr::encode(text).into_owned();
            bytes.push(b'\n');
            sink(&bytes);
        }
    }
}

impl std::fmt::Debug for Messages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Messages"
        } else {
            "Messages(dropped)"
        })
    }
}
