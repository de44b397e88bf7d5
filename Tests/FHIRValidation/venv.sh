#!/usr/bin/env bash
# Makes (once) the virtualenv the FHIR validation test runs in: fhir.resources (R4B models) and
# fhirpathpy from PyPI, pinned. Prints the venv's python. usage: venv.sh [DIR]
set -euo pipefail
dir=${1:-"$(cd "$(dirname "$0")/../.." && pwd)/.build/fhir-venv"}
if ! "$dir/bin/python" -c 'import fhir.resources.R4B, fhirpathpy' 2>/dev/null; then
  python3 -m venv "$dir" >&2
  "$dir/bin/pip" install --quiet --disable-pip-version-check 'fhir.resources==8.3.0' 'fhirpathpy==2.2.4' >&2
fi
echo "$dir/bin/python"
