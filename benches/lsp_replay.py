#!/usr/bin/env python3
"""Replays an editor's session against `ytt lsp` over stdio on the `package` workload of
../shared/bench, and reports how long the editor waits.

    python3 benches/lsp_replay.py [--bin target/release/ytt] [--scale 1] [--rounds 10]
                                  [--debounce-ms 200] [--requests 20] [--check] [--json OUT]

What it does, as an editor would: generates the workload (`gen.py --scale S`) into a
temporary directory, writes a `ytt-lsp.toml` there that states the workload's `args` (the
package's invocation: `-f config --data-values-file values.yml`, not the default
`ytt -f FOLDER`), starts `ytt lsp` with that directory as the workspace folder and
`debounceMs` as given, then

1. opens a template (an overlay) and waits for its diagnostics: *first diagnostics*;
2. opens the files it edits and asks at, each waiting for its diagnostics;
3. asks hover, completion and definition at positions found in the files (a
   `data.values.` read, a key of values.yml, a `load()` path), `--requests` times each:
   while the server answers MethodNotFound the request is reported "not supported";
4. edits, `--rounds` times, each kind below once, sending the document's whole text and
   waiting for the edited document's diagnostics of that version: a values-file value,
   a line of a vendored template (and of the 1.1 MB one), an overlay's value and code;
   and edits that break the run (a value a validation rule rejects, a YAML syntax error,
   a Starlark error), each followed by the edit that repairs it; after each round, the
   values file is saved (written, then `didSave`) as it is open;
5. reads the server's peak resident memory (VmHWM in /proc) and shuts it down.

Each edit's time is from sending it to receiving its diagnostics, so it includes the
debounce (the quiet period the server waits after an edit before analysing); the "after
quiet" column subtracts it: what the analysis and the protocol cost. The server's own
figure for each analysis (its `window/logMessage` "run ... in N ms") is shown beside.

`--check` makes it a test of itself: it exits 1 when an answer does not come, a breaking
edit publishes no error or a valid one leaves an error; figures are never checked (goals
live in benchmarks, not in timed tests). CI runs `--scale 0.05 --rounds 2 --check` on
its build; the full benchmark is run by hand on a release build (docs/performance.md).
Python 3 standard library only; Linux (/proc).
"""

import argparse
import json
import os
import queue
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
GEN = os.path.join(ROOT, "..", "shared", "bench", "gen.py")
# How long any answer may take (a debug build on a loaded machine).
PATIENCE = 120.0
METHOD_NOT_FOUND = -32601
# the requests' targets (milliseconds, median), the edits', the memory's (MiB)
REQUEST_TARGET_MS = 30
EDIT_TARGET_MS = 100
MEMORY_TARGET_MIB = 150

# The workload's files the session opens; the first is the template whose first
# diagnostics are timed.
FIRST = "config/overlays/20-deployments.yml"
OPENED = [
    FIRST,
    "values.yml",
    "config/schema.yml",
    "config/overlays/10-namespace.yml",
    "config/overlays/30-labels.yml",
    "config/overlays/40-config.yml",
    "config/upstream/certflow.yaml",
    "config/upstream/certflow.crds.yaml",
]


class Failure(Exception):
    pass


# ---------------------------------------------------------------------------------------
# The edits: each a function of (text, round) giving the new text, found by content so
# that they hold at every scale.


def sub_once(pattern, repl, text, flags=re.M):
    new, n = re.subn(pattern, repl, text, count=1, flags=flags)
    if n != 1:
        raise Failure(f"the workload has no line matching {pattern!r}")
    return new


def controller_line(key):
    # the controller's key in values.yml (the first `  key:` after `controller:`)
    return rf"(^controller:\n(?:  .*\n)*?  {key}: )(\S+)$"


def values_value(text, r):
    if r % 2 == 0:
        return sub_once(controller_line("replicas"), lambda m: m[1] + str(2 + r % 8), text)
    levels = ["info", "warn", "error", "debug"]
    return sub_once(controller_line("logLevel"), lambda m: m[1] + levels[r % 4], text)


def values_break(text, r):
    # the schema says 1 <= replicas <= 10
    return sub_once(controller_line("replicas"), lambda m: m[1] + "20", text)


def template_line(text, r):
    return sub_once(r"^(    port: )(\d+)$", lambda m: m[1] + str(9402 + r + 1), text)


def template_large(text, r):
    return sub_once(
        r"^(\s+description: CreationTimestamp is a timestamp)(.*)$",
        lambda m: m[1] + f" (edit {r})",
        text,
    )


def template_break(text, r):
    # an unclosed flow sequence
    return sub_once(r"^(  minAvailable: )(\d+)$", lambda m: m[1] + "[" + m[2], text)


def overlay_value(text, r):
    if r % 2 == 0:
        return sub_once(
            r"^(    kapp\.k14s\.io/delete-strategy: )(.*)$",
            lambda m: m[1] + ("orphan" if r % 4 else "orphan-all"),
            text,
        )
    return sub_once(
        r"^(    kapp\.k14s\.io/change-group: certflow\.io/install)(.*)$",
        lambda m: m[1] + f"-{r}",
        text,
    )


def overlay_code(text, r):
    seps = [";", ",", "|", "+"]
    return sub_once(r'^(  features: #@ ")(.)(")', lambda m: m[1] + seps[r % 4] + m[3], text)


def overlay_break(text, r):
    # an attribute no data value has: an evaluation error
    return sub_once(r"(data\.values\.namespace)\b", "data.values.namespac", text)


# (kind, file, edit, whether the run breaks); a breaking edit is followed by its repair
# (the text before it), kind "<kind> (repair)".
EDITS = [
    ("values: a value", "values.yml", values_value, False),
    ("template: a line", "config/upstream/certflow.yaml", template_line, False),
    ("template: a line of the largest file", "config/upstream/certflow.crds.yaml",
     template_large, False),
    ("overlay: a value", "config/overlays/30-labels.yml", overlay_value, False),
    ("overlay: a code line", "config/overlays/40-config.yml", overlay_code, False),
    ("values: breaks a rule", "values.yml", values_break, True),
    ("template: breaks the YAML", "config/upstream/certflow.yaml", template_break, True),
    ("overlay: a Starlark error", "config/overlays/10-namespace.yml", overlay_break, True),
]


# ---------------------------------------------------------------------------------------
# Where the requests are asked: positions found in the files.


def utf16(s):
    return len(s.encode("utf-16-le")) // 2


def position_of(text, pattern, group=1):
    """The position where `group` of the first match of `pattern` starts."""
    m = re.search(pattern, text, flags=re.M)
    if not m:
        raise Failure(f"no {pattern!r} in the workload")
    offset = m.start(group)
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    return {"line": line, "character": utf16(text[start:offset])}


# (request, file, pattern whose group 1 starts where the cursor is, what it is)
REQUESTS = [
    ("textDocument/hover", "config/overlays/10-namespace.yml",
     r"data\.values\.(namespace)", "on a data.values read in a template"),
    ("textDocument/hover", "values.yml",
     r"^controller:\n(?:  .*\n)*?  (replicas):", "on a key of values.yml"),
    ("textDocument/hover", "config/schema.yml",
     r"^  (timeoutSeconds):", "on a key of the schema"),
    ("textDocument/hover", "config/overlays/40-config.yml",
     r"overlay\.(subset)", "on an @ytt: function"),
    ("textDocument/completion", "config/overlays/20-deployments.yml",
     r"data\.values\.()image\.pullPolicy", "after data.values."),
    ("textDocument/completion", "values.yml",
     r"^controller:\n(?:  .*\n)*?  ()logLevel:", "of a key in values.yml"),
    ("textDocument/definition", "config/overlays/10-namespace.yml",
     r"data\.values\.(namespace)", "of a data.values read"),
    ("textDocument/definition", "config/overlays/20-deployments.yml",
     r'load\("/(lib)/helpers\.star"', "of a load() path"),
    ("textDocument/definition", "config/overlays/20-deployments.yml",
     r"#@ (resources)\(component\.resources\)", "of a loaded function (its def)"),
]


# ---------------------------------------------------------------------------------------
# The protocol


class Server:
    def __init__(self, binary, workspace, debounce_ms):
        self.workspace = workspace
        self.proc = subprocess.Popen(
            [binary, "lsp"],
            cwd=workspace,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.messages = queue.Queue()
        self.next_id = 0
        self.versions = {}
        self.texts = {}
        self.log = []  # the server's logMessages, (time, text)
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        self.capabilities = self.call(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": self.uri(""),
                "capabilities": {
                    "textDocument": {
                        "hover": {"contentFormat": ["markdown", "plaintext"]},
                        "completion": {"completionItem": {"snippetSupport": False}},
                        "publishDiagnostics": {"relatedInformation": True,
                                               "versionSupport": True},
                    },
                    "workspace": {"workspaceFolders": True},
                },
                "initializationOptions": {"debounceMs": debounce_ms},
                "workspaceFolders": [{"uri": self.uri(""), "name": "package"}],
            },
        )["result"]["capabilities"]
        self.notify("initialized", {})

    def uri(self, rel):
        path = os.path.join(self.workspace, rel) if rel else self.workspace
        return "file://" + path

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.messages.put((time.perf_counter(), None))
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            body = out.read(length)
            self.messages.put((time.perf_counter(), json.loads(body)))

    def _drain_stderr(self):
        for _ in self.proc.stderr:
            pass

    def send(self, msg):
        body = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def wait(self, want, what):
        """The first message `want` accepts, and when it came; other messages are noted."""
        deadline = time.perf_counter() + PATIENCE
        while True:
            try:
                at, msg = self.messages.get(timeout=max(0.0, deadline - time.perf_counter()))
            except queue.Empty:
                raise Failure(f"no {what} within {PATIENCE:.0f} s") from None
            if msg is None:
                raise Failure(f"the server exited while waiting for {what}")
            if msg.get("method") == "window/logMessage":
                self.log.append((at, msg["params"]["message"]))
            if want(msg):
                return at, msg

    def call(self, method, params):
        id = self.request(method, params)
        return self.wait(lambda m: m.get("id") == id and "method" not in m, method)[1]

    def diagnostics_of(self, rel, version):
        uri = self.uri(rel)

        def want(m):
            p = m.get("params") or {}
            return (m.get("method") == "textDocument/publishDiagnostics"
                    and p.get("uri") == uri and p.get("version") == version)

        return self.wait(want, f"diagnostics of {rel} version {version}")

    def open(self, rel):
        with open(os.path.join(self.workspace, rel), encoding="utf-8") as f:
            text = f.read()
        self.texts[rel] = text
        self.versions[rel] = 1
        start = time.perf_counter()
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": self.uri(rel), "languageId": "yaml", "version": 1, "text": text}})
        at, msg = self.diagnostics_of(rel, 1)
        return at - start, msg["params"]["diagnostics"]

    def change(self, rel, text):
        self.versions[rel] += 1
        version = self.versions[rel]
        self.texts[rel] = text
        logged = len(self.log)
        start = time.perf_counter()
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": self.uri(rel), "version": version},
            "contentChanges": [{"text": text}],
        })
        at, msg = self.diagnostics_of(rel, version)
        return at - start, msg["params"]["diagnostics"], run_times(self.log[logged:])

    def save(self, rel):
        """Writes the document's text to disk, as an editor saves, and says so."""
        with open(os.path.join(self.workspace, rel), "w", encoding="utf-8") as f:
            f.write(self.texts[rel])
        logged = len(self.log)
        start = time.perf_counter()
        self.notify("textDocument/didSave", {"textDocument": {"uri": self.uri(rel)}})
        at, msg = self.diagnostics_of(rel, self.versions[rel])
        return at - start, msg["params"]["diagnostics"], run_times(self.log[logged:])

    def peak_memory_kib(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        raise Failure("no VmHWM in /proc")

    def close(self):
        self.call("shutdown", None)
        self.notify("exit", None)
        try:
            code = self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise Failure("the server did not exit") from None
        if code != 0:
            raise Failure(f"the server exited with {code}")


def run_times(logs):
    """The server's own figures: "... run 'NAME' OUTCOME in N ms" of its log."""
    return [int(m[1]) for _, text in logs for m in re.finditer(r" in (\d+) ms", text)]


def errors(diagnostics):
    return [d for d in diagnostics if d.get("severity", 1) == 1]


# ---------------------------------------------------------------------------------------
# The session


def workload(args, tmp):
    """A copy of the package workload, with a project file stating its invocation."""
    if args.workload:
        src = args.workload
    else:
        if not os.path.exists(GEN):
            raise Failure(f"{os.path.normpath(GEN)} is missing: ../shared beside the project")
        gen = os.path.join(tmp, "gen")
        subprocess.run([sys.executable, GEN, gen, "--scale", str(args.scale)],
                       check=True, stdout=subprocess.DEVNULL)
        src = os.path.join(gen, "package")
    dst = os.path.join(tmp, "package")
    shutil.copytree(src, dst)
    with open(os.path.join(dst, "args")) as f:
        run = f.read().split()
    with open(os.path.join(dst, "ytt-lsp.toml"), "w") as f:
        f.write("# the package's invocation (its `args` file)\n[[run]]\nname = \"package\"\n")
        f.write("args = [" + ", ".join(json.dumps(a) for a in run) + "]\n")
    return os.path.realpath(dst)


def stats(xs):
    xs = sorted(xs)
    if not xs:
        return None
    p90 = xs[min(len(xs) - 1, max(0, -(-len(xs) * 9 // 10) - 1))]
    return {"n": len(xs), "median": statistics.median(xs), "p90": p90, "max": xs[-1]}


def ms(seconds):
    return round(seconds * 1000, 1)


def session(args, ws):
    problems = []
    report = {"workspace_bytes": sum(
        os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(ws) for f in fs)}
    server = Server(args.bin, ws, args.debounce_ms)
    debounce = args.debounce_ms / 1000
    try:
        # 1. first diagnostics, 2. the other files opened
        opened = {}
        for rel in OPENED:
            t, diags = server.open(rel)
            opened[rel] = {"ms": ms(t), "after_quiet_ms": ms(t - debounce),
                           "errors": len(errors(diags))}
            if errors(diags):
                problems.append(f"{rel} opened with errors: {errors(diags)[:1]}")
        report["first_diagnostics"] = opened[FIRST]
        others = stats([o["ms"] / 1000 for rel, o in opened.items() if rel != FIRST])
        report["open_others"] = {"n": others["n"], "median_ms": ms(others["median"]),
                                 "after_quiet_median_ms": ms(others["median"] - debounce)}
        report["open"] = opened
        report["server_runs_at_open"] = run_times(server.log)

        # 3. requests
        caps = server.capabilities
        report["requests"] = []
        for method, rel, pattern, what in REQUESTS:
            pos = position_of(server.texts[rel], pattern)
            params = {"textDocument": {"uri": server.uri(rel)}, "position": pos}
            times, state = [], "answered"
            for _ in range(args.requests):
                start = time.perf_counter()
                reply = server.call(method, params)
                took = time.perf_counter() - start
                if "error" in reply:
                    state = ("not supported" if reply["error"]["code"] == METHOD_NOT_FOUND
                             else "error: " + reply["error"].get("message", ""))
                    break
                if reply.get("result") in (None, [], {}):
                    state = "answered: empty"
                times.append(took)
            if state.startswith("error"):
                problems.append(f"{method} {what}: {state}")
            s = stats(times)
            report["requests"].append({
                "method": method, "file": rel, "at": what, "position": pos,
                "state": state, "advertised": bool(caps.get(
                    method.split("/")[1] + "Provider")),
                "median_ms": s and ms(s["median"]), "p90_ms": s and ms(s["p90"]),
            })

        # 4. edits
        samples = {}

        def edit(kind, rel, text, breaks):
            if text is None:
                t, diags, runs = server.save(rel)
            else:
                t, diags, runs = server.change(rel, text)
            samples.setdefault(kind, []).append((t, runs))
            errs = errors(diags)
            if breaks and not errs:
                problems.append(f"{kind}: no error on {rel}")
            if not breaks and errs:
                problems.append(f"{kind}: {rel} has errors: {errs[0].get('message')!r}")

        for r in range(args.rounds):
            for kind, rel, change, breaks in EDITS:
                before = server.texts[rel]
                edit(kind, rel, change(before, r), breaks)
                if breaks:
                    edit(kind + " (repair)", rel, before, False)
            # the values file saved as it is open: the text the last analysis read
            edit("save values.yml (text unchanged)", "values.yml", None, False)
        report["edits"] = []
        for kind, xs in samples.items():
            s = stats([t for t, _ in xs])
            runs = stats([sum(rs) / 1000 for _, rs in xs if rs])
            report["edits"].append({
                "kind": kind, "n": s["n"],
                "median_ms": ms(s["median"]), "p90_ms": ms(s["p90"]),
                "after_quiet_median_ms": ms(s["median"] - debounce),
                "after_quiet_p90_ms": ms(s["p90"] - debounce),
                "server_run_median_ms": runs and ms(runs["median"]),
            })
        every = [t for kind, xs in samples.items() if not kind.startswith("save")
                 for t, _ in xs]
        s = stats(every)
        report["all_edits"] = {"n": s["n"], "median_ms": ms(s["median"]),
                               "p90_ms": ms(s["p90"]),
                               "after_quiet_median_ms": ms(s["median"] - debounce),
                               "after_quiet_p90_ms": ms(s["p90"] - debounce)}

        # 5. memory
        report["peak_memory_mib"] = round(server.peak_memory_kib() / 1024, 1)
    finally:
        try:
            server.close()
        except Failure as e:
            problems.append(str(e))
    report["problems"] = problems
    return report


def show(report, args):
    print(f"ytt lsp on the package workload (scale {args.scale}, "
          f"{report['workspace_bytes'] / 1e6:.2f} MB), {args.bin}; debounceMs "
          f"{args.debounce_ms}; times from the editor's message to the answer, "
          "'after quiet' without the debounce")
    f = report["first_diagnostics"]
    print(f"\nfirst diagnostics after opening {FIRST}: {f['ms']} ms "
          f"({f['after_quiet_ms']} ms after quiet)")
    o = report["open_others"]
    print(f"opening {o['n']} more files, each: median {o['median_ms']} ms "
          f"({o['after_quiet_median_ms']} ms after quiet)")
    print("\nedits (diagnostics of the edited version)      n   median    p90   "
          "after quiet: median  p90   server's run")
    for e in report["edits"] + [dict(report["all_edits"], kind="all edits",
                                     server_run_median_ms=None)]:
        mark = "" if e["after_quiet_median_ms"] <= EDIT_TARGET_MS else "  > target"
        run = "" if e["server_run_median_ms"] is None else f"{e['server_run_median_ms']:8.1f}"
        print(f"  {e['kind']:<44}{e['n']:>3} {e['median_ms']:8.1f} {e['p90_ms']:6.1f}"
              f"      {e['after_quiet_median_ms']:8.1f} {e['after_quiet_p90_ms']:6.1f}"
              f"   {run}{mark}")
    print(f"\nrequests (target <= {REQUEST_TARGET_MS} ms; {args.requests} each)")
    for q in report["requests"]:
        where = f"{q['method'].split('/')[1]} {q['at']}"
        if q["median_ms"] is None:
            print(f"  {where:<46} {q['state']}")
        else:
            mark = "" if q["median_ms"] <= REQUEST_TARGET_MS else "  > target"
            print(f"  {where:<46} median {q['median_ms']:6.1f} ms, p90 {q['p90_ms']:6.1f} ms"
                  f" ({q['state']}){mark}")
    mark = "" if report["peak_memory_mib"] <= MEMORY_TARGET_MIB else "  > target"
    print(f"\npeak memory (VmHWM): {report['peak_memory_mib']} MiB "
          f"(target <= {MEMORY_TARGET_MIB}){mark}")
    for p in report["problems"]:
        print(f"problem: {p}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "ytt"))
    ap.add_argument("--scale", type=float, default=1.0, help="the workload's (gen.py --scale)")
    ap.add_argument("--workload", help="a package workload already generated (copied)")
    ap.add_argument("--rounds", type=int, default=10, help="each edit kind this many times")
    ap.add_argument("--debounce-ms", type=int, default=200, help="the server's debounceMs")
    ap.add_argument("--requests", type=int, default=20, help="each request this many times")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 when a step fails (never on figures)")
    ap.add_argument("--json", help="also write the figures as JSON here")
    args = ap.parse_args()
    args.bin = os.path.abspath(args.bin)
    with tempfile.TemporaryDirectory(prefix="ytt-lsp-bench-") as tmp:
        try:
            report = session(args, workload(args, tmp))
        except Failure as e:
            print(f"lsp_replay: {e}", file=sys.stderr)
            sys.exit(1)
    show(report, args)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    if args.check and report["problems"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
