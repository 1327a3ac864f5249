"""Writes each data-values schema of the Markdown files in DOCS (a ```yaml block with
`#@data/values-schema`) as OUT/docs-<file>-<n>/schema.yml, for check.mjs. A schema whose
example run (the ```console block after it) reports an `Invalid @…` annotation (a line
of its own, maybe indented under its heading) is malformed on purpose and is left out."""

import pathlib
import re
import sys

docs, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
count = skipped = 0
for md in sorted(docs.glob("*.md")):
    text = md.read_text(encoding="utf-8")
    blocks = list(re.finditer(r"```yaml\n(.*?)```", text, re.S))
    n = 0
    for i, m in enumerate(blocks):
        block = m.group(1)
        if "#@data/values-schema" not in block:
            continue
        n += 1
        # the text up to the next yaml block: the example's run, if any
        after = text[m.end() : blocks[i + 1].start() if i + 1 < len(blocks) else len(text)]
        run = re.search(r"```console\n(.*?)```", after, re.S)
        if run and re.search(r"^\s*Invalid @", run.group(1), re.M):
            skipped += 1
            continue
        case = out / f"docs-{md.stem}-{n}"
        case.mkdir(parents=True)
        (case / "schema.yml").write_text(block, encoding="utf-8")
        count += 1
if not count:
    sys.exit(f"no schema found in {docs}")
print(f"{count} schemas from {docs} ({skipped} malformed on purpose, left out)")
