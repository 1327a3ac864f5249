//! The documents the editor has open: their unsaved text, which is what is analysed in
//! place of the file on disk. Documents are keyed by path; a document whose URI names no
//! local file (`untitled:`) is not kept.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use lsp_types::{TextDocumentContentChangeEvent, Uri};

use crate::{text, uri};

/// An open document.
#[derive(Clone, Debug)]
pub struct Document {
    /// The URI as the client wrote it (diagnostics for it are published under it).
    pub uri: Uri,
    pub text: Arc<str>,
    pub version: i32,
}

/// The texts that override files on disk during one analysis.
pub type Overlay = Arc<BTreeMap<PathBuf, Arc<str>>>;

#[derive(Default)]
pub struct Documents {
    open: BTreeMap<PathBuf, Document>,
}

impl Documents {
    /// Opens a document; its path, when it names a local file.
    pub fn open(&mut self, uri: Uri, text: String, version: i32) -> Option<PathBuf> {
        let path = uri::to_path(&uri)?;
        let text = text.into();
        self.open
            .insert(path.clone(), Document { uri, text, version });
        Some(path)
    }

    /// Applies changes to an open document (whole texts, or ranges of the text as it is
    /// after the changes before them); its path, when it is open.
    pub fn change(
        &mut self,
        uri: &Uri,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
    ) -> Option<PathBuf> {
        let path = uri::to_path(uri)?;
        let doc = self.open.get_mut(&path)?;
        let mut current = doc.text.to_string();
        for change in changes {
            current = match change.range {
                Some(range) => text::replace(&current, range, &change.text),
                None => change.text,
            };
        }
        doc.text = current.into();
        doc.version = version;
        Some(path)
    }

    /// Closes a document; its path, when it was open.
    pub fn close(&mut self, uri: &Uri) -> Option<PathBuf> {
        let path = uri::to_path(uri)?;
        self.open.remove(&path).map(|_| path)
    }

    pub fn get(&self, path: &Path) -> Option<&Document> {
        self.open.get(path)
    }

    pub fn paths(&self) -> impl Iterator<Item = &PathBuf> {
        self.open.keys()
    }

    /// The URI to publish a file's diagnostics under: the client's own for an open
    /// document.
    pub fn uri_of(&self, path: &Path) -> Uri {
        self.open
            .get(path)
            .map_or_else(|| uri::from_path(path), |d| d.uri.clone())
    }

    /// The open texts, for an analysis.
    pub fn overlay(&self) -> Overlay {
        Arc::new(
            self.open
                .iter()
                .map(|(p, d)| (p.clone(), d.text.clone()))
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::{Position, Range};
    use std::str::FromStr;

    #[test]
    fn open_change_close() {
        let mut docs = Documents::default();
        let u = Uri::from_str("file:///w/a.yml").unwrap();
        assert_eq!(
            docs.open(u.clone(), "a: 1\n".into(), 1),
            Some(PathBuf::from("/w/a.yml"))
        );
        let edit = TextDocumentContentChangeEvent {
            range: Some(Range::new(Position::new(0, 3), Position::new(0, 4))),
            range_length: None,
            text: "2".into(),
        };
        docs.change(&u, 2, vec![edit]);
        let doc = docs.get(Path::new("/w/a.yml")).unwrap();
        assert_eq!((&*doc.text, doc.version), ("a: 2\n", 2));
        assert_eq!(docs.overlay().len(), 1);
        assert!(docs.close(&u).is_some());
        assert!(docs.get(Path::new("/w/a.yml")).is_none());
        assert!(docs
            .open(Uri::from_str("untitled:1").unwrap(), String::new(), 1)
            .is_none());
    }
}
