#!/usr/bin/env bash
# The virtualenv the FHIR validation test runs in (fhir.resources, fhirpathpy: scripts/packages'
# [pypi] section): scripts/venv makes it. Prints the venv's python. usage: venv.sh [DIR]
exec "$(dirname "$0")/../../scripts/venv" "$@"
