//! What a run gives its front end: the parts its mode asked for, and what standard output
//! shows of them.

use std::borrow::Cow;

use anyhow::anyhow;

use super::{Format, Mode};
use crate::diagnostic::Diagnostic;
use crate::workspace::{self, OutputFile};
use crate::yaml::{emit, Array, ArrayItem, Doc, DocSet, FileNames, Meta, Node};

/// The result of a request: the part its [`Mode`] asked for, the warnings, and the run's
/// file names.
#[derive(Debug)]
pub struct Output {
    /// What the request asked for.
    pub mode: Mode,
    pub format: Format,
    /// [`Mode::Render`]: every output file (YAML documents, text, a Starlark file given
    /// for output), in output order.
    pub files: Vec<OutputFile>,
    /// [`Mode::Files`]: the root library's accessible files, in order.
    pub accessible_files: Option<Vec<String>>,
    /// [`Mode::DataValues`]: the root library's final data values, each node positioned
    /// where its value came from.
    pub data_values: Option<Node>,
    /// [`Mode::Schema`]: the root library's schema, exported.
    pub schema: Option<Export>,
    /// What the user is told beside the output, one line each (a rule the schema export
    /// cannot carry). `print()` output and a run's warnings go to [`super::Host::messages`]
    /// as they happen instead.
    pub warnings: Vec<String>,
    /// The run's file names: what the positions in documents and values stand for.
    pub names: FileNames,
}

/// A schema, exported.
#[derive(Debug)]
pub enum Export {
    /// An OpenAPI v3 or JSON Schema document, its keys as the request's format needs.
    Document(Node),
    /// A Markdown page.
    Page(String),
}

/// What standard output shows of an [`Output`].
#[derive(Debug)]
pub struct Stdout {
    body: Body,
    format: Format,
    names: FileNames,
    /// The text outputs of rendered templates, `(path, text)` in output order: standard
    /// output never shows them (the command line warns of them; an output directory
    /// gets them).
    pub text_outputs: Vec<(String, String)>,
}

#[derive(Debug)]
enum Body {
    Documents(DocSet),
    Page(String),
}

impl Output {
    pub(super) fn new(mode: Mode, format: Format) -> Output {
        Output {
            mode,
            format,
            files: Vec::new(),
            accessible_files: None,
            data_values: None,
            schema: None,
            warnings: Vec::new(),
            names: FileNames::default(),
        }
    }

    /// What standard output shows: every YAML output's documents, or the inspection's
    /// document (none for data values that are null or an empty map), or the Markdown
    /// page.
    pub fn into_stdout(self) -> Stdout {
        let mut text_outputs = Vec::new();
        let body = match self.mode {
            Mode::Render => {
                let (docs, texts) = workspace::stdout_documents(self.files);
                text_outputs = texts;
                Body::Documents(docs)
            }
            Mode::Files => {
                let items = (self.accessible_files.into_iter().flatten())
                    .map(|path| ArrayItem {
                        value: Node::Str(path.into()),
                        meta: Meta::default(),
                    })
                    .collect();
                Body::Documents(one_document(Node::Array(Array { items })))
            }
            Mode::DataValues => Body::Documents(match self.data_values {
                Some(values) => workspace::data_values_documents(values),
                None => DocSet::default(),
            }),
            Mode::Schema(_) => match self.schema {
                Some(Export::Document(doc)) => Body::Documents(one_document(doc)),
                Some(Export::Page(page)) => Body::Page(page),
                None => Body::Documents(DocSet::default()),
            },
        };
        Stdout {
            body,
            format: self.format,
            names: self.names,
            text_outputs,
        }
    }
}

fn one_document(value: Node) -> DocSet {
    DocSet {
        docs: vec![Doc::new(value, Meta::default())],
        meta: Meta::default(),
    }
}

impl Stdout {
    /// The text, in parts to be written one after the other: a large output is written
    /// on every core, a part per run of documents, and is not joined.
    pub fn parts(&self) -> Result<Vec<Cow<'_, str>>, Diagnostic> {
        let docs = match &self.body {
            Body::Page(page) => return Ok(vec![Cow::Borrowed(page)]),
            Body::Documents(docs) => docs,
        };
        Ok(match self.format {
            Format::Yaml => emit::yaml_texts(docs),
            Format::Json => emit::json_texts(docs)
                .map_err(|e| Diagnostic::from_error(anyhow!("{e}")))?
                .into_iter()
                .map(Cow::Owned)
                .collect(),
            Format::Pos => {
                let mut out = String::new();
                emit::pos_docset(docs, &self.names, &mut out);
                vec![Cow::Owned(out)]
            }
        })
    }

    /// The text, joined.
    pub fn text(&self) -> Result<String, Diagnostic> {
        Ok(self.parts()?.concat())
    }
}
