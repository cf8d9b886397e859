#!/usr/bin/env python3
"""Validates tools/gateway-schemas/samples.json against tests/data/gateway/dispatch-schemas.json with the
Python jsonschema package (Draft 4), building the document the C++ test builds:
{"definitions": ..., "$ref": "#/events/<NAME>/schema", "events": ...}. Also checks that every $ref is
"#/definitions/<Name>" and resolves. Exit status 0 when all is as expected."""
import json
import pathlib
import re
import sys

import jsonschema

here = pathlib.Path(__file__).resolve().parent
schemas = json.loads((here.parent.parent / "tests/data/gateway/dispatch-schemas.json").read_text())
samples = json.loads((here / "samples.json").read_text())
problems = []


def refs(value, where):
    if isinstance(value, dict):
        for key, sub in value.items():
            if key == "$ref":
                m = re.fullmatch(r"#/definitions/([A-Za-z][A-Za-z0-9_]*)", sub)
                if not m or m.group(1) not in schemas["definitions"]:
                    problems.append(f"{where}: bad $ref {sub}")
            else:
                refs(sub, where)
    elif isinstance(value, list):
        for sub in value:
            refs(sub, where)


refs(schemas["definitions"], "definitions")
refs(schemas["events"], "events")


def validator(event):
    document = {"definitions": schemas["definitions"], "$ref": f"#/events/{event}/schema",
                "events": schemas["events"]}
    return jsonschema.Draft4Validator(document)


for event in schemas["events"]:
    if event not in samples["valid"]:
        problems.append(f"{event}: no valid sample")
for event, payloads in samples["valid"].items():
    if event not in schemas["events"]:
        problems.append(f"{event}: no schema")
        continue
    for i, d in enumerate(payloads):
        for error in validator(event).iter_errors(d):
            problems.append(f"{event} valid[{i}]: {error.message} at {list(error.absolute_path)}")
for event, cases in samples["invalid"].items():
    for case in cases:
        if validator(event).is_valid(case["d"]):
            problems.append(f"{event}: accepted an invalid sample ({case['why']})")

for problem in problems:
    print(problem)
print(f"{len(schemas['events'])} events; {'FAILED' if problems else 'ok'}")
sys.exit(1 if problems else 0)
