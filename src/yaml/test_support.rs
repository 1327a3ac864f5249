//! Helpers of the YAML tests: a small deterministic random source and the corpus of real
//! YAML files (the conformance cases beside the project, our tests and examples).

use std::io::Write;
use std::path::{Path, PathBuf};

pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    pub fn pick<'s>(&mut self, xs: &[&'s str]) -> &'s str {
        xs[self.below(xs.len())]
    }
}

/// The variable that makes a missing conformance corpus a failure instead of a skip
/// (`.ci/run` sets it, so CI never skips the corpus tests silently).
pub const REQUIRE_CORPUS: &str = "YTT_REQUIRE_CORPUS";

/// The recorded conformance cases (`../shared/conformance/cases`), when they are beside
/// the project. When they are not, says in one line that `test` is skipped and returns
/// `None`, or fails when `YTT_REQUIRE_CORPUS` is set.
pub fn conformance_cases(test: &str) -> Option<PathBuf> {
    let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/cases");
    if cases.is_dir() {
        return Some(cases);
    }
    assert!(
        std::env::var_os(REQUIRE_CORPUS).is_none(),
        "{REQUIRE_CORPUS} is set and the conformance corpus is missing: {}",
        cases.display()
    );
    // straight to the process's stderr: the test harness hides what `eprintln!` writes
    // from a passing test, and this line is for whoever runs the tests
    let _ = writeln!(
        std::io::stderr(),
        "skipped {test}: the conformance corpus is not at {} (set {REQUIRE_CORPUS} to make that a failure)",
        cases.display()
    );
    None
}

/// Every `.yml` and `.yaml` file of the conformance corpus, when it is there, and of this
/// project's tests and examples, in a stable order; `test` names the caller for the line
/// saying the corpus was skipped. The flag says whether the corpus is among them (the
/// callers' counts of files that take a path are about the whole corpus).
pub fn corpus_yaml_files(test: &str) -> (Vec<PathBuf>, bool) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    let cases = conformance_cases(test);
    if let Some(cases) = &cases {
        yaml_files(cases, &mut files);
    }
    for d in ["tests", "examples"] {
        yaml_files(&root.join(d), &mut files);
    }
    (files, cases.is_some())
}

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            yaml_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "yml" || e == "yaml") {
            out.push(p);
        }
    }
}
