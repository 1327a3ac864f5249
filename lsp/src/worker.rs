//! The analysis thread: it takes a job (the files that changed, the open documents' texts),
//! decides which runs to analyse, analyses them one after the other on a stack as large as
//! the engine's, and sends the results back. A job the server cancels (an edit superseded
//! it) stops at its run going on and starts no other.
//!
//! Which runs a job analyses: every run of the projects and libraries of the open and
//! changed files (see `project`) whose result the server does not hold as the run is now
//! (never analysed, dropped, or its arguments changed), and those that read a changed
//! file that now reads differently (a document opened, saved or closed as the run read
//! it changes nothing: its result stands); a changed file that no run of its project
//! read (a new file, maybe) has all of its project's runs analysed. Then the runs that read an open
//! file stay (a run that failed before it read any, while an open file is in its project
//! or library), and an open file no run stands for is analysed alone.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};

use crate::analysis::{self, Outcome, Render, SyntaxChecks};
use crate::documents::Overlay;
use crate::findings::Finding;
use crate::host::Host;
use crate::project::{self, Project, RunKey, RunSpec};
use crate::stop::Stopper;
use crate::values::RunFacts;

/// What the server asks for.
pub struct Job {
    pub id: u64,
    /// The files changed since the last job (edited, opened, closed, saved).
    pub changed: BTreeSet<PathBuf>,
    /// The open documents, whose texts override the disk.
    pub overlay: Overlay,
    pub folders: Vec<PathBuf>,
    /// The project file the client chose (`projectFile`), absolute.
    pub project_file: Option<PathBuf>,
    /// The runs whose results the server holds, as they were analysed: the others are
    /// analysed again (the server drops the results of a job an edit superseded).
    pub held: BTreeMap<RunKey, Held>,
}

/// The files a run read, with the bytes it read.
pub type Read = BTreeMap<PathBuf, Arc<[u8]>>;

/// A run whose result the server holds: how it was analysed.
pub struct Held {
    pub spec: RunSpec,
    pub read: Arc<Read>,
}

/// One run analysed.
pub struct RunResult {
    pub spec: RunSpec,
    pub inputs: Arc<Read>,
    pub findings: Vec<Finding>,
    pub outcome: Outcome,
    pub render: Option<Arc<Render>>,
    /// The data values it found, when it got that far.
    pub facts: Option<Arc<RunFacts>>,
    pub log: Vec<String>,
    pub elapsed: Duration,
}

/// What a job did.
pub struct Done {
    pub id: u64,
    /// It was cancelled: what it did is to be dropped.
    pub cancelled: bool,
    pub analysed: Vec<RunResult>,
    /// The runs that stay (the server forgets the others), each with the open files it
    /// stands for (where a problem of the run as a whole is shown).
    pub live: BTreeMap<RunKey, Vec<PathBuf>>,
    /// The project files read, with what is wrong with each.
    pub projects: BTreeMap<PathBuf, Vec<Finding>>,
}

/// Whether the server's result of a run is out of date: it holds none, or none for `spec`,
/// or a file the job changed reads differently from how that analysis read it, or a
/// later analysis (`known`: the files the run's last analysis read, or the files before
/// it when it read none) read a changed file that the held one did not.
fn stale(
    held: Option<&Held>,
    spec: &RunSpec,
    known: Option<&BTreeSet<PathBuf>>,
    job: &Job,
) -> bool {
    let Some(held) = held.filter(|h| h.spec == *spec) else {
        return true;
    };
    job.changed.iter().any(|c| match held.read.get(c) {
        Some(then) => !reads_as(c, then, &job.overlay),
        None => known.is_some_and(|k| k.contains(c)),
    })
}

/// Whether `file` reads now as `then`: an open document's text, else the bytes of the
/// regular file on disk (anything else, or a file that cannot be read, reads differently).
fn reads_as(file: &Path, then: &[u8], overlay: &Overlay) -> bool {
    match overlay.get(file) {
        Some(text) => text.as_bytes() == then,
        None => {
            std::fs::metadata(file).is_ok_and(|m| m.is_file())
                && std::fs::read(file).is_ok_and(|now| now == then)
        }
    }
}

// what the server keeps of a render is read from its thread
const _: fn() = || {
    fn shared<T: Send + Sync>() {}
    shared::<Render>();
    shared::<RunFacts>();
};

/// Starts the analysis thread.
pub fn start(
    host: Arc<dyn Host>,
    stop: Arc<Stopper>,
) -> std::io::Result<(Sender<Job>, Receiver<Done>)> {
    let (jobs, take) = crossbeam_channel::unbounded::<Job>();
    let (give, done) = crossbeam_channel::unbounded::<Done>();
    std::thread::Builder::new()
        .name("ytt-lsp-analysis".into())
        .stack_size(ytt::workspace::RUN_STACK)
        .spawn(move || {
            let mut worker = Worker {
                host,
                stop,
                known: BTreeMap::new(),
                checked: BTreeMap::new(),
            };
            for job in take {
                if give.send(worker.run(job)).is_err() {
                    break;
                }
            }
        })?;
    Ok((jobs, done))
}

struct Worker {
    host: Arc<dyn Host>,
    stop: Arc<Stopper>,
    /// The files each run analysed read.
    known: BTreeMap<RunKey, BTreeSet<PathBuf>>,
    /// Each run's YAML syntax checks, for its next analysis.
    checked: BTreeMap<RunKey, SyntaxChecks>,
}

impl Worker {
    fn run(&mut self, job: Job) -> Done {
        let overlay = job.overlay.clone();
        let read = |p: &Path| -> Option<String> {
            match overlay.get(p) {
                Some(text) => Some(text.to_string()),
                None => std::fs::read_to_string(p).ok(),
            }
        };
        let mut done = Done {
            id: job.id,
            cancelled: false,
            analysed: Vec::new(),
            live: BTreeMap::new(),
            projects: BTreeMap::new(),
        };
        // the runs of the open and changed files' projects and libraries
        let mut candidates: BTreeMap<RunKey, RunSpec> = BTreeMap::new();
        let mut project_runs: BTreeMap<PathBuf, Vec<RunKey>> = BTreeMap::new();
        let mut projects: BTreeMap<Option<PathBuf>, Project> = BTreeMap::new();
        let files: BTreeSet<&PathBuf> = overlay.keys().chain(&job.changed).collect();
        for file in &files {
            if let Some(p) =
                project::project_of(file, &job.folders, job.project_file.as_deref(), &read)
            {
                let keys = p.runs.iter().map(|r| r.key.clone()).collect();
                project_runs.insert(file.to_path_buf(), keys);
                for r in &p.runs {
                    candidates.insert(r.key.clone(), r.clone());
                }
                let key = p
                    .file
                    .clone()
                    .or_else(|| p.runs.first().map(|r| r.dir.clone()));
                projects.insert(key, p);
            }
            if let Some(lib) = project::library_of(file) {
                candidates.insert(lib.key.clone(), lib);
            }
        }
        for p in projects.into_values() {
            if let Some(file) = p.file {
                done.projects.insert(file, p.errors);
            }
        }
        // which of them to analyse
        let mut wanted: BTreeSet<RunKey> = BTreeSet::new();
        for (key, spec) in &candidates {
            if stale(job.held.get(key), spec, self.known.get(key), &job) {
                wanted.insert(key.clone());
            }
        }
        for changed in &job.changed {
            let keys = project_runs.get(changed).map_or(&[][..], Vec::as_slice);
            let read_by_one = (keys.iter()).any(|k| {
                self.known
                    .get(k)
                    .is_some_and(|inputs| inputs.contains(changed))
            });
            if !read_by_one {
                wanted.extend(keys.iter().cloned());
            }
        }
        for key in &wanted {
            if !self.analyse(job.id, &candidates[key], &overlay, &mut done) {
                return done;
            }
        }
        // the runs that stay, each with the open files it stands for: those it read, or,
        // when it never read any (it failed first), those of its project or library
        let in_run = |key: &RunKey, f: &PathBuf| match key {
            RunKey::Library(dir) => f.starts_with(dir),
            _ => {
                !done.projects.contains_key(f)
                    && project_runs.get(f).is_some_and(|keys| keys.contains(key))
            }
        };
        let mut live = BTreeMap::new();
        for key in candidates.keys() {
            let inputs = self.known.get(key);
            let mut members: Vec<PathBuf> = overlay
                .keys()
                .filter(|f| inputs.is_some_and(|i| i.contains(*f)))
                .cloned()
                .collect();
            if inputs.is_none_or(BTreeSet::is_empty) {
                members = overlay.keys().filter(|f| in_run(key, f)).cloned().collect();
            }
            if !members.is_empty() {
                live.insert(key.clone(), members);
            }
        }
        done.live = live;
        let alone: Vec<PathBuf> = overlay
            .keys()
            .filter(|f| {
                !done.projects.contains_key(*f)
                    && !done.live.values().any(|members| members.contains(f))
            })
            .cloned()
            .collect();
        for file in alone {
            let spec = project::alone(&file);
            done.live.insert(spec.key.clone(), vec![file.clone()]);
            let held = job.held.get(&spec.key);
            // a file that its run did not read (it failed first) is read again
            let unread = !held.is_some_and(|h| h.read.contains_key(&file));
            let due = stale(held, &spec, self.known.get(&spec.key), &job)
                || (job.changed.contains(&file) && unread);
            if due && !self.analyse(job.id, &spec, &overlay, &mut done) {
                return done;
            }
        }
        // what is neither live nor a candidate is forgotten
        self.known
            .retain(|k, _| done.live.contains_key(k) || candidates.contains_key(k));
        self.checked.retain(|k, _| self.known.contains_key(k));
        done
    }

    /// Analyses one run into `done`; false when the job was cancelled.
    fn analyse(&mut self, job: u64, spec: &RunSpec, overlay: &Overlay, done: &mut Done) -> bool {
        if self.stop.cancelled(job) {
            done.cancelled = true;
            return false;
        }
        let start = Instant::now();
        self.stop.begin(job);
        let checked = self.checked.entry(spec.key.clone()).or_default();
        let a = analysis::analyse(&*self.host, spec, overlay, &self.stop, checked);
        let cancelled = self.stop.cancelled(job);
        self.stop.end();
        if cancelled {
            done.cancelled = true;
            return false;
        }
        // a run that failed before it read a file still stands for the files it read
        // last (its problem is theirs)
        let inputs = match self.known.remove(&spec.key) {
            Some(before) if a.inputs.is_empty() => before,
            _ => a.inputs.keys().cloned().collect(),
        };
        self.known.insert(spec.key.clone(), inputs);
        done.analysed.push(RunResult {
            spec: spec.clone(),
            inputs: Arc::new(a.inputs),
            findings: a.findings,
            outcome: a.outcome,
            render: a.render.map(Arc::new),
            facts: a.facts.map(Arc::new),
            log: a.log,
            elapsed: start.elapsed(),
        });
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Paths of a workspace that is not on disk.
    fn p(name: &str) -> PathBuf {
        PathBuf::from("/ytt-lsp-no-such-dir").join(name)
    }

    fn job(changed: &[&str], open: &[(&str, &str)]) -> Job {
        Job {
            id: 1,
            changed: changed.iter().map(|n| p(n)).collect(),
            overlay: Arc::new(open.iter().map(|(n, t)| (p(n), Arc::from(*t))).collect()),
            folders: Vec::new(),
            project_file: None,
            held: BTreeMap::new(),
        }
    }

    fn held(spec: &RunSpec, read: &[(&str, &str)]) -> Held {
        Held {
            spec: spec.clone(),
            read: Arc::new(
                (read.iter())
                    .map(|(n, t)| (p(n), Arc::from(t.as_bytes())))
                    .collect(),
            ),
        }
    }

    #[test]
    fn a_held_result_stands_while_the_files_it_read_read_the_same() {
        let spec = project::alone(&p("a.yml"));
        let h = held(&spec, &[("a.yml", "a: 1\n"), ("b.yml", "b: 1\n")]);
        let known: BTreeSet<PathBuf> = h.read.keys().cloned().collect();
        let stale_after = |j: Job| stale(Some(&h), &spec, Some(&known), &j);
        // opened or saved as it was read; edited
        assert!(!stale_after(job(&["a.yml"], &[("a.yml", "a: 1\n")])));
        assert!(stale_after(job(&["a.yml"], &[("a.yml", "a: 2\n")])));
        // closed: the disk has no such file
        assert!(stale_after(job(&["b.yml"], &[])));
        // a file it did not read is not its concern...
        assert!(!stale_after(job(&["c.yml"], &[("c.yml", "c: 1\n")])));
        // ... unless a later analysis, whose result was dropped, read it
        let later: BTreeSet<PathBuf> = known.iter().cloned().chain([p("c.yml")]).collect();
        let changed_c = job(&["c.yml"], &[("c.yml", "c: 1\n")]);
        assert!(stale(Some(&h), &spec, Some(&later), &changed_c));
        // no result held, or one of other arguments
        assert!(stale(None, &spec, Some(&known), &job(&[], &[])));
        let other = held(&project::alone(&p("b.yml")), &[("a.yml", "a: 1\n")]);
        assert!(stale(Some(&other), &spec, Some(&known), &job(&[], &[])));
    }

    #[test]
    fn a_file_reads_as_its_open_text_else_as_its_bytes_on_disk() {
        let dir = std::env::temp_dir().join(format!("ytt-lsp-reads-as-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let a = dir.join("a.yml");
        std::fs::write(&a, "a: 1\n").unwrap();
        let closed: Overlay = Arc::default();
        assert!(reads_as(&a, b"a: 1\n", &closed));
        assert!(!reads_as(&a, b"a: 2\n", &closed));
        assert!(!reads_as(&dir.join("missing.yml"), b"", &closed));
        assert!(!reads_as(&dir, b"", &closed));
        let open: Overlay = Arc::new([(a.clone(), Arc::from("a: 2\n"))].into());
        assert!(reads_as(&a, b"a: 2\n", &open));
        assert!(!reads_as(&a, b"a: 1\n", &open));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
