"""Writes each data-values schema of the Markdown files in DOCS (a ```yaml block with
`#@data/values-schema`) as OUT/docs-<file>-<n>/schema.yml, for check.mjs."""

import pathlib
import re
import sys

docs, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
count = 0
for md in sorted(docs.glob("*.md")):
    blocks = re.findall(r"```yaml\n(.*?)```", md.read_text(encoding="utf-8"), re.S)
    for n, block in enumerate(b for b in blocks if "#@data/values-schema" in b):
        case = out / f"docs-{md.stem}-{n + 1}"
        case.mkdir(parents=True)
        (case / "schema.yml").write_text(block, encoding="utf-8")
        count += 1
if not count:
    sys.exit(f"no schema found in {docs}")
print(f"{count} schemas from {docs}")
