"""openapi-spec-validator on ytt-rs's `-o openapi-v3` documents (YAML, as printed).

Usage: python check_openapi.py FILE... ; exit status 1 when a document is refused.
Besides the document's shape, every `default` and `example` must be valid against its
schema (the validator checks defaults; examples are checked here with the same
OpenAPI 3.0 schema validator).
"""

import sys

import yaml
from openapi_schema_validator import OAS30Validator
from openapi_spec_validator import validate


def values(schema, path, out):
    if not isinstance(schema, dict):
        return
    for key in ("default", "example"):
        if key in schema:
            out.append((f"{path}.{key}", schema, schema[key]))
    for name, sub in (schema.get("properties") or {}).items():
        values(sub, f"{path}.{name}", out)
    if "items" in schema:
        values(schema["items"], f"{path}[]", out)


failed = 0
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    try:
        validate(doc)
    except Exception as e:  # the validator's own error types vary across versions
        failed += 1
        print(f"FAIL {path}: openapi-spec-validator refuses the document: {e}", file=sys.stderr)
        continue
    found = []
    values(doc["components"]["schemas"]["dataValues"], "dataValues", found)
    for where, schema, value in found:
        errors = list(OAS30Validator(schema).iter_errors(value))
        if errors:
            failed += 1
            print(f"FAIL {path}: {where} breaks its schema: {errors[0].message}", file=sys.stderr)
print(f"openapi-spec-validator: {len(sys.argv) - 1 - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
