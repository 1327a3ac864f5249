// The command line a request stands for: what the page shows above the output, and what
// the browser test runs the `ytt` binary with to compare outputs (after `-f DIR`).

/** The values of a textarea of flags: one a line, blank lines left out. */
export function lines(text) {
  return text.split("\n").map((l) => l.trim()).filter((l) => l !== "");
}

/** The `ytt` arguments after `-f DIR` for `request` (see playground/src/run.rs). */
export function cliArgs(request) {
  const args = [];
  for (const kv of request.values ?? []) args.push("-v", kv);
  for (const kv of request.values_yaml ?? []) args.push("--data-value-yaml", kv);
  if (request.inspect === "data-values") args.push("--data-values-inspect");
  if (request.inspect === "schema") {
    args.push("--data-values-schema-inspect", "-o", request.schema_type ?? "openapi-v3");
  }
  if (request.output === "json") args.push("-o", "json");
  if (request.disable_values_validation) args.push("--dangerous-data-values-disable-validation");
  if (request.disable_output_validation) args.push("--output-disable-validation");
  return args;
}

/** `args` as a shell would need them quoted. */
export function shellWords(args) {
  return args
    .map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", `'\\''`)}'`))
    .join(" ");
}
