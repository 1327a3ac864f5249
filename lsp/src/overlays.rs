//! What the server says on an `#@overlay/match` (its line, the lines beside it, or the
//! line of the node it annotates): what that node matched in the last render of each run
//! of the file, each time it was applied, with the expectation it was held to (hover),
//! and where the matches are (definition). From the applications the engine noted in
//! the run's facts (`ytt::frontend::Applied`), found by the node's line.

use std::fmt::Write as _;
use std::path::Path;

use lsp_types::{Location as LspLocation, Position};
use ytt::frontend::{Applied, Verdict};

use crate::values::RunFacts;

/// How many matches a hover lists before it counts the rest.
const LISTED: usize = 20;

/// The `#@overlay/match` annotating the node at or below `line`: its text, and the lines
/// (0-based) from its first annotation or comment line to the node's.
struct Annotated<'a> {
    annotation: &'a str,
    first: u32,
    node: u32,
}

/// A line that is a comment (an annotation is one): it annotates the node below it.
fn is_comment(line: &str) -> bool {
    line.trim_start().starts_with('#')
}

fn annotated_at(text: &str, line: u32) -> Option<Annotated<'_>> {
    let lines: Vec<&str> = text.lines().collect();
    let at = line as usize;
    lines.get(at)?;
    // the node: this line, or the first below the comments this one starts
    let node = (at..lines.len()).find(|&i| !is_comment(lines[i]))?;
    let first = (0..node)
        .rev()
        .take_while(|&i| is_comment(lines[i]))
        .last()
        .unwrap_or(node);
    let annotation = lines[first..node].iter().map(|l| l.trim()).find(|l| {
        l.strip_prefix("#@overlay/match")
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(char::is_whitespace))
    })?;
    Some(Annotated {
        annotation,
        first: first as u32,
        node: node as u32,
    })
}

/// The applications of the node annotated at `line` in `run`'s last render.
fn applied<'r>(run: &'r RunFacts, path: &Path, a: &Annotated) -> Vec<&'r Applied> {
    let Some(name) = (run.files.iter()).find_map(|(name, (p, _))| (p == path).then_some(name))
    else {
        return Vec::new();
    };
    // the engine's lines are 1-based: a document's is its `---`, an item's its own
    let lines = a.first + 1..=a.node + 1;
    (run.facts.overlays.iter())
        .filter(|o| o.overlay.file.as_deref() == Some(name) && lines.contains(&o.overlay.line))
        .collect()
}

/// `textDocument/hover` on an `#@overlay/match` or the node it annotates, in markdown:
/// the annotation, then for each run that applied it (named when several did) what it
/// matched each time. None off such a node; a run that did not apply it says so.
pub fn hover(
    runs: &[&RunFacts],
    path: &Path,
    text: &str,
    pos: Position,
    base: &Path,
) -> Option<String> {
    if runs.is_empty() {
        return None;
    }
    let a = annotated_at(text, pos.line)?;
    let mut out = format!("`{}`", a.annotation);
    let named = runs.len() > 1;
    for run in runs {
        out.push_str("\n\n");
        if named {
            write!(out, "[{}] ", run.run).unwrap_or(());
        }
        if run.stale {
            out.push_str("*(from the analysis before the last, which stopped before its data values were final)* ");
        }
        let applied = applied(run, path, &a);
        match applied.as_slice() {
            [] => out.push_str("not applied in the last render"),
            [one] => out.push_str(&application(run, one, base, &mut { LISTED })),
            many => {
                let mut left = LISTED;
                writeln!(out, "applied {} times in the last render:", many.len()).unwrap_or(());
                for (i, one) in many.iter().enumerate() {
                    if left == 0 {
                        writeln!(out, "- and {} more applications", many.len() - i).unwrap_or(());
                        break;
                    }
                    writeln!(out, "{}. {}", i + 1, application(run, one, base, &mut left))
                        .unwrap_or(());
                }
            }
        }
    }
    Some(out.trim_end().to_owned())
}

/// One application: `matched N (expects E): file:line (Deployment web), ...` (listing
/// at most `left` of them, which it counts down), then a skip or a failure.
fn application(run: &RunFacts, a: &Applied, base: &Path, left: &mut usize) -> String {
    let shown: Vec<String> = (a.matched.iter().take(*left))
        .map(|m| {
            let at = match m.at.file {
                Some(_) => format!("`{}`", run.shown(&m.at, base)),
                None => "a value made in code".to_owned(),
            };
            match &m.about {
                Some(about) => format!("{at} ({about})"),
                None => at,
            }
        })
        .collect();
    *left -= shown.len();
    let mut out = format!("matched {} (expects {})", a.matched.len(), a.expects);
    if !shown.is_empty() {
        write!(out, ": {}", shown.join(", ")).unwrap_or(());
    }
    if a.matched.len() > shown.len() {
        write!(out, ", and {} more", a.matched.len() - shown.len()).unwrap_or(());
    }
    match &a.verdict {
        Verdict::Applied => {}
        Verdict::Skipped => out.push_str("; skipped: `when=` did not hold"),
        Verdict::Failed(error) => write!(out, "; failed: {error}").unwrap_or(()),
    }
    out
}

/// `textDocument/definition` on an `#@overlay/match` or the node it annotates: the nodes
/// it matched in the last render of the file's runs, each once, in order. None off such
/// a node, or when it matched nothing in a file.
pub fn definition(
    runs: &[&RunFacts],
    path: &Path,
    text: &str,
    pos: Position,
) -> Option<Vec<LspLocation>> {
    let a = annotated_at(text, pos.line)?;
    let mut found: Vec<LspLocation> = Vec::new();
    for run in runs {
        for applied in applied(run, path, &a) {
            for m in &applied.matched {
                if let Some(l) = run.locate(&m.at) {
                    if !found.contains(&l) {
                        found.push(l);
                    }
                }
            }
        }
    }
    (!found.is_empty()).then_some(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::tests::facts_of;

    #[test]
    fn the_annotation_is_found_from_its_lines_and_its_node() {
        let text = "a: 1\n#@overlay/match by=\"name\", missing_ok=True\n#! why\n- name: x\n  v: 2\n#@overlay/match-child-defaults missing_ok=True\nb: 2\n";
        let at = |line| annotated_at(text, line).map(|a| (a.annotation, a.first, a.node));
        let found = Some(("#@overlay/match by=\"name\", missing_ok=True", 1, 3));
        assert_eq!(at(1), found);
        assert_eq!(at(2), found);
        assert_eq!(at(3), found);
        // not the node's other lines, nor a node annotated otherwise
        assert_eq!(at(0), None);
        assert_eq!(at(4), None);
        assert_eq!(at(5), None);
        assert_eq!(at(6), None);
        assert_eq!(at(9), None);
    }

    #[test]
    fn a_long_list_of_matches_is_cut() {
        let docs: String = (0..25).map(|i| format!("---\nname: d{i}\n")).collect();
        let overlay = "#@overlay/match by=lambda i, l, r: True, expects=\"1+\"\n---\nx: 1\n";
        let run = facts_of(&[("docs.yml", &docs), ("o.yml", overlay)], &[]);
        let at = |line| Position::new(line, 0);
        let path = Path::new("/w/o.yml");
        let shown = hover(&[&run], path, overlay, at(0), Path::new("/w")).expect("a hover");
        let (head, tail) = shown.split_once("(expects 1+): ").expect("a list");
        assert!(head.ends_with("matched 25 "), "{shown}");
        assert!(
            tail.starts_with("`docs.yml:1` (d0), `docs.yml:3` (d1), "),
            "{shown}"
        );
        assert!(tail.contains("`docs.yml:39` (d19), and 5 more"), "{shown}");
        let found = definition(&[&run], path, overlay, at(1)).expect("matches");
        assert_eq!(found.len(), 25);
        // off the annotated node
        assert!(hover(&[&run], path, overlay, at(2), Path::new("/w")).is_none());
    }
}
