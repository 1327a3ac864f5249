//! `-o markdown`: a reference page of the data values, for package READMEs: one table row
//! per data value path with its type, default, constraints (the `must be:` texts of its
//! rules), title, description, examples and deprecation.

use super::{child_path, item_path, shown_path, Check, Field, FieldKind, SchemaExport};
use crate::yaml::Node;

/// The page (ends with a newline).
pub fn page(export: &SchemaExport) -> String {
    let mut out = String::from("# Data values\n\n");
    let Some(root) = &export.root else {
        out.push_str("No schema: any data values are accepted (default: `null`).\n");
        return out;
    };
    let mut rows = Vec::new();
    let root_has_row = !matches!(root.kind, FieldKind::Map(_))
        || !root.rules.is_empty()
        || root.doc != Default::default();
    if root_has_row {
        rows.push(row(root, ""));
    }
    children(root, "", &mut rows);
    if rows.is_empty() {
        out.push_str("The schema declares no data values.\n");
        return out;
    }
    out.push_str("| Path | Type | Default | Constraints | Description |\n");
    out.push_str("| --- | --- | --- | --- | --- |\n");
    for r in rows {
        out.push_str(&r);
        out.push('\n');
    }
    out
}

fn children(f: &Field, path: &str, rows: &mut Vec<String>) {
    match &f.kind {
        FieldKind::Map(items) => {
            for (key, child) in items {
                let p = child_path(path, key);
                rows.push(row(child, &p));
                children(child, &p, rows);
            }
        }
        FieldKind::Array(elem) => {
            let p = item_path(path);
            rows.push(row(elem, &p));
            children(elem, &p, rows);
        }
        _ => {}
    }
}

fn type_text(f: &Field) -> String {
    let base = match &f.kind {
        FieldKind::Array(elem) => format!("array of {}", type_text(elem)),
        other => other.name().to_owned(),
    };
    if f.nullable && !matches!(f.kind, FieldKind::Any) {
        format!("{base} or null")
    } else {
        base
    }
}

fn required(f: &Field) -> bool {
    (f.nullable || matches!(f.kind, FieldKind::Any))
        && f.rules
            .iter()
            .any(|r| matches!(r.check, Check::NotNull) && !r.conditional && !r.warn)
}

/// Inline code, whatever backticks the text holds.
fn code(text: &str) -> String {
    let text = text.replace('\n', " ");
    if text.contains('`') {
        format!("`` {text} ``")
    } else {
        format!("`{text}`")
    }
}

fn value_text(n: &Node) -> String {
    let text = crate::yaml::emit::json_value(n, 0, false)
        .unwrap_or_else(|_| crate::yaml::emit::yaml_node(n).trim_end().to_owned());
    code(&text)
}

/// Text safe in a table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
        .replace("\r\n", "\n")
        .replace('\n', "<br>")
}

fn row(f: &Field, path: &str) -> String {
    let default = if matches!(f.kind, FieldKind::Map(_)) {
        String::new()
    } else if required(f) {
        "(required)".to_owned()
    } else {
        value_text(&f.default)
    };
    let constraints: Vec<String> = f
        .rules
        .iter()
        .filter(|r| !matches!(&r.check, Check::Named(n) if n.is_off()))
        .map(|r| {
            let mut t = r.desc.clone();
            if r.conditional {
                t.push_str(" (conditional)");
            }
            if r.warn {
                t.push_str(" (warning only)");
            }
            t
        })
        .collect();
    let mut desc = Vec::new();
    if let Some(t) = &f.doc.title {
        desc.push(format!("**{}**", t.trim()));
    }
    if let Some(d) = &f.doc.description {
        desc.push(d.clone());
    }
    if let Some(notice) = &f.doc.deprecated {
        if notice.trim().is_empty() {
            desc.push("Deprecated.".to_owned());
        } else {
            desc.push(format!("Deprecated: {notice}"));
        }
    }
    for (d, v) in &f.doc.examples {
        if d.is_empty() {
            desc.push(format!("Example: {}", value_text(v)));
        } else {
            desc.push(format!("Example ({d}): {}", value_text(v)));
        }
    }
    format!(
        "| {} | {} | {} | {} | {} |",
        cell(&code(shown_path(path))),
        cell(&type_text(f)),
        cell(&default),
        cell(&constraints.join("\n")),
        cell(&desc.join("\n")),
    )
}
