//! Garbage collection inside loops (`eval::gc`): a loop outside any function collects
//! garbage while it runs. Every body below allocates 3 MB a time, so that each
//! iteration passes the collection threshold; what the loops keep must come out intact,
//! in every kind of file a loop can be in. (Peak memory: `benches/loop_memory.sh`.)

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

/// A loop over a list the template builds holds the list's iteration lock: such a loop
/// does not collect, the lock works inside it and is released after it (also on
/// `break`, and with loops nested either way).
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

/// Loops in functions (not collected), in Starlark files, text templates, data values
/// and libraries.
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
/// the module's heap, and a running loop holds its iterable where the collector cannot
/// see it. A loop over a `range`, a `while` loop (nested, left by `break`), a loop over
/// data values and one over a tuple, each collecting: the iterables must not move.
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
