#!/bin/sh
# Install the Debian packages kwgen's build, tests and benchmarks need.
# The package lists live in scripts/deps/*.txt, one package per line
# (# starts a comment), one file per area of the project.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
pkgs=$(cat "$here"/deps/*.txt | sed 's/#.*//' | tr -s ' \t' '\n' | sed '/^$/d' | sort -u)
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -z "$missing" ]; then
	echo "install-deps: all $(echo "$pkgs" | wc -l) packages present"
	exit 0
fi
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
