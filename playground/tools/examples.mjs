// Writes the examples menu of the site (examples.json): each entry of
// playground/examples.json with its files' text, read from the repository's examples/.
// Usage: node playground/tools/examples.mjs OUT_FILE (from the repository's root)

import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

function walk(dir, prefix = "") {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const rel = prefix ? `${prefix}/${name}` : name;
      return statSync(join(dir, name)).isDirectory() ? walk(join(dir, name), rel) : [rel];
    });
}

const manifest = JSON.parse(readFileSync("playground/examples.json", "utf8"));
const examples = manifest.map(({ name, title, dir, files, options, open }) => ({
  name,
  title,
  open,
  files: (files ?? walk(dir)).map((path) => ({ path, text: readFileSync(join(dir, path), "utf8") })),
  options: options ?? {},
}));
writeFileSync(process.argv[2], JSON.stringify(examples));
