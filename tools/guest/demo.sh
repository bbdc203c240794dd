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

# A draw anyone can check: sealed before the public value exists, revealed
# with it, verified by someone holding only the log and the public key.
# (In the VM the public value is typed in: a real draw would take drand's
# round 34565812, published on 2026-12-05 at 20:00 UTC.)
cd /tmp || exit 1
show fairdie keygen lotto.key
show fairdie seal --log draws.log --key lotto.key --secret week49.secret \
	--public 'drand quicknet round 34565812' sample 6 49
show fairdie reveal --log draws.log --key lotto.key --secret week49.secret \
	--public-value 9b2e0cfbd7f3c24a5e8e7c1fd1c6d0f6a3a1b5c8e0d7f2a4b6c8e0f1a3b5c7d9
show fairdie roll 3d6 --log draws.log --key lotto.key
show fairdie verify --key lotto.key.pub draws.log
show cat draws.log
echo
echo '$ fairdie reveal ... (again: refused)'
fairdie reveal --log draws.log --key lotto.key --secret week49.secret \
	--public-value 9b2e0cfbd7f3c24a5e8e7c1fd1c6d0f6a3a1b5c8e0d7f2a4b6c8e0f1a3b5c7d9
echo "exit status $?"
echo
echo '$ sed s/34565812/34565813/ draws.log >forged.log; fairdie verify --key lotto.key.pub forged.log'
sed 's/34565812/34565813/' draws.log >forged.log
fairdie verify --key lotto.key.pub forged.log
echo "exit status $?"
