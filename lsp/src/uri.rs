//! `file:` URIs ⇄ paths. The server keys everything by path, cleaned lexically, so that a
//! file named by the client, by a run's arguments and by a project file is one key.

use std::path::{Component, Path, PathBuf};
use std::str::FromStr;

use lsp_types::Uri;
use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, CONTROLS};

/// What a path keeps unescaped in a URI: unreserved characters, `/` and the sub-delimiters
/// a path may hold (RFC 3986 §3.3); everything else is escaped.
const PATH: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b']')
    .add(b'\\')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

/// The path a `file:` URI names (`file:///a/b`, `file://localhost/a/b`), cleaned; `None`
/// for another scheme, a remote host, or escapes that are not UTF-8.
pub fn to_path(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    let (host, path) = rest.split_at(rest.find('/')?);
    if !host.is_empty() && !host.eq_ignore_ascii_case("localhost") {
        return None;
    }
    let path = percent_decode_str(path).decode_utf8().ok()?;
    // `/C:/x` on Windows is the drive's path
    #[cfg(windows)]
    let path = match path.strip_prefix('/') {
        Some(p) if p.as_bytes().get(1) == Some(&b':') => p.to_owned(),
        _ => path.into_owned(),
    };
    Some(clean(Path::new(&*path)))
}

/// The `file:` URI of an absolute path.
pub fn from_path(path: &Path) -> Uri {
    let text = path.to_string_lossy().replace('\\', "/");
    let slash = if text.starts_with('/') { "" } else { "/" };
    let uri = format!("file://{slash}{}", utf8_percent_encode(&text, PATH));
    Uri::from_str(&uri).unwrap_or_else(|_| {
        // every byte that is not allowed is escaped above; keep a valid URI regardless
        Uri::from_str("file:///").expect("a valid URI")
    })
}

/// `path` without `.` components, repeated separators, or `..` that follow a name.
pub fn clean(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if matches!(out.components().next_back(), Some(Component::Normal(_))) {
                    out.pop();
                } else if !out.has_root() {
                    out.push("..");
                }
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uri(s: &str) -> Uri {
        Uri::from_str(s).unwrap()
    }

    #[test]
    fn file_uris_name_cleaned_paths() {
        assert_eq!(
            to_path(&uri("file:///a/b%20c/./d/../e.yml")),
            Some(PathBuf::from("/a/b c/e.yml"))
        );
        assert_eq!(
            to_path(&uri("file://localhost/x")),
            Some(PathBuf::from("/x"))
        );
        assert_eq!(to_path(&uri("file://server/x")), None);
        assert_eq!(to_path(&uri("untitled:Untitled-1")), None);
    }

    #[test]
    fn paths_round_trip() {
        for p in ["/a/b.yml", "/with space/ü/#x?.yml", "/a/100%.yml"] {
            let u = from_path(Path::new(p));
            assert_eq!(to_path(&u), Some(PathBuf::from(p)), "{}", u.as_str());
        }
        assert_eq!(from_path(Path::new("/a b")).as_str(), "file:///a%20b");
    }

    #[test]
    fn clean_keeps_what_cannot_be_resolved() {
        assert_eq!(clean(Path::new("/a//b/../../..")), PathBuf::from("/"));
        assert_eq!(clean(Path::new("../x/./y")), PathBuf::from("../x/y"));
    }
}
