//! Short documentation of the `@ytt:` modules' functions and Starlark's built-ins, for
//! hover: the engine's functions carry signatures but no docstrings (and the standard
//! library's take `*args, **kwargs`, to word argument errors as the reference does), so
//! the signatures users write and one line on what each does are kept here, in our words
//! from carvel.dev's "Built-in ytt Library" and Starlark's specification.

use ytt::frontend::syntax::Member;

/// (name as written in code, signature, what it does).
pub const DOCS: &[(&str, &str, &str)] = &[
    // @ytt:data
    ("data.values", "data.values", "The library's final data values, as a struct (read-only)."),
    ("data.list", "data.list(path=\"\")", "The names of the library's files, relative to the current file's directory (`/` from the library's root)."),
    ("data.read", "data.read(path)", "A file's contents as a string, by a path relative to the current file (`/` from the library's root)."),
    // @ytt:struct
    ("struct.make", "struct.make(**fields)", "A struct with the given fields."),
    ("struct.make_and_bind", "struct.make_and_bind(receiver, **functions)", "A struct whose fields are the functions, each bound to `receiver` as its first argument."),
    ("struct.bind", "struct.bind(function, *args, **kwargs)", "`function` with the given arguments bound."),
    ("struct.encode", "struct.encode(value)", "A struct (nested: also dicts and lists) converted to dicts and lists."),
    ("struct.decode", "struct.decode(value)", "Dicts (nested) converted to structs."),
    // @ytt:assert
    ("assert.fail", "assert.fail(message)", "Stops the evaluation with `message`."),
    ("assert.try_to", "assert.try_to(function)", "Calls `function`; `(result, None)`, or `(None, error message)` when it fails."),
    ("assert.equals", "assert.equals(expected, actual)", "Fails unless the two values are equal."),
    ("assert.valid", "assert.valid(value)", "Checks `value` against the rules of its `@assert/validate` annotations."),
    ("assert.min", "assert.min(minimum)", "A validator: the value must be at least `minimum`."),
    ("assert.max", "assert.max(maximum)", "A validator: the value must be at most `maximum`."),
    ("assert.min_len", "assert.min_len(length)", "A validator: the value's length must be at least `length`."),
    ("assert.max_len", "assert.max_len(length)", "A validator: the value's length must be at most `length`."),
    ("assert.one_of", "assert.one_of(values)", "A validator: the value must be one of `values`."),
    ("assert.not_null", "assert.not_null(value=True)", "A validator: the value must not be null."),
    ("assert.one_not_null", "assert.one_not_null(keys=True)", "A validator: exactly one of the map's keys (or of `keys`) has a non-null value."),
    // encodings
    ("json.encode", "json.encode(value, indent=0, escape_html=True)", "`value` as a JSON string."),
    ("json.decode", "json.decode(string)", "The value a JSON string holds."),
    ("yaml.encode", "yaml.encode(value)", "`value` as a YAML string."),
    ("yaml.decode", "yaml.decode(string)", "The value a YAML string holds."),
    ("toml.encode", "toml.encode(value, indent=0)", "A dict as a TOML string."),
    ("toml.decode", "toml.decode(string)", "The dict a TOML string holds."),
    ("base64.encode", "base64.encode(string, url=False, raw=False, strict=False)", "A string in base64 (`url`: the URL-safe alphabet; `raw`: without padding)."),
    ("base64.decode", "base64.decode(string, url=False, raw=False, strict=False)", "A base64 string decoded."),
    ("md5.sum", "md5.sum(string)", "The MD5 digest of a string, in hexadecimal."),
    ("sha256.sum", "sha256.sum(string)", "The SHA-256 digest of a string, in hexadecimal."),
    ("regexp.match", "regexp.match(pattern, string)", "Whether `string` matches the regular expression `pattern`."),
    ("regexp.replace", "regexp.replace(pattern, string, replacement)", "`string` with each match of `pattern` replaced (a string with `$1` groups, or a function of the match)."),
    ("url.path_segment_encode", "url.path_segment_encode(string)", "A string escaped for a URL's path segment."),
    ("url.path_segment_decode", "url.path_segment_decode(string)", "A URL path segment unescaped."),
    ("url.query_param_value_encode", "url.query_param_value_encode(string)", "A string escaped for a URL's query parameter."),
    ("url.query_param_value_decode", "url.query_param_value_decode(string)", "A URL query parameter unescaped."),
    ("url.query_params_encode", "url.query_params_encode(params)", "A dict of lists of strings as a URL query string."),
    ("url.query_params_decode", "url.query_params_decode(string)", "A URL query string as a dict of lists of strings."),
    ("url.parse", "url.parse(string)", "A URL parsed: its user, hostname, query and string form."),
    ("ip.parse_addr", "ip.parse_addr(string)", "An IP address parsed (`is_ipv4()`, `is_ipv6()`, `string()`)."),
    ("ip.parse_cidr", "ip.parse_cidr(string)", "A CIDR parsed: `(address, network)`."),
    ("version.require_at_least", "version.require_at_least(version)", "Fails unless this ytt is at least `version`."),
    ("module.make", "module.make(name, **members)", "A module value named `name` with the given members."),
    // @ytt:template, @ytt:library
    ("template.replace", "template.replace(value)", "Replaces the node this is the value of with `value`'s items (a map's items, an array's items, documents)."),
    ("library.get", "library.get(name, alias=None, ignore_unknown_comments=False, implicit_map_key_overrides=False, strict=False)", "A private library (`_ytt_lib/NAME`): `with_data_values(values)`, `eval()`, `export(name)`, `data_values()`."),
    // @ytt:overlay
    ("overlay.apply", "overlay.apply(left, *overlays)", "`left` with each overlay applied in turn."),
    ("overlay.map_key", "overlay.map_key(key)", "A matcher: the map (array item) whose `key` has the overlay's value."),
    ("overlay.index", "overlay.index(i)", "A matcher: the array item at index `i`."),
    ("overlay.all", "overlay.all", "A matcher: every node."),
    ("overlay.subset", "overlay.subset(value)", "A matcher: the nodes that hold `value` (a subset of a map, or equal)."),
    ("overlay.and_op", "overlay.and_op(*matchers)", "A matcher: all of the matchers match."),
    ("overlay.or_op", "overlay.or_op(*matchers)", "A matcher: one of the matchers matches."),
    ("overlay.not_op", "overlay.not_op(matcher)", "A matcher: the matcher does not match."),
    // Starlark's built-ins
    ("fail", "fail(*args)", "Stops the evaluation with its arguments as the message."),
    ("len", "len(x)", "The number of items of a string, list, tuple, dict or set."),
    ("range", "range(stop) / range(start, stop, step=1)", "The integers from `start` (0) to `stop`, excluded."),
    ("str", "str(x)", "`x` as a string."),
    ("int", "int(x, base=10)", "`x` as an integer (a string in `base`)."),
    ("float", "float(x)", "`x` as a float."),
    ("bool", "bool(x)", "Whether `x` is true."),
    ("list", "list(iterable=[])", "A new list of the iterable's items."),
    ("dict", "dict(pairs=[], **kwargs)", "A new dict of the pairs' and keyword arguments' entries."),
    ("tuple", "tuple(iterable=())", "A tuple of the iterable's items."),
    ("set", "set(iterable=[])", "A set of the iterable's items."),
    ("sorted", "sorted(iterable, key=None, reverse=False)", "A new list of the items, sorted."),
    ("enumerate", "enumerate(iterable, start=0)", "A list of `(index, item)` pairs."),
    ("zip", "zip(*iterables)", "A list of tuples of the iterables' items, position by position."),
    ("type", "type(x)", "The name of `x`'s type."),
    ("getattr", "getattr(x, name, default)", "The attribute `name` of `x` (`default` when it has none)."),
    ("hasattr", "hasattr(x, name)", "Whether `x` has the attribute `name`."),
    ("print", "print(*args)", "Writes the arguments to standard error (the editor's log)."),
];

/// The signature and what it does of `name` (`json.encode`, `len`), which the engine
/// offers as `engine`: the engine's signature where it names its parameters, else the
/// one written here; what it does from here, else from the engine's docstring.
pub fn describe(name: &str, engine: Option<Member>) -> Option<(String, String)> {
    let written = DOCS.iter().find(|(n, _, _)| *n == name);
    let signature = match (&engine, written) {
        (Some(m), _) if !m.signature.contains("*args, **") && m.signature.contains('(') => {
            m.signature.clone()
        }
        (_, Some((_, sig, _))) => sig.to_string(),
        (Some(m), None) => m.signature.clone(),
        (None, None) => return None,
    };
    let doc = (written.map(|(_, _, doc)| doc.to_string()))
        .or_else(|| engine.and_then(|m| m.summary))
        .unwrap_or_default();
    Some((signature, doc))
}
