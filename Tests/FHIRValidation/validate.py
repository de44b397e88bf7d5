#!/usr/bin/env python3
"""Validates corsano's FHIR R4 export offline (issue 17).

usage: validate.py FILE...   each FILE is NDJSON (one resource a line), a transaction Bundle,
                             or a Bulk Data manifest.json (its output files are read)

Every resource must parse with fhir.resources' R4B models (R4's Observation, Device, Procedure
and Provenance are the same there). Resources that claim the vital-signs BP or heart-rate profile
are checked against its constraints with FHIRPath (fhirpathpy): category, codes, subject,
effective time, both pressure components in UCUM mm[Hg], the heart rate in /min. Prints one JSON
summary line (counts by type, profiles claimed, observations' identifiers) on success; exits 1
naming the resource and the failed rule otherwise.
"""
import json
import os
import sys
from urllib.parse import urlparse

from fhirpathpy import evaluate
from fhirpathpy.models import models
from fhir.resources.R4B import get_fhir_model_class

BP = "http://hl7.org/fhir/StructureDefinition/bp"
HR = "http://hl7.org/fhir/StructureDefinition/heartrate"
LOINC = "http://loinc.org"
UCUM = "http://unitsofmeasure.org"
CATEGORY = "http://terminology.hl7.org/CodeSystem/observation-category"

VITAL_SIGNS_RULES = [
    ("status is final", "status = 'final'"),
    ("category vital-signs", f"category.coding.where(system = '{CATEGORY}' and code = 'vital-signs').exists()"),
    ("subject present", "subject.exists()"),
    ("effective time present", "effective.exists()"),
    ("vs-2: components, members, value or absent reason",
     "(component.empty() and hasMember.empty()) implies (dataAbsentReason.exists() or value.exists())"),
]
BP_RULES = VITAL_SIGNS_RULES + [
    ("code LOINC 85354-9", f"code.coding.where(system = '{LOINC}' and code = '85354-9').exists()"),
    ("systolic 8480-6 in mm[Hg]",
     f"component.where(code.coding.where(system = '{LOINC}' and code = '8480-6').exists())"
     f".value.where(system = '{UCUM}' and code = 'mm[Hg]' and value.exists()).count() = 1"),
    ("diastolic 8462-4 in mm[Hg]",
     f"component.where(code.coding.where(system = '{LOINC}' and code = '8462-4').exists())"
     f".value.where(system = '{UCUM}' and code = 'mm[Hg]' and value.exists()).count() = 1"),
    ("every component in mm[Hg]", f"component.all(value.system = '{UCUM}' and value.code = 'mm[Hg]')"),
]
HR_RULES = VITAL_SIGNS_RULES + [
    ("code LOINC 8867-4", f"code.coding.where(system = '{LOINC}' and code = '8867-4').exists()"),
    ("value in /min", f"value.where(system = '{UCUM}' and code = '/min' and value.exists()).exists()"),
]


def resources_of(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    stripped = text.strip()
    if stripped.startswith("{") and "\n" not in stripped:
        whole = json.loads(stripped)
        if whole.get("resourceType") == "Bundle":
            assert whole.get("type") == "transaction", f"{path}: Bundle type {whole.get('type')!r}"
            yield path, whole  # the Bundle itself must parse too
            for i, entry in enumerate(whole.get("entry", [])):
                request = entry.get("request", {})
                assert request.get("method") == "POST" and request.get("ifNoneExist", "").startswith("identifier="), \
                    f"{path}: entry {i} is not a conditional create"
                yield f"{path}#entry{i}", entry["resource"]
            return
        if "output" in whole and "transactionTime" in whole:
            for out in whole["output"]:
                file = urlparse(out["url"]).path
                lines = [l for l in open(file, encoding="utf-8").read().splitlines() if l]
                assert len(lines) == out["count"], f"{file}: {len(lines)} lines, manifest says {out['count']}"
                for n, line in enumerate(lines, 1):
                    resource = json.loads(line)
                    assert resource["resourceType"] == out["type"], f"{file}:{n}: {resource['resourceType']} in {out['type']} file"
                    yield f"{file}:{n}", resource
            return
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            yield f"{path}:{n}", json.loads(line)


def check(where, resource, summary):
    kind = resource["resourceType"]
    get_fhir_model_class(kind).model_validate(resource)  # raises with the failing field
    summary["types"][kind] = summary["types"].get(kind, 0) + 1
    if kind != "Observation":
        return
    profiles = resource.get("meta", {}).get("profile", [])
    for profile, rules in ((BP, BP_RULES), (HR, HR_RULES)):
        if profile in profiles:
            summary["profiles"][profile] = summary["profiles"].get(profile, 0) + 1
            for name, expression in rules:
                result = evaluate(resource, expression, {}, models["r4"])  # the R4 model resolves value[x], effective[x]
                if result != [True]:
                    raise AssertionError(f"{where}: {profile} rule '{name}' gives {result}")
    codes = [c["code"] for c in resource["code"]["coding"]]
    entry = {"identifier": resource["identifier"][0]["value"], "code": codes[0],
             "profiles": profiles, "components": [c["code"]["coding"][0]["code"] for c in resource.get("component", [])]}
    summary["observations"].append(entry)


def main(paths):
    summary = {"types": {}, "profiles": {}, "observations": []}
    for path in paths:
        for where, resource in resources_of(path):
            try:
                check(where, resource, summary)
            except Exception as error:  # name the resource, then fail
                print(f"validate.py: {error}" if str(error).startswith(where) else f"validate.py: {where}: {error}", file=sys.stderr)
                return 1
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
