#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs inside the VM (make demo): fairdie used for real.
set -u

show() {
	echo
	echo "\$ $*"
	"$@"
}

echo "fairdie demo on Linux $(uname -r)"
show cat /sys/class/misc/fairdie/available_sources
show cat /sys/class/misc/fairdie/source
show fairdie config
show fairdie roll 3d6 -n 5
show fairdie roll 4d6k3 -v
show fairdie roll d20+4
show fairdie shuffle 10
show fairdie craps -n 20000
show fairdie roulette -n 5
show fairdie stats
echo
echo '$ od -An -tu1 -N16 /dev/fairdie     # 16 raw d6 rolls, 0..5'
od -An -tu1 -N16 /dev/fairdie
show cat /sys/class/misc/fairdie/outputs
