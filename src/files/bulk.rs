//! `--bulk-in` / `--bulk-out`: files as one JSON value,
//! `{"files":[{"name":"…","data":"…"}],"errors":"…"}`.

use anyhow::{anyhow, Result};
use serde::Deserialize;

use super::SourceFile;

#[derive(Deserialize)]
struct BulkIn {
    #[serde(default)]
    files: Option<Vec<BulkInFile>>,
}

#[derive(Deserialize)]
struct BulkInFile {
    name: String,
    #[serde(default)]
    data: String,
}

/// Parses the `--bulk-in` JSON into files (in the order given).
pub fn parse_bulk_in(json: &str) -> Result<Vec<SourceFile>> {
    let parsed: BulkIn =
        serde_json::from_str(json).map_err(|e| anyhow!("Unmarshaling bulk files: {e}"))?;
    Ok(parsed
        .files
        .unwrap_or_default()
        .into_iter()
        .map(|f| SourceFile::new(f.name, f.data.into_bytes()))
        .collect())
}

/// Renders the `--bulk-out` JSON: `files` and `errors` are left out when empty, as Go's
/// `omitempty` does; strings are escaped as Go's `encoding/json` does.
pub fn bulk_out_json(files: &[(String, String)], errors: Option<&str>) -> String {
    let mut out = String::from("{");
    if !files.is_empty() {
        out.push_str("\"files\":[");
        for (i, (name, data)) in files.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"name\":");
            go_json_string(name, &mut out);
            out.push_str(",\"data\":");
            go_json_string(data, &mut out);
            out.push('}');
        }
        out.push(']');
    }
    if let Some(err) = errors.filter(|e| !e.is_empty()) {
        if !files.is_empty() {
            out.push(',');
        }
        out.push_str("\"errors\":");
        go_json_string(err, &mut out);
    }
    out.push('}');
    out
}

/// A JSON string literal as Go's `json.Marshal` writes it (HTML-safe: `<`, `>`, `&` and
/// U+2028/U+2029 escaped).
pub fn go_json_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_shapes() {
        let files = parse_bulk_in(r#"{"files":[{"name":"a.yml","data":"a: 1"}]}"#).unwrap();
        assert_eq!(files.len(), 1);
        assert_eq!(files[0].rel_path, "a.yml");
        assert_eq!(&*files[0].data, b"a: 1");
        assert!(parse_bulk_in("nope").is_err());
        assert_eq!(bulk_out_json(&[], None), "{}");
        assert_eq!(bulk_out_json(&[], Some("boom")), r#"{"errors":"boom"}"#);
        assert_eq!(
            bulk_out_json(&[("a.txt".into(), "<x>\n\"&".into())], None),
            r#"{"files":[{"name":"a.txt","data":"\u003cx\u003e\n\"\u0026"}]}"#
        );
    }
}
