//! End-to-end tests of validations: `@assert/validate` on data values and output
//! documents, `@schema/validation`, every named rule, custom rules and messages, `when=`,
//! `warn=`, the disabling flags, and the `@ytt:assert` additions.

mod common;

use common::{tpl, Ytt};

/// Validates output documents of one template and returns stderr of the failed run.
fn fails(template: &str) -> String {
    tpl(template, &[]).err().to_string()
}

#[track_caller]
fn assert_report(template: &str, body: &str) {
    assert_eq!(
        fails(template),
        // the report ends with an empty line after each entry, the last one too, then the
        // line end of the error (the reference's bytes for data values)
        format!("ytt: Error: Validating output documents:\n{body}\n\n\n")
    );
}

#[test]
fn len_rule() {
    assert_report(
        "#@assert/validate len=16\nkey: short\n",
        "  key\n    from: tpl.yml:2\n    - must be: length = 16 (by: tpl.yml:1)\n      found: length = 5",
    );
    assert_eq!(
        tpl("#@assert/validate len=2\nkey: [1, 2]\n", &[]).ok(),
        "key:\n- 1\n- 2\n"
    );
}

#[test]
fn starts_and_ends_with_rules() {
    assert_report(
        "#@assert/validate starts_with=\"https://\"\nurl: http://x\n#@assert/validate ends_with=\".git\"\nrepo: a/b\n",
        "  url\n    from: tpl.yml:2\n    - must be: a value starting with \"https://\" (by: tpl.yml:1)\n      found: value does not start with \"https://\"\n\n  repo\n    from: tpl.yml:4\n    - must be: a value ending with \".git\" (by: tpl.yml:3)\n      found: value does not end with \".git\"",
    );
}

#[test]
fn string_rule_on_non_string() {
    assert_report(
        "#@assert/validate starts_with=\"a\"\nnum: 3\n",
        "  num\n    from: tpl.yml:2\n    - must be: a value starting with \"a\" (by: tpl.yml:1)\n      found: expected a string, but was int",
    );
}

#[test]
fn contains_rule() {
    assert_report(
        "#@assert/validate contains=\"@sha256:\"\nimage: nginx:1\n#@assert/validate contains=3\nlist: [1, 2]\n#@assert/validate contains=\"b\"\nmap: {a: 1}\n",
        "  image\n    from: tpl.yml:2\n    - must be: a value containing \"@sha256:\" (by: tpl.yml:1)\n      found: value does not contain \"@sha256:\"\n\n  list\n    from: tpl.yml:4\n    - must be: a value containing 3 (by: tpl.yml:3)\n      found: value does not contain 3\n\n  map\n    from: tpl.yml:6\n    - must be: a value containing \"b\" (by: tpl.yml:5)\n      found: value does not contain \"b\"",
    );
    let ok = "#@assert/validate contains=2\nlist: [1, 2]\n#@assert/validate contains=\"a\"\nmap: {a: 1}\n#@assert/validate contains=\"ll\"\ns: hello\n";
    tpl(ok, &[]).ok();
}

#[test]
fn matches_rule() {
    assert_report(
        "#@assert/validate matches=\"^[a-z]+$\"\nname: Web_1\n",
        "  name\n    from: tpl.yml:2\n    - must be: a value matching \"^[a-z]+$\" (by: tpl.yml:1)\n      found: value does not match \"^[a-z]+$\"",
    );
    let err = fails("#@assert/validate matches=\"(\"\nname: x\n");
    assert!(err.contains("Invalid @assert/validate annotation - expected keyword argument \"matches\" to be a valid regular expression"), "{err}");
    // what is wrong, in Go's words (Go refuses what the `regex` crate takes)
    for (pattern, error) in [
        ("a{2000}", "invalid repeat count: `{2000}`"),
        ("(a{100}){100}", "invalid repeat count: `{100}`"),
        ("a**", "invalid nested repetition operator: `**`"),
        ("(", "missing closing ): `(`"),
    ] {
        let err = fails(&format!(
            "#@assert/validate matches=\"{pattern}\"\nname: x\n"
        ));
        assert!(
            err.contains(&format!(
                "to be a valid regular expression, but \"{pattern}\": error parsing regexp: {error} (at tpl.yml:1)"
            )),
            "{err}"
        );
    }
}

#[test]
fn format_rules() {
    let ok = "#@assert/validate format=\"date-time\"\na: 2024-01-02T03:04:05Z\n#@assert/validate format=\"date\"\nb: \"2024-02-29\"\n#@assert/validate format=\"email\"\nc: a@example.com\n#@assert/validate format=\"hostname\"\nd: a.example.com\n#@assert/validate format=\"ipv4\"\ne: 10.0.0.1\n#@assert/validate format=\"ipv6\"\nf: \"::1\"\n#@assert/validate format=\"uri\"\ng: https://x.io/a?b=c\n#@assert/validate format=\"uri-reference\"\nh: ../a/b\n#@assert/validate format=\"uuid\"\ni: 123e4567-e89b-12d3-a456-426614174000\n#@assert/validate format=\"quantity\"\nj: 500m\n";
    tpl(ok, &[]).ok();
    assert_report(
        "#@assert/validate format=\"uuid\"\nid: nope\n#@assert/validate format=\"ipv6\"\nip: 10.0.0.1\n",
        "  id\n    from: tpl.yml:2\n    - must be: a valid uuid (by: tpl.yml:1)\n      found: value is not a valid uuid\n\n  ip\n    from: tpl.yml:4\n    - must be: a valid ipv6 (by: tpl.yml:3)\n      found: value is not a valid ipv6",
    );
    let err = fails("#@assert/validate format=\"colour\"\nc: red\n");
    assert!(err.contains("unknown format \"colour\""), "{err}");
}

#[test]
fn numeric_rules() {
    assert_report(
        "#@assert/validate even=True\na: 3\n#@assert/validate odd=True\nb: 4\n#@assert/validate multiple_of=8\nc: 12\n#@assert/validate even=False\nd: 3\n",
        "  a\n    from: tpl.yml:2\n    - must be: an even number (by: tpl.yml:1)\n      found: value is odd\n\n  b\n    from: tpl.yml:4\n    - must be: an odd number (by: tpl.yml:3)\n      found: value is even\n\n  c\n    from: tpl.yml:6\n    - must be: a multiple of 8 (by: tpl.yml:5)\n      found: value is not a multiple of 8",
    );
}

#[test]
fn cel_rules() {
    assert_report(
        "#@assert/validate cel=\"self.min <= self.max\"\nlimits:\n  min: 10\n  max: 5\n#@assert/validate cel=\"self.nope > 1\"\nother: {a: 1}\n#@assert/validate cel=(\"immutable\", \"self == oldSelf\")\nname: x\n#@assert/validate cel=\"self.startsWith('kube')\"\nns: kube-system\n",
        "  limits\n    from: tpl.yml:2\n    - must be: a value satisfying the CEL rule \"self.min <= self.max\" (by: tpl.yml:1)\n      found: CEL rule evaluated to false\n\n  other\n    from: tpl.yml:6\n    - rule error: a value satisfying the CEL rule \"self.nope > 1\" (by: tpl.yml:5)\n      error: no such key: nope",
    );
}

/// `cel=` as Kubernetes evaluates it: a null item is absent, escaped property names,
/// the Kubernetes libraries; an evaluation error is the rule's (a rule error), not the
/// value's.
#[test]
fn cel_rules_have_kubernetes_semantics() {
    let t = "#@assert/validate cel=\"[has(self.a), has(self.b)].exists_one(x, x)\"\none: {a: 1, b: null}\n\
             #@assert/validate cel=\"self.max__dash__surge < 3 && self.__namespace__ == 'x'\"\nescaped: {max-surge: 1, namespace: x}\n\
             #@assert/validate cel=\"quantity(self).isLessThan(quantity('1Gi')) && isURL('https://x') && ip('10.0.0.1').family() == 4\"\nq: 512Mi\n\
             #@assert/validate cel=\"self.lowerAscii().split('-') == ['a', 'b'] && [1, 2].isSorted() && 'x1'.find('[0-9]') == '1'\"\ns: A-B\n";
    assert_eq!(
        tpl(t, &[]).ok(),
        "one:\n  a: 1\n  b: null\nescaped:\n  max-surge: 1\n  namespace: x\nq: 512Mi\ns: A-B\n"
    );
    assert_report(
        "#@assert/validate cel=\"self.b == null\"\nnull_access: {a: 1, b: null}\n#@assert/validate cel=\"nope(self)\"\nundeclared: 1\n#@assert/validate cel=\"self + 'a' == 'b'\"\ntype_error: 1\n",
        "  null_access\n    from: tpl.yml:2\n    - rule error: a value satisfying the CEL rule \"self.b == null\" (by: tpl.yml:1)\n      error: no such key: b\n\n  undeclared\n    from: tpl.yml:4\n    - rule error: a value satisfying the CEL rule \"nope(self)\" (by: tpl.yml:3)\n      error: undeclared reference to 'nope'\n\n  type_error\n    from: tpl.yml:6\n    - rule error: a value satisfying the CEL rule \"self + 'a' == 'b'\" (by: tpl.yml:5)\n      error: unsupported binary operator 'add': Int(1), String(\"a\")",
    );
}

/// `matches=` means what RE2 means: `\d` is ASCII.
#[test]
fn matches_has_re2_perl_classes() {
    assert_report(
        "#@assert/validate matches=\"^\\\\d+$\"\nnum: \"\u{0661}\u{0662}\"\n",
        "  num\n    from: tpl.yml:2\n    - must be: a value matching \"^\\d+$\" (by: tpl.yml:1)\n      found: value does not match \"^\\d+$\"",
    );
}

#[test]
fn named_rule_description_form() {
    assert_report(
        "#@assert/validate min_len=(\"a non-empty string\", 1), max=(\"small\", 3)\ns: \"\"\n#@assert/validate max=(\"small\", 3)\nnum: 4\n",
        "  s\n    from: tpl.yml:2\n    - must be: a non-empty string (by: tpl.yml:1)\n      found: length = 0\n    - must be: small (by: tpl.yml:1)\n      found: string <= int not implemented\n\n  num\n    from: tpl.yml:4\n    - must be: small (by: tpl.yml:3)\n      found: value > 3",
    );
}

#[test]
fn custom_violation_message() {
    assert_report(
        "#@ def big(v):\n#@   return v > 10 or fail(\"too small\")\n#@ end\n#@assert/validate (\"a big number\", big, \"{key}={value} is not {desc}: {failure} {{ok}}\")\nnum: 3\n",
        "  num\n    from: tpl.yml:5\n    - num=3 is not a big number: too small {ok} (by: tpl.yml:4)",
    );
}

#[test]
fn order_of_rules_on_a_node() {
    assert_report(
        "#@assert/validate (\"custom\", lambda v: False), cel=\"false\", multiple_of=7, len=3, one_of=[\"x\"], max_len=1, min_len=9, starts_with=\"z\"\ns: abcd\n",
        "  s\n    from: tpl.yml:2\n    - must be: custom (by: tpl.yml:1)\n    - must be: length >= 9 (by: tpl.yml:1)\n      found: length = 4\n    - must be: length <= 1 (by: tpl.yml:1)\n      found: length = 4\n    - must be: one of [\"x\"] (by: tpl.yml:1)\n      found: not one of allowed values\n    - must be: length = 3 (by: tpl.yml:1)\n      found: length = 4\n    - must be: a value starting with \"z\" (by: tpl.yml:1)\n      found: value does not start with \"z\"\n    - must be: a multiple of 7 (by: tpl.yml:1)\n      found: expected a number, but was string\n    - must be: a value satisfying the CEL rule \"false\" (by: tpl.yml:1)\n      found: CEL rule evaluated to false",
    );
}

#[test]
fn not_null_runs_first_and_alone() {
    assert_report(
        "#@assert/validate (\"x\", lambda v: False), min=1, not_null=(\"required\", True)\nv: null\n",
        "  v\n    from: tpl.yml:2\n    - must be: required (by: tpl.yml:1)\n      found: value is null",
    );
    // null values skip the other rules
    tpl(
        "#@assert/validate (\"x\", lambda v: False), min=1\nv: null\n",
        &[],
    )
    .ok();
}

#[test]
fn custom_rule_returning_none_passes() {
    tpl("#@ def check(v):\n#@   v > 1 or fail(\"no\")\n#@ end\n#@assert/validate (\"above 1\", check)\nv: 2\n", &[]).ok();
    assert_report(
        "#@assert/validate (\"a number\", lambda v: 1)\nv: 2\n",
        "  v\n    from: tpl.yml:2\n    - must be: a number (by: tpl.yml:1)",
    );
}

#[test]
fn assertion_objects_as_custom_rules() {
    assert_report(
        "#@ load(\"@ytt:assert\", \"assert\")\n#@assert/validate (\"at least 3\", assert.min(3)), (\"https\", assert.starts_with(\"https:\"))\nv: 2\n",
        "  v\n    from: tpl.yml:3\n    - must be: at least 3 (by: tpl.yml:2)\n      found: value < 3\n    - must be: https (by: tpl.yml:2)\n      found: expected a string, but was int",
    );
}

#[test]
fn leaves_first() {
    assert_report(
        "#@assert/validate (\"parent\", lambda v: False)\nparent:\n  #@assert/validate max=1\n  a: 2\n",
        "  parent.a\n    from: tpl.yml:4\n    - must be: a value <= 1 (by: tpl.yml:3)\n      found: value > 1\n\n  parent\n    from: tpl.yml:2\n    - must be: parent (by: tpl.yml:1)",
    );
}

#[test]
fn when_with_context_root_is_the_document_set() {
    let t = "---\nenabled: true\n---\n#@assert/validate (\"x\", lambda v: False), when=lambda v, ctx: ctx.root[0][\"enabled\"] and ctx.parent[\"b\"] == 1\na: 1\nb: 1\n";
    assert_report(
        t,
        "  a\n    from: tpl.yml:5\n    - must be: x (by: tpl.yml:4)",
    );
}

#[test]
fn warnings_do_not_fail() {
    let out = tpl("#@assert/validate min=2, warn=True\nnum: 1\n", &[]);
    assert_eq!(out.code, 0);
    assert_eq!(out.stdout, "num: 1\n");
    assert_eq!(
        out.stderr,
        "Warning: Validating output documents:\n  num\n    from: tpl.yml:2\n    - must be: a value >= 2 (by: tpl.yml:1)\n      found: value < 2\n"
    );
    // printed before the error report
    let out = tpl(
        "#@assert/validate min=2, warn=True\nnum: 1\n#@assert/validate max=0\nm: 1\n",
        &[],
    );
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .starts_with("Warning: Validating output documents:\n  num\n"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("\nytt: Error: Validating output documents:\n  m\n"),
        "{}",
        out.stderr
    );
}

#[test]
fn output_validation_can_be_disabled() {
    let out = tpl(
        "#@assert/validate max=1\nnum: 2\n",
        &["--output-disable-validation"],
    );
    assert_eq!(out.ok(), "num: 2\n");
}

#[test]
fn data_values_are_validated() {
    let y = Ytt::new().file(
        "values.yml",
        "#@assert/validate (\"two keys\", lambda v: len(v) == 2)\n#@data/values\n---\n#@assert/validate min=3\nnum: 1\n",
    );
    assert_eq!(
        y.run(&["-f", "values.yml", "--data-values-inspect"]).err(),
        "ytt: Error: Validating final data values:\n  num\n    from: values.yml:5\n    - must be: a value >= 3 (by: values.yml:4)\n      found: value < 3\n\n  (document)\n    from: values.yml:3\n    - must be: two keys (by: values.yml:1)\n\n\n"
    );
    let out = y.run(&[
        "-f",
        "values.yml",
        "--data-values-inspect",
        "--dangerous-data-values-disable-validation",
    ]);
    assert_eq!(out.ok(), "num: 1\n");
}

#[test]
fn schema_validations() {
    let y = Ytt::new().file(
        "schema.yml",
        "#@data/values-schema\n---\n#@schema/validation format=\"hostname\", min_len=(\"a host\", 1)\nhost: -bad-\n",
    );
    assert_eq!(
        y.run(&["-f", "schema.yml", "--data-values-inspect"]).err(),
        "ytt: Error: Validating final data values:\n  host\n    from: schema.yml:4\n    - must be: a valid hostname (by: schema.yml:3)\n      found: value is not a valid hostname\n\n\n"
    );
}

const LIB_VALUES: &str = "#@data/values\n---\n#@assert/validate min=3\nnum: 1\n";
const LIB_TPL: &str =
    "#@ load(\"@ytt:data\", \"data\")\n#@assert/validate max=0\nout: #@ data.values.num\n";

fn library(root: &str) -> Ytt {
    Ytt::new()
        .file("_ytt_lib/lib/values.yml", LIB_VALUES)
        .file("_ytt_lib/lib/tpl.yml", LIB_TPL)
        .file("root.yml", root)
}

#[test]
fn libraries_validate_values_and_outputs() {
    let root = "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace(library.get(\"lib\").eval())\n";
    let err = library(root).run(&["-f", "."]).err().to_string();
    assert!(
        err.starts_with("ytt: Error: \n- library.eval: Evaluating library 'lib': Validating final data values:\n"),
        "{err}"
    );
    assert!(
        err.contains("reason:\n       num\n         from: _ytt_lib/lib/values.yml:4\n"),
        "{err}"
    );
    let root = "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace(library.get(\"lib\", dangerous_data_values_disable_validation=True).eval())\n";
    let err = library(root).run(&["-f", "."]).err().to_string();
    assert!(
        err.contains("Evaluating library 'lib': Validating output documents:\n"),
        "{err}"
    );
    assert!(
        err.contains("       out\n         from: _ytt_lib/lib/tpl.yml:3\n"),
        "{err}"
    );
    let out = library(root).run(&["-f", ".", "--output-disable-validation"]);
    assert_eq!(out.ok(), "out: 1\n");
}

#[test]
fn assert_module_additions() {
    let t = "#@ load(\"@ytt:assert\", \"assert\")\n\
             a: #@ assert.len(2).check([1, 2])\n\
             b: #@ assert.starts_with(\"a\").check(\"ab\")\n\
             c: #@ assert.ends_with(\"b\").check(\"ab\")\n\
             d: #@ assert.contains(2).check([1, 2])\n\
             e: #@ assert.matches(\"^a\").check(\"ab\")\n\
             f: #@ assert.format(\"ipv4\").check(\"1.2.3.4\")\n\
             g: #@ assert.even().check(2)\n\
             h: #@ assert.odd().check(3)\n\
             i: #@ assert.multiple_of(3).check(9)\n\
             j: #@ assert.try_to(lambda: assert.even().check(3))[1]\n\
             k: #@ assert.try_to(lambda: assert.format(\"email\").check(\"x\"))[1]\n\
             l: #@ assert.validate(\"port\", 8080, min=1, max=65535)\n";
    assert_eq!(
        tpl(t, &[]).ok(),
        "a: true\nb: true\nc: true\nd: true\ne: true\nf: true\ng: true\nh: true\ni: true\nj: 'fail: value is odd'\nk: 'fail: value is not a valid email'\nl: 8080\n"
    );
    let err = fails(
        "#@ load(\"@ytt:assert\", \"assert\")\nl: #@ assert.validate(\"port\", 80, min=1024)\n",
    );
    assert!(
        err.contains("assert.validate: Validating port:\n    in <toplevel>\n      tpl.yml:2 | l: #@ assert.validate(\"port\", 80, min=1024)\n\n    reason:\n       port\n         - must be: a value >= 1024 (by: tpl.yml:2)\n           found: value < 1024"),
        "{err}"
    );
}

#[test]
fn assert_valid_runs_fragment_annotations() {
    let t = "#@ load(\"@ytt:assert\", \"assert\")\n#@ def cfg():\n#@assert/validate max=1\nnum: 2\n#@ end\nout: #@ assert.valid(cfg())\n";
    let err = tpl(t, &["--output-disable-validation"]).err().to_string();
    assert!(
        err.contains("reason:\n       num\n         from: tpl.yml:4\n         - must be: a value <= 1 (by: tpl.yml:3)\n           found: value > 1"),
        "{err}"
    );
}

#[test]
fn annotation_errors() {
    let err = fails("#@assert/validate len=\"3\"\nnum: 1\n");
    assert_eq!(
        err,
        "ytt: Error: Validating output documents:\nInvalid @assert/validate annotation - expected keyword argument \"len\" to be an int, but was string (at tpl.yml:1)\n"
    );
    let err = fails("#@assert/validate (\"x\", lambda v: True, \"\")\nnum: 1\n");
    assert!(
        err.contains("expected 2-tuple, but found tuple with length 3"),
        "{err}"
    );
}

// ---- emergency switches by the design's names -----------------------------------------

/// A library whose data values and output documents are both invalid, evaluated by the
/// root template with `eval(<kwargs>)`; the root's own output has a failing rule too.
fn switches(kwargs: &str, derived: bool) -> common::Out {
    let get = if derived {
        "library.get(\"lib\").with_data_values({\"num\": 2})"
    } else {
        "library.get(\"lib\")"
    };
    let root = format!(
        "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace({get}.eval({kwargs}))\n---\n#@assert/validate max=0\nroot: 1\n"
    );
    Ytt::new()
        .file("_ytt_lib/lib/values.yml", LIB_VALUES)
        .file("_ytt_lib/lib/tpl.yml", LIB_TPL)
        .file(
            "_ytt_lib/lib/_ytt_lib/inner/tpl.yml",
            "#@assert/validate max=0\ninner: 1\n",
        )
        .file(
            "_ytt_lib/lib/inner.yml",
            "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace(library.get(\"inner\").eval())\n",
        )
        .file("root.yml", &root)
        .run(&["-f", "."])
}

#[test]
fn eval_keywords_switch_validation_off_for_that_library_only() {
    // data values off: the output rules (of the library it evaluates) still hold
    let err = switches("data_value_schema_disable_validation=True", false);
    assert!(
        err.err()
            .contains("Evaluating library 'inner': Validating output documents:"),
        "{}",
        err.stderr
    );
    // both off, in the library and the library it evaluates: the caller's own rule
    // still holds
    let both = "data_value_schema_disable_validation=True, output_disable_validation=True";
    insta::assert_snapshot!(
        "eval_switches_off_caller_checked",
        switches(both, false).err()
    );
    // the same on a library derived with with_data_values()
    assert_eq!(
        switches(both, true).err(),
        switches(both, false).err(),
        "derived libraries take the keywords too"
    );
    // without them, the library's data values are checked first
    let on = switches("", false);
    assert!(
        on.err()
            .contains("Evaluating library 'lib': Validating final data values:"),
        "{}",
        on.stderr
    );
    // a keyword that is not a bool is the usual Starlark error
    let bad = switches("output_disable_validation=\"yes\"", false);
    assert!(
        bad.err().contains("output_disable_validation"),
        "{}",
        bad.stderr
    );
}

#[test]
fn design_flag_name_is_an_alias() {
    let y = Ytt::new().file("values.yml", LIB_VALUES);
    for flag in [
        "--data-value-schema-disable-validation",
        "--dangerous-data-values-disable-validation",
    ] {
        let out = y.run(&["-f", "values.yml", "--data-values-inspect", flag]);
        assert_eq!(out.ok(), "num: 1\n", "{flag}");
    }
}

// ---- defaults for strings on a schema overlay document --------------------------------

#[test]
fn string_defaults_of_an_overlay_document_cover_its_own_values() {
    let base = "#@data/values-schema\n---\n#@schema/validation min_len=5\nhostname: \"\"\nproxy: \"\"\ndb:\n  host: \"\"\n";
    let more = r#"#@data/values-schema
#@overlay/match-child-defaults missing_ok=True
#@schema/validation-defaults-for-strings min_len=1
---
repository: ""
#@schema/validation min_len=0
username: ""
limit: 30
db:
  user: ""
tags:
- ""
#@schema/type any=True
extra:
  note: ""
#@schema/validation-defaults-for-strings max_len=3
region:
  name: ""
"#;
    let y = Ytt::new().file("base.yml", base).file("more.yml", more);
    // proxy and db.host (the base's) keep their own (none); the overlay's strings get its
    // default, an item's own default and rule win, "any type" takes none
    insta::assert_snapshot!(
        "string_defaults_overlay_document",
        y.run(&[
            "-f",
            "base.yml",
            "-f",
            "more.yml",
            "--data-values-inspect",
            "--data-value-yaml",
            "tags=[\"\"]",
            "--data-value-yaml",
            "region.name=abcd",
        ])
        .err()
    );
    // a third file: each document's default covers its own values
    let third = "#@data/values-schema\n#@overlay/match-child-defaults missing_ok=True\n#@schema/validation-defaults-for-strings matches=\"^[a-z]*$\"\n---\nzone: A\n";
    let out = y.file("third.yml", third).run(&[
        "-f",
        "base.yml",
        "-f",
        "more.yml",
        "-f",
        "third.yml",
        "--data-values-inspect",
        "--data-value-yaml",
        "repository=r",
        "--data-value-yaml",
        "db.user=U",
        "--data-value-yaml",
        "hostname=hosts",
    ]);
    insta::assert_snapshot!("string_defaults_three_documents", out.err());
}

// ---- output reports name the document --------------------------------------------------

#[test]
fn reports_name_the_document_a_repeated_line_made() {
    let t = r#"#@ def port(n):
#@assert/validate max=8080
port: #@ n
#@ end
#@ for i in range(3):
---
kind: Deployment
metadata:
  name: #@ "web-{}".format(i)
spec:
  #@assert/validate max=1
  replicas: #@ i
  container: #@ port(8080 + i)
#@ end
---
#@ for i in range(2):
---
#@assert/validate max=0
plain: #@ i
#@ end
---
#@assert/validate max=0
once: 1
"#;
    insta::assert_snapshot!("document_named_in_from", fails(t));
    // each line made one document: unchanged
    assert_report(
        "---\nkind: A\n#@assert/validate max=0\nfirst: 1\n---\nkind: B\n#@assert/validate max=0\nsecond: 1\n",
        "  first\n    from: tpl.yml:4\n    - must be: a value <= 0 (by: tpl.yml:3)\n      found: value > 0\n\n  second\n    from: tpl.yml:8\n    - must be: a value <= 0 (by: tpl.yml:7)\n      found: value > 0",
    );
}

// ---- every malformed annotation ---------------------------------------------------------

#[test]
fn every_malformed_annotation_is_reported() {
    let schema = r#"#@data/values-schema
---
#@schema/validation min_length=1
name: ""
#@schema/validation one_not_null=False
auth:
  a: 1
#@schema/validation one_of=3
level: x
#@schema/validation min=1
ok: 3
items:
#@schema/validation max_len="3"
- ""
"#;
    let y = Ytt::new().file("schema.yml", schema);
    insta::assert_snapshot!(
        "malformed_annotations_together",
        y.run(&[
            "-f",
            "schema.yml",
            "--data-values-inspect",
            "--data-value-yaml",
            "items=[a, b]"
        ])
        .err()
    );
    // one malformed annotation (a loop makes three of it): as it always read
    let err = fails(
        "#@ for i in range(3):\n---\n#@assert/validate one_not_null=False\na: #@ i\n#@ end\n",
    );
    assert_eq!(
        err,
        "ytt: Error: Validating output documents:\nInvalid @assert/validate annotation - one_not_null= cannot be False\n"
    );
}
