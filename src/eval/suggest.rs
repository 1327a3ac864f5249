//! The names the reference suggests for one it does not know (`did you mean x?`).

use starlark::environment::FrozenModule;
use starlark::syntax::ast::Visibility;

/// The candidate the reference suggests for a misspelled name (`did you mean x?`): the
/// one fewest edits away, case and underscores ignored, and fewer edits than half the
/// name's length (so a one-letter name gets no suggestion); the first of equals, in the
/// order given (the reference's candidate lists are sorted).
pub fn nearest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let fold = |s: &str| -> Vec<char> {
        s.chars()
            .filter(|&c| c != '_')
            .flat_map(char::to_lowercase)
            .collect()
    };
    let name = fold(name);
    let mut best = None;
    let mut best_distance = name.len().div_ceil(2);
    for c in candidates {
        let d = edits(&name, &fold(c));
        if d < best_distance {
            best_distance = d;
            best = Some(c);
        }
    }
    best
}

/// The Levenshtein distance of two names, computed one row at a time.
fn edits(a: &[char], b: &[char]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// A name a loaded module does not export, in the reference's words (the module as the
/// `load` names it), with the exported name it suggests instead.
pub fn not_found(name: &str, module: &str, exported: &[String]) -> String {
    match nearest(name, exported.iter().map(String::as_str)) {
        Some(s) => format!("load: name {name} not found in module {module} (did you mean {s}?)"),
        None => format!("load: name {name} not found in module {module}"),
    }
}

/// The names a module exports (defined at its top level, not starting with `_`), sorted.
pub fn exported_names(m: &FrozenModule) -> Vec<String> {
    let mut names: Vec<String> = (m.names())
        .map(|n| n.as_str().to_owned())
        .filter(|n| !n.starts_with('_'))
        .filter(|n| matches!(m.get_any_visibility(n), Ok((_, Visibility::Public))))
        .collect();
    names.sort();
    names
}

#[cfg(test)]
mod tests {
    use super::{nearest, not_found};

    #[test]
    fn suggests_the_nearest_name() {
        assert_eq!(nearest("my_Name", ["myname2"]), Some("myname2"));
        assert_eq!(nearest("abcd", ["wxyz"]), None);
        assert_eq!(
            not_found("x", "lib/a.star", &[]),
            "load: name x not found in module lib/a.star"
        );
        // the nearest exported name, case and underscores ignored; the first of equals
        let exported = ["Abx", "abc", "abd", "upstream", "upstream_x"].map(String::from);
        for (name, hint) in [
            ("abx", "Abx"),
            ("upstreams", "upstream"),
            ("UPSTREAM_", "upstream"),
            ("upstream_xx", "upstream_x"),
        ] {
            assert_eq!(
                not_found(name, "m", &exported),
                format!("load: name {name} not found in module m (did you mean {hint}?)")
            );
        }
        assert_eq!(
            not_found("zzz", "m", &exported),
            "load: name zzz not found in module m"
        );
    }
}
