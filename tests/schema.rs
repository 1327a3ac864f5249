//! End-to-end tests of data-values schemas: type inference, annotations, defaults (also
//! inside array items), type-mismatch reports, schema overlays and library schemas.

mod common;

use common::{trim_lines, Ytt};

const DV_TEMPLATE: &str = "#@ load(\"@ytt:data\", \"data\")\n---\nv: #@ data.values\n";

fn with_schema(schema: &str) -> Ytt {
    Ytt::new()
        .file("schema.yml", schema)
        .file("tpl.yml", DV_TEMPLATE)
}

#[test]
fn inferred_types_and_defaults() {
    let out = with_schema(
        "#@data/values-schema\n---\nstr: a\nint: 1\nfloat: 1.5\nbool: true\nmap:\n  k: v\narr:\n- x\n",
    )
    .run(&["-f", "."]);
    assert_eq!(
        out.ok(),
        "v:\n  str: a\n  int: 1\n  float: 1.5\n  bool: true\n  map:\n    k: v\n  arr: []\n"
    );
}

#[test]
fn data_values_inspect_shows_defaults() {
    let out = Ytt::new()
        .file(
            "schema.yml",
            "#@data/values-schema\n---\n#@schema/nullable\nnum: 1\n#@schema/type any=True\nany:\n- 1\n- a\n",
        )
        .run(&["-f", "schema.yml", "--data-values-inspect"]);
    assert_eq!(out.ok(), "num: null\nany:\n- 1\n- a\n");
}

#[test]
fn defaults_fill_array_items_and_ints_pass_as_floats() {
    let out = with_schema(
        "#@data/values-schema\n---\nsubnets:\n- id: 0\n  mask: 255.0.0.0\n  ratio: 0.5\n",
    )
    .file(
        "values.yml",
        "#@data/values\n---\nsubnets:\n- id: 1\n- id: 2\n  ratio: 3\n",
    )
    .run(&["-f", "."]);
    assert_eq!(
        out.ok(),
        "v:\n  subnets:\n  - id: 1\n    mask: 255.0.0.0\n    ratio: 0.5\n  - id: 2\n    ratio: 3\n    mask: 255.0.0.0\n"
    );
}

#[test]
fn schema_default_annotation_overrides_and_is_completed() {
    let out = with_schema(
        "#@data/values-schema\n---\n#@schema/default [{'name': 'a'}]\ndbs:\n- name: \"\"\n  port: 5432\n#@schema/nullable\n#@schema/default {'a': 2}\nm:\n  a: 1\n  b: true\n",
    )
    .run(&["-f", "."]);
    assert_eq!(
        out.ok(),
        "v:\n  dbs:\n  - name: a\n    port: 5432\n  m:\n    a: 2\n    b: true\n"
    );
}

#[test]
fn nullable_any_and_documentation_annotations() {
    let out = with_schema(
        "#@data/values-schema\n---\n#@schema/title \"Name\"\n#@schema/desc \"The name\"\n#@schema/examples (\"short\", \"ab\")\n#@schema/deprecated \"use other\"\nname: x\n#@schema/nullable\n#@schema/type any=True\nfree: 3\n",
    )
    .file(
        "values.yml",
        "#@data/values\n---\nname: z\nfree:\n  anything: [1, 2]\n",
    )
    .run(&["-f", "."]);
    assert_eq!(
        out.ok(),
        "v:\n  name: z\n  free:\n    anything:\n    - 1\n    - 2\n"
    );
}

#[test]
fn mismatches_are_all_reported_with_their_sources() {
    let out = with_schema("#@data/values-schema\n---\nport: 0\nname: \"\"\nratio: 1.0\n")
        .file(
            "values.yml",
            "#@data/values\n---\nport: \"80\"\nname: 3\nratio: 2.5\n",
        )
        .run(&["-f", "."]);
    assert_eq!(
        trim_lines(out.err()),
        r#"ytt: Error: Overlaying data values (in following order: values.yml):
One or more data values were invalid
====================================

values.yml:
    |
  3 | port: "80"
    |

    = found: string
    = expected: integer (by schema.yml:3)

values.yml:
    |
  4 | name: 3
    |

    = found: integer
    = expected: string (by schema.yml:4)
"#
    );
}

#[test]
fn flag_values_show_the_flag() {
    let out = with_schema("#@data/values-schema\n---\nreplicas: 1\n").run(&[
        "-f",
        ".",
        "-v",
        "replicas=5",
    ]);
    assert_eq!(
        trim_lines(out.err()),
        r#"ytt: Error: Overlaying data values (in following order: additional data values):
One or more data values were invalid
====================================

(data-value arg):
    |
  1 | replicas=5
    |

    = found: string
    = expected: integer (by schema.yml:3)
"#
    );
    let ok = with_schema("#@data/values-schema\n---\nreplicas: 1\n").run(&[
        "-f",
        ".",
        "--data-value-yaml",
        "replicas=5",
    ]);
    assert_eq!(ok.ok(), "v:\n  replicas: 5\n");
}

#[test]
fn undeclared_keys_get_a_suggestion() {
    let out = with_schema("#@data/values-schema\n---\nhostname: \"\"\nport: 1\n")
        .file(
            "values.yml",
            "#@data/values\n---\n#@overlay/match missing_ok=True\nhostnme: x\n",
        )
        .run(&["-f", "."]);
    let err = trim_lines(out.err());
    assert!(
        err.contains(
            "Given data value is not declared in schema\nvalues.yml:\n    |\n  4 | hostnme: x\n"
        ),
        "{err}"
    );
    assert!(err.contains("    = found: hostnme\n    = expected: one of { hostname, port } (from schema.yml:2)\n    = hint: did you mean \"hostname\"?\n"), "{err}");
}

#[test]
fn each_step_is_checked() {
    // the first file's violation stops the run before the second one is applied
    let out = with_schema("#@data/values-schema\n---\nhostname: \"\"\n")
        .file("dv1.yml", "nope: 1\n")
        .file("dv2.yml", "hostname: 2\n")
        .run(&[
            "-f",
            "schema.yml",
            "-f",
            "tpl.yml",
            "--data-values-file",
            "dv1.yml",
            "--data-values-file",
            "dv2.yml",
        ]);
    let err = out.err();
    assert!(err.contains("= found: nope"), "{err}");
    assert!(!err.contains("found: integer"), "{err}");
}

#[test]
fn computed_values_are_shown_as_calculated() {
    let out = Ytt::new()
        .file("_ytt_lib/lib/schema.yml", "#@data/values-schema\n---\nfoo: 3\n")
        .file(
            "config.yml",
            "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n--- #@ template.replace(library.get(\"lib\").with_data_values({'foo': '4'}).eval())\n",
        )
        .run(&["-f", "."]);
    let err = trim_lines(out.err());
    assert!(
        err.contains("Data value calculated:\n         #\n         # foo: \"4\"\n         #\n"),
        "{err}"
    );
}

#[test]
fn schema_documents_overlay_each_other() {
    let out = Ytt::new()
        .file("schema1.yml", "#@data/values-schema\n---\na: 1\nlist:\n- name: \"\"\n")
        .file(
            "schema2.yml",
            "#@ load(\"@ytt:overlay\", \"overlay\")\n#@data/values-schema\n---\n#@overlay/match missing_ok=True\nb: x\nlist:\n#@overlay/match by=overlay.all\n- \n  #@overlay/match missing_ok=True\n  port: 1\n",
        )
        .file("values.yml", "#@data/values\n---\nlist:\n- name: nm\n")
        .file("tpl.yml", DV_TEMPLATE)
        .run(&["-f", "."]);
    assert_eq!(
        out.ok(),
        "v:\n  a: 1\n  list:\n  - name: nm\n    port: 1\n  b: x\n"
    );
}

#[test]
fn libraries_have_their_own_schema() {
    let y = Ytt::new()
        .file("_ytt_lib/lib/schema.yml", "#@data/values-schema\n---\nfoo: 1\n")
        .file(
            "_ytt_lib/lib/tpl.yml",
            "#@ load(\"@ytt:data\", \"data\")\n---\nlib: #@ data.values\n",
        )
        .file(
            "more.yml",
            "#@library/ref \"@lib\"\n#@data/values-schema\n---\n#@overlay/match missing_ok=True\nbar: \"\"\n",
        )
        .file(
            "config.yml",
            "#@ load(\"@ytt:library\", \"library\")\n#@ load(\"@ytt:template\", \"template\")\n#@ def extra():\n#@overlay/match missing_ok=True\nbaz: true\n#@ end\n--- #@ template.replace(library.get(\"lib\").with_data_values_schema(extra()).with_data_values({'bar': 'b'}).eval())\n",
        );
    assert_eq!(
        y.run(&["-f", "."]).ok(),
        "lib:\n  foo: 1\n  bar: b\n  baz: true\n"
    );
    let out = y.run(&["-f", ".", "--data-value-yaml", "@lib:foo=x"]);
    assert!(
        out.err()
            .contains("= expected: integer (by _ytt_lib/lib/schema.yml:3)"),
        "{}",
        out.stderr
    );
}

#[test]
fn unused_library_schemas_are_an_error() {
    let out = Ytt::new()
        .file(
            "schema.yml",
            "#@library/ref \"@nolib\"\n#@data/values-schema\n---\nfoo: 1\n",
        )
        .run(&["-f", "."]);
    assert_eq!(
        trim_lines(out.err()),
        "ytt: Error: Expected all provided library schema documents to be used but found unused:\n  Schema belonging to library '@nolib' on line schema.yml:3\n"
    );
}

#[test]
fn malformed_schemas_are_reported() {
    let run = |schema: &str| {
        let out = Ytt::new().file("schema.yml", schema).run(&["-f", "."]);
        trim_lines(out.err())
    };
    assert_eq!(
        run("#@data/values-schema\n---\nfoo:\n- 1\n- 2\n"),
        r#"ytt: Error: Overlaying data values schema (in following order: schema.yml):
Invalid schema - wrong number of items in array definition
==========================================================

schema.yml:
    |
  3 | foo:
    |

    = found: 2 array items
    = expected: exactly 1 array item, of the desired type
    = hint: in schema, the one item of the array implies the type of its elements.
    = hint: in schema, the default value for an array is always an empty list.
    = hint: default values can be overridden via a data values overlay.
"#
    );
    let null = run("#@data/values-schema\n---\nfoo: ~\n");
    assert!(
        null.contains("Invalid schema - null value not allowed here"),
        "{null}"
    );
    let default = run("#@data/values-schema\n---\n#@schema/default \"x\"\nfoo: 0\n");
    assert!(
        default.contains("  3 | #@schema/default \"x\"\n  4 | foo: 0\n    |\n\n    = found: string (at schema.yml:3)\n    = expected: integer (by schema.yml:4)"),
        "{default}"
    );
    let desc = run("#@data/values-schema\n---\n#@schema/desc 1\nfoo: 0\n");
    assert!(
        desc.contains("syntax error in @schema/desc annotation"),
        "{desc}"
    );
    assert!(
        desc.contains("= found: Non-string value in @schema/desc (by schema.yml:3)"),
        "{desc}"
    );
    let ty = run("#@data/values-schema\n---\n#@schema/type any=1\nfoo: 0\n");
    assert!(
        ty.contains("= found: starlark.Int (by schema.yml:3)"),
        "{ty}"
    );
    let examples = run("#@data/values-schema\n---\n#@schema/examples (\"zero\", 0)\nfoo: \"\"\n");
    assert!(
        examples.contains("Invalid schema - @schema/examples has wrong type"),
        "{examples}"
    );
    let nested = run(
        "#@data/values-schema\n---\n#@schema/type any=True\nfoo:\n  #@schema/nullable\n  bar: 1\n",
    );
    assert!(
        nested.contains("Schema was specified within an \"any type\" fragment"),
        "{nested}"
    );
    let deprecated = run("#@data/values-schema\n#@schema/deprecated \"x\"\n---\nfoo: 1\n");
    assert!(
        deprecated.contains("@schema/deprecated not supported on a document"),
        "{deprecated}"
    );
    let item_default = run("#@data/values-schema\n---\nfoo:\n#@schema/default 1\n- 0\n");
    assert!(
        item_default.contains("@schema/default not supported on array item"),
        "{item_default}"
    );
}

#[test]
fn validations_from_schema_reach_the_values() {
    let out = Ytt::new()
        .file(
            "schema.yml",
            "#@data/values-schema\n#@schema/validation-defaults-for-strings min_len=1\n---\nname: \"\"\n#@schema/validation min_len=0\nopt: \"\"\nports:\n#@schema/validation min=1\n- 0\n",
        )
        .file("values.yml", "#@data/values\n---\nports:\n- 0\n")
        .run(&["-f", ".", "--data-values-inspect"]);
    assert_eq!(
        trim_lines(out.err()),
        r#"ytt: Error: Validating final data values:
  name
    from: schema.yml:4
    - must be: length >= 1 (by: schema.yml:2)
      found: length = 0

  ports[0]
    from: values.yml:4
    - must be: a value >= 1 (by: schema.yml:8)
      found: value < 1
"#
    );
}
