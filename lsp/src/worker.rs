//! The analysis thread: it takes a job (the files that changed, the open documents' texts),
//! decides which runs to analyse, analyses them one after the other on a stack as large as
//! the engine's, and sends the results back. A job the server cancels (an edit superseded
//! it) stops at its run going on and starts no other.
//!
//! Which runs a job analyses: every run of the projects and libraries of the open and
//! changed files (see `project`) whose result the server does not hold as the run is now
//! (never analysed, dropped, or its arguments changed), and those that read a changed
//! file; a changed file that no run of its project read (a new
//! file, maybe) has all of its project's runs analysed. Then the runs that read an open
//! file stay (a run that failed before it read any, while an open file is in its project
//! or library), and an open file no run stands for is analysed alone.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};

use crate::analysis::{self, Outcome, Render};
use crate::documents::Overlay;
use crate::findings::Finding;
use crate::host::Host;
use crate::project::{self, Project, RunKey, RunSpec};
use crate::stop::Stopper;

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
    pub held: BTreeMap<RunKey, RunSpec>,
}

/// One run analysed.
pub struct RunResult {
    pub spec: RunSpec,
    pub inputs: BTreeSet<PathBuf>,
    pub findings: Vec<Finding>,
    pub outcome: Outcome,
    pub render: Option<Arc<Render>>,
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

// what the server keeps of a render is read from its thread
const _: fn() = || {
    fn shared<T: Send + Sync>() {}
    shared::<Render>();
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
            let read_changed = (self.known.get(key))
                .is_some_and(|inputs| job.changed.iter().any(|c| inputs.contains(c)));
            if job.held.get(key) != Some(spec) || read_changed {
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
            let due = job.held.get(&spec.key) != Some(&spec) || job.changed.contains(&file);
            if due && !self.analyse(job.id, &spec, &overlay, &mut done) {
                return done;
            }
        }
        // what is neither live nor a candidate is forgotten
        self.known
            .retain(|k, _| done.live.contains_key(k) || candidates.contains_key(k));
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
        let a = analysis::analyse(&*self.host, spec, overlay, &self.stop);
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
            _ => a.inputs.clone(),
        };
        self.known.insert(spec.key.clone(), inputs);
        done.analysed.push(RunResult {
            spec: spec.clone(),
            inputs: a.inputs,
            findings: a.findings,
            outcome: a.outcome,
            render: a.render.map(Arc::new),
            log: a.log,
            elapsed: start.elapsed(),
        });
        true
    }
}
