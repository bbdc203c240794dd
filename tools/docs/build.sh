#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# build.sh [OUTDIR] - render the documentation to HTML, warnings as errors.
#
# Every .rst file under Documentation/ becomes OUTDIR/PATH.html (OUTDIR
# defaults to .build/docs at the top of the tree), and every ABI file under
# Documentation/ABI/ is checked and converted by abi2rst.py, then rendered
# the same way. Docutils runs with --strict: any system message, even an
# informational one, fails the build. Uses Debian's python3-docutils only
# (plain docutils, not Sphinx); no syntax highlighting, so Pygments is not
# needed.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${1:-$top/.build/docs}

# Debian's interpreter first: python3-docutils installs there.
py=
for p in /usr/bin/python3 python3; do
	if command -v "$p" >/dev/null 2>&1 &&
	   "$p" -c 'import docutils' >/dev/null 2>&1; then
		py=$p
		break
	fi
done
if [ -z "$py" ]; then
	echo "build.sh: docutils not found: install python3-docutils ('make deps')" >&2
	exit 1
fi

render() {
	# render SRC.rst DST.html
	mkdir -p "$(dirname "$2")"
	"$py" - "$1" "$2" <<'PYEOF'
import sys
from docutils.core import publish_cmdline

publish_cmdline(writer_name="html5", argv=[
    "--strict", "--exit-status=info", "--no-traceback",
    "--syntax-highlight=none", "--no-datestamp", "--no-generator",
    "--no-source-link", "--input-encoding=utf-8:strict",
    sys.argv[1], sys.argv[2]])
PYEOF
}

cd "$top"
rc=0
n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

for src in $(find Documentation -name '*.rst' | sort); do
	dst=$out/${src#Documentation/}
	dst=${dst%.rst}.html
	if render "$src" "$dst"; then
		n=$((n + 1))
	else
		echo "build.sh: $src: failed" >&2
		rc=1
	fi
done

for src in $(find Documentation/ABI -type f ! -name '*.rst' 2>/dev/null | sort); do
	rel=${src#Documentation/}
	mid=$tmp/$rel.rst
	mkdir -p "$(dirname "$mid")"
	if "$py" "$here/abi2rst.py" "$src" >"$mid" &&
	   render "$mid" "$out/$rel.html"; then
		n=$((n + 1))
	else
		echo "build.sh: $src: failed" >&2
		rc=1
	fi
done

if [ "$n" -eq 0 ] && [ "$rc" -eq 0 ]; then
	echo "build.sh: no documents found under Documentation/" >&2
	rc=1
fi
[ "$rc" -eq 0 ] && echo "build.sh: $n documents rendered into $out"
exit $rc
