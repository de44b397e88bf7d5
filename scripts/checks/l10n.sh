#!/usr/bin/env bash
# The gettext catalogs (docs/localization.md): msgfmt -c on all 17 po/LANG.po, no fuzzy, empty or
# missing entry, placeholders as in English, and po/corsano.pot, po/en.po and the generated Swift
# tables current. A new or changed English string fails here until its 16 translations land.
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 scripts/l10n check
