//! Garbage collection inside loops (`eval::gc`): a loop, in a function or not, collects
//! garbage while it runs. Every body below allocates 3 MB a time, so that each
//! iteration passes the collection threshold; what the loops keep, and what the code
//! that called them holds, must come out intact, in every kind of file a loop can be
//! in. (Debug builds overwrite what a collection leaves behind: a value read after it
//! moved reads junk. Peak memory: `benches/loop_memory.sh`.)

mod common;

use common::Ytt;

fn render(files: &[(&str, &str)], args: &[&str]) -> String {
    let mut y = Ytt::new();
    for (name, text) in files {
        y = y.file(name, text);
    }
    y.run(args).ok().to_owned()
}

#[test]
fn values_made_in_a_loop_survive_collections() {
    let out = render(
        &[(
            "t.yml",
            r#"#@ load("@ytt:struct", "struct")
#@ def item(i):
name: #@ "n{}".format(i)
#@ end
#@ kept = []
#@ by_key = {}
#@ for i in range(6):
#@   big = "x" * 3000000
#@   kept.append(item(i))
#@   by_key["k{}".format(i)] = struct.make(i=i, head=big[:2])
#@ end
items: #@ kept
keys: #@ {k: v.i for k, v in by_key.items()}
head: #@ by_key["k5"].head
nodes:
#@ for i in range(4):
#@   big = "y" * 3000000
- #@ i
#@ end
"#,
        )],
        &["-f", "t.yml"],
    );
    assert_eq!(
        out,
        "items:\n- name: n0\n- name: n1\n- name: n2\n- name: n3\n- name: n4\n- name: n5\n\
         keys:\n  k0: 0\n  k1: 1\n  k2: 2\n  k3: 3\n  k4: 4\n  k5: 5\nhead: xx\n\
         nodes:\n- 0\n- 1\n- 2\n- 3\n"
    );
}

/// A loop over a list the template builds holds the list's iteration lock: the list
/// moves at each collection inside the loop, the lock works inside it and is released
/// after it (also on `break`, and with loops nested either way).
#[test]
fn a_loop_over_a_list_the_template_builds_keeps_its_lock() {
    let out = Ytt::new()
        .file(
            "t.yml",
            "#@ l = [1, 2]\n#@ for x in l:\n#@   big = \"x\" * 3000000\n#@   l.append(3)\n#@ end\n",
        )
        .run(&["-f", "t.yml"]);
    assert!(
        out.err()
            .contains("This operation mutates an iterable for an iterator while iterating.")
            && out.err().contains("t.yml:4 | #@   l.append(3)"),
        "{}",
        out.stderr
    );
    let out = render(
        &[(
            "t.yml",
            r#"#@ l = [1, 2]
#@ for x in l:
#@   big = "x" * 3000000
#@   break
#@ end
#@ l.append(3)
#@ for i in range(3):
#@   big = "y" * 3000000
#@   for x in l:
#@     big = "z" * 3000000
#@   end
#@ end
#@ for x in l:
#@   for i in range(3):
#@     big = "z" * 3000000
#@   end
#@ end
#@ l.append(4)
a: #@ l
"#,
        )],
        &["-f", "t.yml"],
    );
    assert_eq!(out, "a:\n- 1\n- 2\n- 3\n- 4\n");
}

#[test]
fn while_loops_collect() {
    let out = render(
        &[(
            "t.yml",
            "#@ n = 0\n#@ s = []\n#@ while n < 5:\n#@   big = \"x\" * 3000000\n#@   s.append(big[n:n+1])\n#@   n += 1\n#@ end\ncount: #@ n\ns: #@ \"\".join(s)\n",
        )],
        &["-f", "t.yml"],
    );
    assert_eq!(out, "count: 5\ns: xxxxx\n");
}

/// Loops in functions, in Starlark files, text templates, data values and libraries.
#[test]
fn loops_in_every_kind_of_file() {
    let out = render(
        &[
            (
                "lib.star",
                "parts = []\nfor i in range(4):\n    big = \"s\" * 3000000\n    parts.append(big[:1] + str(i))\nend\n",
            ),
            (
                "values.yml",
                "#@data/values\n---\n#@ v = []\n#@ for i in range(3):\n#@   big = \"v\" * 3000000\n#@   v.append(i)\n#@ end\nv: #@ v\n",
            ),
            (
                "_ytt_lib/sub/t.yml",
                "#@ out = []\n#@ for i in range(3):\n#@   big = \"l\" * 3000000\n#@   out.append(i * 10)\n#@ end\nlib: #@ out\n",
            ),
            (
                "t.yml",
                r#"#@ load("@ytt:data", "data")
#@ load("@ytt:library", "library")
#@ load("@ytt:template", "template")
#@ load("lib.star", "parts")
#@ def count():
#@   n = 0
#@   for i in range(3):
#@     big = "f" * 3000000
#@     n += len(big[:1])
#@   end
#@   return n
#@ end
star: #@ parts
values: #@ data.values.v
in_def: #@ count()
--- #@ template.replace(library.get("sub").eval())
"#,
            ),
        ],
        &["-f", "."],
    );
    assert_eq!(
        out,
        "star:\n- s0\n- s1\n- s2\n- s3\nvalues:\n- 0\n- 1\n- 2\nin_def: 3\n---\nlib:\n- 0\n- 10\n- 20\n"
    );
    let y = Ytt::new().file(
        "t.txt",
        "(@ for i in range(3): @)(@ big = \"t\" * 3000000 @)(@= big[:1] + str(i) @) (@ end @)\n",
    );
    y.run(&["-f", "t.txt", "--output-files", "out"]).ok();
    assert_eq!(y.read("out/t.txt"), "t0 t1 t2 \n");
}

/// Regression (a segmentation fault on some machines): a collection moves every value of
/// the module's heap, and a running loop holds its iterator in its frame's stack. A loop
/// over a `range`, a `while` loop (nested, left by `break`), a loop over data values and
/// one over a tuple, each collecting.
/// (`valgrind target/release/ytt -f …` on this template reports no invalid read.)
#[test]
fn loop_iterables_survive_collections() {
    let out = render(
        &[
            (
                "t.yml",
                r#"#@ load("@ytt:data", "data")
#@ kept = []
#@ for i in range(6):
#@   big = "x" * 3000000
#@   kept.append(big[i:i+2])
#@   for j in range(2):
#@     kept.append(str(j) * 1000000)
#@   end
#@ end
#@ n = 0
#@ while n < 4:
#@   big = "y" * 3000000
#@   n += 1
#@   if n == 3:
#@     break
#@   end
#@ end
#@ for v in data.values.xs:
#@   big = "z" * 3000000
#@   kept.append(v)
#@ end
#@ for t in (1, 2, 3):
#@   big = "t" * 3000000
#@   kept.append(t)
#@ end
count: #@ len(kept)
runs: #@ n
tail: #@ kept[-6:]
"#,
            ),
            ("values.yml", "#@data/values\n---\nxs: [1, 2, 3]\n"),
        ],
        &["-f", "t.yml", "-f", "values.yml"],
    );
    assert_eq!(
        out,
        "count: 24\nruns: 3\ntail:\n- 1\n- 2\n- 3\n- 1\n- 2\n- 3\n"
    );
}

/// The shape of the `compute` benchmark: a function whose loop makes strings, a list
/// and a dict entry at every iteration, keeps the dict, and returns it.
#[test]
fn a_function_loop_keeps_what_it_returns() {
    let out = render(
        &[(
            "t.yml",
            r#"#@ def work(n):
#@   acc = {}
#@   for i in range(n):
#@     big = "x" * 3000000
#@     k = "key-" + str(i % 3)
#@     acc[k] = acc.get(k, []) + "{}-{}".format(k, i).upper().split("-") + [big[:1]]
#@   end
#@   return acc
#@ end
#@ result = work(7)
buckets: #@ len(result)
first: #@ result["key-1"]
"#,
        )],
        &["-f", "t.yml"],
    );
    assert_eq!(
        out,
        "buckets: 3\nfirst:\n- KEY\n- \"1\"\n- \"1\"\n- x\n- KEY\n- \"1\"\n- \"4\"\n- x\n"
    );
}

/// A function that collects, called while its callers hold temporaries: the values of
/// other arguments, list and dict items, operands, a method's receiver, `*args` and
/// `**kwargs`, a string being formatted; called from a function in the middle of its own
/// loop, recursively, from a lambda, and as a struct's method.
#[test]
fn callers_temporaries_survive_collections_in_what_they_call() {
    let out = render(
        &[(
            "t.yml",
            r#"#@ load("@ytt:struct", "struct")
#@ def f(n):
#@   s = ""
#@   for i in range(n):
#@     big = "f" * 3000000
#@     s += big[:1] + str(i)
#@   end
#@   return s
#@ end
#@ def both(a, b, c=None, **kw):
#@   return [a, b, c, sorted(kw.items())]
#@ end
#@ def outer(n):
#@   got = []
#@   for i in range(n):
#@     big = "o" * 3000000
#@     got.append(big[:1] + f(i + 1) + "/" + str(len(got)))
#@   end
#@   return got
#@ end
#@ def depth(n):
#@   if n == 0:
#@     return [f(2)]
#@   end
#@   kept = "d" + str(n)
#@   return [kept] + depth(n - 1) + [f(1), kept]
#@ end
#@ l = ["start"]
#@ l.append(f(1) + f(2))
#@ d = {"a": f(1), "b": [f(2), f(3)]}
#@ args = [f(1), f(2)]
list: #@ [f(1), "mid", f(2)]
dict: #@ d
concat: #@ l
format: #@ "{}|{}|{}".format("x" + "y", f(2), f(1))
kwargs: #@ both(f(1), *[f(2)], **{"z": f(3), "c": f(1)})
spread: #@ both(*args)
outer: #@ outer(3)
depth: #@ depth(2)
lambda: #@ (lambda n: f(n) + f(n))(2)
method: #@ [f(1), struct.make(f=f).f(2)]
"#,
        )],
        &["-f", "t.yml"],
    );
    assert_eq!(
        out,
        r#"list:
- f0
- mid
- f0f1
dict:
  a: f0
  b:
  - f0f1
  - f0f1f2
concat:
- start
- f0f0f1
format: xy|f0f1|f0
kwargs:
- f0
- f0f1
- f0
- - - z
    - f0f1f2
spread:
- f0
- f0f1
- null
- []
outer:
- of0/0
- of0f1/1
- of0f1f2/2
depth:
- d2
- d1
- f0f1
- f0
- d1
- f0
- d2
lambda: f0f1f0f1
method:
- f0
- f0f1
"#
    );
}

/// In a function: a loop over a list the function builds (the list moves, its lock
/// holds and is released on `break`, on `return` and at the end), over a dict, a
/// `while` loop, nested loops left by `continue` and `return`, closures over the loop's
/// variables.
#[test]
fn loops_in_functions_keep_their_iterators_and_locks() {
    let out = render(
        &[(
            "t.yml",
            r#"#@ def find(l, want):
#@   for x in l:
#@     big = "x" * 3000000
#@     if x == want:
#@       return x + big[:1]
#@     end
#@   end
#@   return None
#@ end
#@ def walk():
#@   l = [str(i) for i in range(4)]
#@   seen = []
#@   for x in l:
#@     big = "w" * 3000000
#@     if x == "1":
#@       continue
#@     end
#@     for y in {"a": 1, "b": 2}:
#@       big = "y" * 3000000
#@       seen.append(x + y)
#@       if y == "a":
#@         break
#@       end
#@     end
#@   end
#@   l.append(find(l, "2"))
#@   n = 0
#@   while n < 3:
#@     big = "n" * 3000000
#@     n += 1
#@   end
#@   fns = []
#@   for x in l:
#@     big = "c" * 3000000
#@     fns.append(lambda: x + big[:1])
#@   end
#@   return [seen, l, n, [f() for f in fns]]
#@ end
walk: #@ walk()
"#,
        )],
        &["-f", "t.yml"],
    );
    assert_eq!(
        out,
        "walk:\n- - 0a\n  - 2a\n  - 3a\n- - \"0\"\n  - \"1\"\n  - \"2\"\n  - \"3\"\n  - 2x\n- 3\n\
         - - 2xc\n  - 2xc\n  - 2xc\n  - 2xc\n  - 2xc\n"
    );
    let out = Ytt::new()
        .file(
            "t.yml",
            "#@ def mutate():\n#@   l = [1, 2]\n#@   for x in l:\n#@     big = \"m\" * 3000000\n#@     l.append(3)\n#@   end\n#@ end\n#@ mutate()\n",
        )
        .run(&["-f", "t.yml"]);
    assert!(
        out.err()
            .contains("This operation mutates an iterable for an iterator while iterating.")
            && out.err().contains("t.yml:5 | #@     l.append(3)"),
        "{}",
        out.stderr
    );
}

/// Functions that hold YAML nodes, from a Starlark file, a library and a text template,
/// each collecting inside its loop while its nodes are built; and an error raised after
/// collections, reported with its call stack.
#[test]
fn functions_of_every_kind_collect() {
    let mut y = Ytt::new();
    for (name, text) in [
            (
                "helpers.star",
                "def pad(n):\n    out = []\n    for i in range(n):\n        big = \"p\" * 3000000\n        out.append(big[:1] * (i + 1))\n    end\n    return out\nend\n",
            ),
            (
                "_ytt_lib/sub/t.yml",
                "#@ load(\"@ytt:data\", \"data\")\n#@ def items():\n#@   for i in range(data.values.count):\n#@     big = \"l\" * 3000000\n#@yaml/text-templated-strings\nk(@= str(i) @): #@ big[:1] + str(i)\n#@   end\n#@ end\nlib: #@ items()\n",
            ),
            ("_ytt_lib/sub/values.yml", "#@data/values\n---\ncount: 3\n"),
            (
                "t.yml",
                r#"#@ load("helpers.star", "pad")
#@ load("@ytt:library", "library")
#@ load("@ytt:template", "template")
#@ def svc(name, n):
name: #@ name
#@ for i in range(n):
#@   big = "s" * 3000000
#@ if/end i % 2 == 0:
#@yaml/text-templated-strings
port-(@= str(i) @): #@ pad(i + 1)[-1] + big[:1]
#@ end
tail: #@ pad(2)
#@ end
services:
#@ for n in range(1, 3):
- #@ svc("s" + str(n), n + 1)
#@ end
--- #@ template.replace(library.get("sub").eval())
"#,
            ),
            (
                "t.txt",
                "(@ def line(n): @)(@ for i in range(n): @)(@ big = \"t\" * 3000000 @)(@= big[:1] + str(i) @) (@ end @)(@ end @)(@= line(3) @)\n",
            ),
    ] {
        y = y.file(name, text);
    }
    y.run(&["-f", ".", "--output-files", "out"]).ok();
    assert_eq!(
        y.read("out/t.yml"),
        "services:\n- name: s1\n  port-0: ps\n  tail:\n  - p\n  - pp\n- name: s2\n  port-0: ps\n  \
         port-2: ppps\n  tail:\n  - p\n  - pp\n---\nlib:\n  k0: l0\n  k1: l1\n  k2: l2\n"
    );
    assert_eq!(y.read("out/t.txt"), "t0 t1 t2 \n");
    let out = Ytt::new()
        .file(
            "t.yml",
            r#"#@ def f(n):
#@   for i in range(n):
#@     big = "e" * 3000000
#@     if i == 2:
#@       fail("stopped at " + str(i) + big[:1])
#@     end
#@   end
#@ end
#@ def g():
#@   return [f(1), f(5)]
#@ end
a: #@ g()
"#,
        )
        .run(&["-f", "t.yml"]);
    assert_eq!(
        out.err(),
        "ytt: Error: \n- fail: stopped at 2e\n    in f\n      t.yml:5 | #@       \
         fail(\"stopped at \" + str(i) + big[:1])\n    in g\n      t.yml:10 | #@   return \
         [f(1), f(5)]\n    in <toplevel>\n      t.yml:12 | a: #@ g()\n"
    );
}

/// Functions with loops that native code calls (`sorted`'s key, `assert.try_to`, an
/// overlay's matcher, a validation rule): the native code holds values
/// the collector cannot see, so these loops run without collecting, and give what they
/// gave before.
#[test]
fn functions_native_code_calls_run_without_collecting() {
    let out = render(
        &[
            (
                "t.yml",
                r#"#@ load("@ytt:assert", "assert")
#@ def weight(s):
#@   w = 0
#@   for c in s.elems():
#@     big = c * 3000000
#@     w -= len(big[:1])
#@   end
#@   return w
#@ end
#@ def check(v):
#@   for i in range(2):
#@     big = "v" * 3000000
#@   end
#@   return v > 0 or fail("not positive" + big[:1])
#@ end
#@ def positive(v):
#@   return assert.try_to(lambda: check(v))
#@ end
sorted: #@ sorted(["bb", "a", "ccc"], key=weight)
tried: #@ [str(positive(1)), str(positive(-1))]
#@schema/validation ("positive", check)
port: 8
---
kind: Service
"#,
            ),
            (
                "overlay.yml",
                r#"#@ load("@ytt:overlay", "overlay")
#@ def is_service(i, left, right):
#@   found = False
#@   for k in left:
#@     big = k * 3000000
#@     found = found or (k == "kind" and left[k] == "Service" and len(big) > 0)
#@   end
#@   return found
#@ end
#@overlay/match by=is_service
---
#@overlay/match missing_ok=True
name: svc
"#,
            ),
        ],
        &["-f", "."],
    );
    assert_eq!(
        out,
        "sorted:\n- ccc\n- bb\n- a\ntried:\n- (True, None)\n- \
         '(None, \"fail: not positivev\")'\nport: 8\n---\nkind: Service\nname: svc\n"
    );
}
