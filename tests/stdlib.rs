//! End-to-end tests of the `@ytt:` standard library modules, one test per
//! function group.

mod common;

use common::tpl;

#[test]
fn assert_equals_fail_and_try_to() {
    let out = tpl(
        "#@ load(\"@ytt:assert\", \"assert\")\n\
         #@ def frag():\n\
         k: v\n\
         #@ end\n\
         equal_scalars: #@ assert.equals(\"a\", \"a\")\n\
         equal_frag_dict: #@ assert.equals(frag(), {\"k\": \"v\"})\n\
         unequal: #@ assert.try_to(lambda: assert.equals(1, 2))\n\
         failed: #@ assert.try_to(lambda: assert.fail(\"custom {}\".format(7)))\n\
         builtin_fail: #@ assert.try_to(lambda: fail(\"boom\"))\n\
         ok: #@ assert.try_to(lambda: {\"r\": [1]})\n\
         bad_ref: #@ assert.try_to(lambda: (None).foo)\n",
        &[],
    );
    insta::assert_snapshot!("assert_equals_fail_try_to", out.ok());
}

#[test]
fn assert_fail_stops_the_run() {
    let out = tpl(
        "#@ load(\"@ytt:assert\", \"assert\")\n\
         a: 1\n\
         b: #@ assert.fail(\"stop here\")\n",
        &[],
    );
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - assert.fail: fail: stop here\n\
         \x20   in <toplevel>\n\
         \x20     tpl.yml:3 | b: #@ assert.fail(\"stop here\")\n"
    );
}

#[test]
fn assert_equals_failure_report() {
    let out = tpl(
        "#@ load(\"@ytt:assert\", \"assert\")\n\
         v: #@ assert.equals({\"a\": [1]}, {\"a\": [2]})\n",
        &[],
    );
    // Compared like the conformance runner: trailing spaces ignored.
    assert_eq!(
        common::trim_lines(out.err()),
        "ytt: Error:\n\
         - assert.equals: Not equal:\n\
         \x20   in <toplevel>\n\
         \x20     tpl.yml:2 | v: #@ assert.equals({\"a\": [1]}, {\"a\": [2]})\n\
         \n\
         \x20   reason:\n\
         \x20    (expected type: dict)\n\
         \x20    a:\n\
         \x20    - 1\n\
         \n\
         \n\
         \x20    (was type: dict)\n\
         \x20    a:\n\
         \x20    - 2\n"
    );
}

#[test]
fn assert_rule_objects_with_check() {
    let out = tpl(
        "#@ load(\"@ytt:assert\", \"assert\")\n\
         #@ def t(f):\n\
         #@   return assert.try_to(f)[1] or \"ok\"\n\
         #@ end\n\
         min_ok: #@ t(lambda: assert.min(3).check(3))\n\
         min_bad: #@ t(lambda: assert.min(3).check(2))\n\
         max_ok: #@ t(lambda: assert.max(\"c\").check(\"b\"))\n\
         max_bad: #@ t(lambda: assert.max(10).check(11))\n\
         min_len_ok: #@ t(lambda: assert.min_len(2).check([1, 2]))\n\
         min_len_bad: #@ t(lambda: assert.min_len(2).check(\"a\"))\n\
         max_len_ok: #@ t(lambda: assert.max_len(2).check({\"a\": 1}))\n\
         max_len_bad: #@ t(lambda: assert.max_len(2).check(\"abc\"))\n\
         not_null_ok: #@ t(lambda: assert.not_null().check(0))\n\
         not_null_bad: #@ t(lambda: assert.not_null().check(None))\n\
         not_null_short: #@ assert.not_null(\"x\")\n\
         one_not_null_ok: #@ t(lambda: assert.one_not_null().check({\"a\": 1, \"b\": None}))\n\
         one_not_null_many: #@ t(lambda: assert.one_not_null().check({\"a\": 1, \"b\": 2}))\n\
         one_not_null_none: #@ t(lambda: assert.one_not_null([\"a\", \"b\"]).check({\"a\": None, \"b\": None}))\n\
         one_not_null_empty: #@ t(lambda: assert.one_not_null().check({}))\n\
         one_of_ok: #@ t(lambda: assert.one_of([\"aws\", \"gcp\"]).check(\"gcp\"))\n\
         one_of_args_ok: #@ t(lambda: assert.one_of(\"aws\", \"gcp\").check(\"aws\"))\n\
         one_of_bad: #@ t(lambda: assert.one_of(\"aws\", \"gcp\").check(\"azure\"))\n\
         type: #@ type(assert.min(1))\n\
         returns: #@ assert.min(1).check(5)\n",
        &[],
    );
    insta::assert_snapshot!("assert_rules", out.ok());
}

#[test]
fn assert_check_failure_shows_lambda_frame() {
    let out = tpl(
        "#@ load(\"@ytt:assert\", \"assert\")\n\
         \n\
         v: #@ assert.min_len(3).check([1])\n",
        &[],
    );
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - fail: length = 1\n\
         \x20   in lambda\n\
         \x20     assert.min_len:1 | (unavailable)\n\
         \x20   in <toplevel>\n\
         \x20     tpl.yml:3 | v: #@ assert.min_len(3).check([1])\n"
    );
}

#[test]
fn struct_make_bind_encode_decode() {
    let out = tpl(
        "#@ load(\"@ytt:struct\", \"struct\")\n\
         #@ def join(self, other):\n\
         #@   return self + \"-\" + other\n\
         #@ end\n\
         #@ s = struct.make(name=\"web\", port=80, twice=lambda x: x * 2)\n\
         #@ obj = struct.make_and_bind(\"me\", join=join, first=lambda self: self)\n\
         #@ bound = struct.bind(join, \"pre\")\n\
         #@ enc = struct.encode({\"a\": {\"b\": [1, {\"c\": 2}]}, \"d\": \"x\"})\n\
         make:\n\
         \x20 name: #@ s.name\n\
         \x20 index: #@ s[\"port\"]\n\
         \x20 call: #@ s.twice(4)\n\
         \x20 has: #@ hasattr(s, \"name\")\n\
         \x20 missing: #@ hasattr(s, \"nope\")\n\
         \x20 keys: #@ [k for k in s]\n\
         \x20 type: #@ type(s)\n\
         make_and_bind:\n\
         \x20 join: #@ obj.join(\"you\")\n\
         \x20 first: #@ obj.first()\n\
         bind: #@ bound(\"post\")\n\
         encode:\n\
         \x20 nested: #@ enc.a.b[1].c\n\
         \x20 in: #@ \"d\" in enc\n\
         \x20 len: #@ len(enc)\n\
         \x20 as_yaml: #@ enc\n\
         decode: #@ struct.decode(struct.make(x=struct.make(y=[1, 2]), z=None))\n\
         decode_type: #@ type(struct.decode(struct.make(n=\"web\"))[\"n\"])\n",
        &[],
    );
    insta::assert_snapshot!("struct_functions", out.ok());
}

#[test]
fn struct_missing_attribute_is_an_error() {
    let out = tpl(
        "#@ load(\"@ytt:struct\", \"struct\")\n\
         v: #@ struct.make(a=1).nope\n",
        &[],
    );
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - struct has no .nope field or method\n\
         \x20   in <toplevel>\n\
         \x20     tpl.yml:2 | v: #@ struct.make(a=1).nope\n"
    );
}

#[test]
fn module_make() {
    let out = tpl(
        "#@ load(\"@ytt:module\", \"module\")\n\
         #@ def add(a, b):\n\
         #@   return a + b\n\
         #@ end\n\
         #@ m = module.make(\"calc\", add=add, pi=3)\n\
         type: #@ type(m)\n\
         sum: #@ m.add(2, 3)\n\
         pi: #@ m.pi\n",
        &[],
    );
    assert_eq!(out.ok(), "type: module\nsum: 5\npi: 3\n");
}

#[test]
fn json_encode_and_decode() {
    let out = tpl(
        "#@ load(\"@ytt:json\", \"json\")\n\
         #@ def frag():\n\
         z: 1\n\
         a:\n\
         - true\n\
         - null\n\
         #@ end\n\
         compact: #@ json.encode({\"b\": [1, 2.5], \"a\": \"<x>\"})\n\
         no_escape: #@ json.encode({\"a\": \"<x>&\"}, escape_html=False)\n\
         fragment: #@ json.encode(frag())\n\
         indented: #@ json.encode({\"b\": 1, \"a\": [1]}, indent=2)\n\
         decoded: #@ json.decode('{\"z\": 1, \"a\": [true, null, 1.5, \"s\"]}')\n",
        &[],
    );
    insta::assert_snapshot!("json_functions", out.ok());
}

#[test]
fn yaml_encode_and_decode() {
    let out = tpl(
        "#@ load(\"@ytt:yaml\", \"yaml\")\n\
         #@ def frag():\n\
         z: 1\n\
         a: [\"yes\", 2]\n\
         #@ end\n\
         encoded: #@ yaml.encode({\"z\": {\"y\": [1, \"on\"]}, \"a\": None})\n\
         fragment: #@ yaml.encode(frag())\n\
         decoded: #@ yaml.decode(\"z: 1\\na: [x, yes]\\n\")\n\
         many: #@ yaml.decode(\"---\\na: 1\\n\")\n",
        &[],
    );
    insta::assert_snapshot!("yaml_functions", out.ok());
}

#[test]
fn yaml_decode_requires_one_document() {
    let out = tpl(
        "#@ load(\"@ytt:yaml\", \"yaml\")\n\
         v: #@ yaml.decode(\"a: 1\\n---\\nb: 2\\n\")\n",
        &[],
    );
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - yaml.decode: Expected to find exactly one YAML document\n\
         \x20   in <toplevel>\n\
         \x20     tpl.yml:2 | v: #@ yaml.decode(\"a: 1\\n---\\nb: 2\\n\")\n"
    );
}

#[test]
fn toml_encode_and_decode() {
    let out = tpl(
        "#@ load(\"@ytt:toml\", \"toml\")\n\
         encoded: #@ toml.encode({\"title\": \"x\", \"owner\": {\"name\": \"tom\"}, \"nums\": [1, 2]})\n\
         decoded: #@ toml.decode('b = \"str\"\\na = [1, 2]\\n[t]\\nk = true\\n')\n",
        &[],
    );
    insta::assert_snapshot!("toml_functions", out.ok());
}

#[test]
fn base64_variants() {
    let out = tpl(
        "#@ load(\"@ytt:base64\", \"base64\")\n\
         std: #@ base64.encode(\"???>>>\")\n\
         url: #@ base64.encode(\"???>>>\", url=True)\n\
         padded: #@ base64.encode(\"???>\")\n\
         raw: #@ base64.encode(\"???>\", raw=True)\n\
         url_raw: #@ base64.encode(\"???>\", url=True, raw=True)\n\
         decode: #@ base64.decode(\"Pz8/Pj4+\")\n\
         decode_url: #@ base64.decode(\"Pz8_Pj4-\", url=True)\n\
         decode_raw: #@ base64.decode(\"Pz8_Pg\", url=True, raw=True)\n",
        &[],
    );
    assert_eq!(
        out.ok(),
        "std: Pz8/Pj4+\n\
         url: Pz8_Pj4-\n\
         padded: Pz8/Pg==\n\
         raw: Pz8/Pg\n\
         url_raw: Pz8_Pg\n\
         decode: ???>>>\n\
         decode_url: ???>>>\n\
         decode_raw: ???>\n"
    );
}

#[test]
fn md5_and_sha256() {
    let out = tpl(
        "#@ load(\"@ytt:md5\", \"md5\")\n\
         #@ load(\"@ytt:sha256\", \"sha256\")\n\
         md5_empty: #@ md5.sum(\"\")\n\
         md5: #@ md5.sum(\"data\")\n\
         sha256_empty: #@ sha256.sum(\"\")\n\
         sha256: #@ sha256.sum(\"abc\")\n",
        &[],
    );
    assert_eq!(
        out.ok(),
        "md5_empty: d41d8cd98f00b204e9800998ecf8427e\n\
         md5: 8d777f385d3dfec8815d20f7496026dc\n\
         sha256_empty: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n\
         sha256: ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\n"
    );
}

#[test]
fn url_encoding_functions() {
    let out = tpl(
        "#@ load(\"@ytt:url\", \"url\")\n\
         seg: #@ url.path_segment_encode(\"a b/c\")\n\
         seg_back: #@ url.path_segment_decode(\"a%20b%2Fc\")\n\
         qv: #@ url.query_param_value_encode(\"a b/c&d\")\n\
         qv_back: #@ url.query_param_value_decode(\"a+b%2Fc%26d\")\n\
         qp: #@ url.query_params_encode({\"b\": [\"2\", \"3\"], \"a\": [\"x y\"], \"e\": []})\n\
         qp_back: #@ url.query_params_decode(\"b=2&a=1&b=3\")\n",
        &[],
    );
    insta::assert_snapshot!("url_encoding", out.ok());
}

#[test]
fn url_parse_values() {
    let out = tpl(
        "#@ load(\"@ytt:url\", \"url\")\n\
         #@ u = url.parse(\"https://bob:pw@example.com:8443/p/a?q=1\")\n\
         #@ anon = url.parse(\"http://example.com/\")\n\
         string: #@ u.string()\n\
         hostname: #@ u.hostname()\n\
         user: #@ u.user.name\n\
         password: #@ u.user.password\n\
         userinfo: #@ u.user.string()\n\
         without_user: #@ u.without_user().string()\n\
         anon_user: #@ anon.user\n\
         type: #@ type(u)\n",
        &[],
    );
    insta::assert_snapshot!("url_parse", out.ok());
}

#[test]
fn url_value_does_not_encode() {
    let out = tpl(
        "#@ load(\"@ytt:url\", \"url\")\n\
         v: #@ url.parse(\"http://example.com\")\n",
        &[],
    );
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - __ytt_tpl2_set_node: Unable to convert value: @ytt:url.value does not automatically encode (hint: use .string())\n\
         \x20   in <toplevel>\n\
         \x20     tpl.yml:2 | v: #@ url.parse(\"http://example.com\")\n"
    );
}

#[test]
fn ip_parse_addr_and_cidr() {
    let out = tpl(
        "#@ load(\"@ytt:ip\", \"ip\")\n\
         #@ a4 = ip.parse_addr(\"10.1.2.3\")\n\
         #@ a6 = ip.parse_addr(\"fd00::1\")\n\
         #@ addr, net = ip.parse_cidr(\"10.1.2.3/16\")\n\
         v4: #@ [a4.string(), a4.is_ipv4(), a4.is_ipv6()]\n\
         v6: #@ [a6.string(), a6.is_ipv4(), a6.is_ipv6()]\n\
         cidr_addr: #@ addr.string()\n\
         cidr_net: #@ net.string()\n\
         cidr_net_addr: #@ net.addr().string()\n",
        &[],
    );
    insta::assert_snapshot!("ip_functions", out.ok());
}

#[test]
fn ip_parse_addr_rejects_garbage() {
    let out = tpl(
        "#@ load(\"@ytt:ip\", \"ip\")\n\
         a: #@ ip.parse_addr(\"300.1.1.1\")\n",
        &[],
    );
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - ip.parse_addr: invalid IP address: 300.1.1.1\n\
         \x20   in <toplevel>\n\
         \x20     tpl.yml:2 | a: #@ ip.parse_addr(\"300.1.1.1\")\n"
    );
}

#[test]
fn regexp_match_and_replace() {
    let out = tpl(
        "#@ load(\"@ytt:regexp\", \"regexp\")\n\
         match: #@ regexp.match(\"[0-9]+\", \"abc123\")\n\
         anchored: #@ regexp.match(\"^[0-9]+$\", \"abc123\")\n\
         replace: #@ regexp.replace(\"([a-z]+)-([0-9]+)\", \"web-1 db-22\", \"$2:$1\")\n\
         named: #@ regexp.replace(\"(?P<word>[a-z]+)\", \"ab cd\", \"<${word}>\")\n\
         func: #@ regexp.replace(\"[0-9]+\", \"a1b22c333\", lambda m: str(len(m)))\n",
        &[],
    );
    assert_eq!(
        out.ok(),
        "match: true\n\
         anchored: false\n\
         replace: 1:web 22:db\n\
         named: <ab> <cd>\n\
         func: a1b2c3\n"
    );
}

#[test]
fn math_functions_and_warning() {
    let out = tpl(
        "#@ load(\"@ytt:math\", \"math\")\n\
         ceil: #@ math.ceil(1.2)\n\
         floor: #@ math.floor(-1.2)\n\
         round: #@ math.round(2.5)\n\
         sqrt: #@ math.sqrt(16)\n\
         pow: #@ math.pow(2, 10)\n\
         fabs: #@ math.fabs(-3)\n\
         log: #@ math.log(8, 2)\n\
         pi_gt_3: #@ math.pi > 3.14 and math.pi < 3.15\n\
         e_gt_2: #@ math.e > 2.71 and math.e < 2.72\n",
        &[],
    );
    assert_eq!(out.code, 0);
    assert_eq!(
        out.stdout,
        "ceil: 2\n\
         floor: -2\n\
         round: 3\n\
         sqrt: 4\n\
         pow: 1024\n\
         fabs: 3\n\
         log: 3\n\
         pi_gt_3: true\n\
         e_gt_2: true\n"
    );
    // Printed once, whatever the number of calls.
    assert_eq!(
        out.stderr,
        "\nWarning: a function from the @ytt:math module is used in this invocation; \
         this module does not guarantee bit-identical results across CPU architectures.\n"
    );
}

#[test]
fn math_module_without_calls_prints_no_warning() {
    let out = tpl("#@ load(\"@ytt:math\", \"math\")\na: 1\n", &[]);
    assert_eq!(out.ok(), "a: 1\n");
}

#[test]
fn version_require_at_least() {
    let ok = tpl(
        "#@ load(\"@ytt:version\", \"version\")\n\
         #@ version.require_at_least(\"0.40.0\")\n\
         ok: true\n",
        &[],
    );
    assert_eq!(ok.ok(), "ok: true\n");

    let out = tpl(
        "#@ load(\"@ytt:version\", \"version\")\n\
         #@ version.require_at_least(\"99.0.0\")\n\
         ok: true\n",
        &[],
    );
    let err = out.err();
    assert!(
        err.starts_with(
            "ytt: Error: \n\
             - version.require_at_least: ytt version '0.50.0' does not meet the minimum required version '99.0.0'\n"
        ),
        "{err}"
    );

    let out = tpl(
        "#@ load(\"@ytt:version\", \"version\")\n\
         #@ version.require_at_least(\"not.a.version\")\n\
         ok: true\n",
        &[],
    );
    let err = out.err();
    assert!(
        err.starts_with(
            "ytt: Error: \n\
             - version.require_at_least: version string 'not.a.version' must be a valid semver"
        ),
        "{err}"
    );
}

#[test]
fn overlay_apply_with_matchers() {
    let out = tpl(
        "#@ load(\"@ytt:overlay\", \"overlay\")\n\
         #@ def base():\n\
         containers:\n\
         - name: web\n\
         \x20 image: web:1\n\
         - name: sidecar\n\
         \x20 image: proxy:1\n\
         labels:\n\
         \x20 app: demo\n\
         \x20 tier: front\n\
         #@ end\n\
         #@ def update():\n\
         containers:\n\
         #@overlay/match by=overlay.map_key(\"name\")\n\
         - name: web\n\
         \x20 image: web:2\n\
         #@overlay/match by=overlay.subset({\"image\": \"proxy:1\"})\n\
         #@overlay/remove\n\
         - name: sidecar\n\
         - name: added\n\
         \x20 image: new:1\n\
         labels:\n\
         \x20 #@overlay/remove\n\
         \x20 tier: front\n\
         \x20 #@overlay/match missing_ok=True\n\
         \x20 env: prod\n\
         #@ end\n\
         #@ def all_images():\n\
         containers:\n\
         #@overlay/match by=overlay.all, expects=\"1+\"\n\
         - image: pinned\n\
         #@ end\n\
         result: #@ overlay.apply(base(), update())\n\
         chained: #@ overlay.apply(base(), update(), all_images())\n",
        &[],
    );
    insta::assert_snapshot!("overlay_apply", out.ok());
}

#[test]
fn overlay_apply_unmatched_is_an_error() {
    let out = tpl(
        "#@ load(\"@ytt:overlay\", \"overlay\")\n\
         #@ def base():\n\
         a: 1\n\
         #@ end\n\
         #@ def edit():\n\
         b: 2\n\
         #@ end\n\
         r: #@ overlay.apply(base(), edit())\n",
        &[],
    );
    assert_eq!(
        out.err(),
        "ytt: Error: \n\
         - overlay.apply: Map item (key 'b') on line tpl.yml:6: Expected number of matched nodes to be 1, but was 0\n\
         \x20   in <toplevel>\n\
         \x20     tpl.yml:8 | r: #@ overlay.apply(base(), edit())\n"
    );
}

#[test]
fn yaml_encode_of_empty_documents() {
    // an empty document prints nothing, as in the output: null, and the empty documents
    // of a document set written in YAML; a computed empty map is a value
    let out = tpl(
        "#@ load(\"@ytt:yaml\", \"yaml\")\n\
         #@ def docs():\n\
         --- {}\n\
         ---\n\
         a: 1\n\
         --- null\n\
         #@ end\n\
         ---\n\
         none: #@ yaml.encode(None)\n\
         dict: #@ yaml.encode({})\n\
         docs: #@ yaml.encode(docs())\n",
        &[],
    );
    assert_eq!(out.ok(), "none: \"\"\ndict: |\n  {}\ndocs: |\n  a: 1\n");
}

#[test]
fn overlay_apply_with_none_right_side_returns_left() {
    let out = tpl(
        "#@ load(\"@ytt:overlay\", \"overlay\")\n\
         #@ def left():\n\
         a: 1\n\
         #@ end\n\
         #@ def right():\n\
         b: 2\n\
         #@ end\n\
         one: #@ overlay.apply(left(), None)\n\
         dict: #@ overlay.apply({\"a\": 1}, None)\n\
         between: #@ overlay.apply(left(), None, right())\n",
        &[],
    );
    assert!(out.code == 1, "merging b needs missing_ok: {}", out.stdout);
    let out = tpl(
        "#@ load(\"@ytt:overlay\", \"overlay\")\n\
         #@ def left():\n\
         a: 1\n\
         #@ end\n\
         #@ def right():\n\
         #@overlay/match missing_ok=True\n\
         b: 2\n\
         #@ end\n\
         one: #@ overlay.apply(left(), None)\n\
         dict: #@ overlay.apply({\"a\": 1}, None)\n\
         between: #@ overlay.apply(left(), None, right())\n",
        &[],
    );
    assert_eq!(
        out.ok(),
        "one:\n  a: 1\ndict:\n  a: 1\nbetween:\n  a: 1\n  b: 2\n"
    );
}

/// Rule: a call whose failure is caught ends the node contexts it opened, so a function
/// holding nodes that fails midway leaves none of its nodes in the caller's output.
#[test]
fn try_to_a_function_failing_while_building_nodes() {
    let out = tpl(
        "#@ load(\"@ytt:assert\", \"assert\")\n\
         #@ def bad():\n\
         a: 1\n\
         b: #@ fail(\"boom\")\n\
         c: 3\n\
         #@ end\n\
         #@ def deep():\n\
         d:\n\
         - x: #@ bad()\n\
         #@ end\n\
         #@ def good():\n\
         ok: #@ assert.try_to(deep)[1]\n\
         #@ end\n\
         r: #@ assert.try_to(bad)\n\
         nested: #@ good()\n\
         after: 1\n",
        &[],
    );
    assert_eq!(
        out.ok(),
        "r:\n- null\n- 'fail: boom'\nnested:\n  ok: 'fail: boom'\nafter: 1\n"
    );
}
