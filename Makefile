# SPDX-License-Identifier: GPL-2.0
#
# fairdie - exactly fair dice from the CPU's hardware random number generator
#
#   make              the module (fairdie.ko, against KDIR) and the tool
#   make deps         install every Debian package the project needs
#   make check        every test: userspace proofs, tools, lint, docs,
#                     the VM selftests on Debian's 6.1 and 6.12 kernels
#                     and on the debug kernel
#   make vmtest       the VM selftests on one kernel (KVER=6.1 by default;
#                     KVER=debug: a KASAN/lockdep/kmemleak kernel, built once)
#   make vmrun CMD='...' [VMFILES='a b'] [MODPARAMS='k=v ...'] [KVER=...]
#   make vmclone      the VM saved and restored twice: clones' rolls differ
#   make demo         boot the VM and show real use
#   make bench        the benchmarks
#   make certify-calib  the calibration of certify's p-values (minutes;
#                     CALIB_REPS, CALIB_COUNT, CALIB_ARGS)
#   make vmcertify    certify --quick on the device in the VM (KVER,
#                     CERTIFY_COUNT), its report checked in Chromium
#   make lint         checkpatch --strict, sparse, W=1, kernel-doc
#   make install      module, udev rule, tool, man page, JSON schemas, header
#                     (KVER or KDIR, DESTDIR, PREFIX); make uninstall
#   make deb          Debian packages fairdie-dkms and fairdie, in .build/deb/
#   make pkgtest      build, lint, install, load in the VM and purge them
#
# make and make install only use what is installed; the development targets
# (check, vmtest, vmrun, demo, bench, lint, docs) install what they need.
# The kernel build proper is driven by Kbuild (Documentation/kbuild/modules.rst).

# The kernel the module is built and installed for: the one KDIR (a build
# directory) or KVER (a release, or a series such as 6.12) names; else, for
# install and uninstall, the running kernel; else the running kernel if its
# headers are installed, or the newest installed linux-headers-*-amd64.
ifeq ($(origin KRELEASE),undefined)
ifneq ($(filter command% environment%,$(origin KDIR)),)
KFROM = KDIR
KRELEASE := $(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' \
	$(KDIR)/include/generated/utsrelease.h 2>/dev/null)
else ifneq ($(filter command% environment%,$(origin KVER)),)
KFROM = KVER
KRELEASE := $(if $(wildcard /lib/modules/$(KVER)/build),$(KVER),$(or \
	$(shell tools/scripts/kernel.sh $(KVER) 2>/dev/null),$(KVER)))
else ifneq ($(filter install uninstall,$(MAKECMDGOALS)),)
KFROM = running
KRELEASE := $(shell uname -r)
else
KRELEASE := $(shell tools/scripts/kernel.sh 2>/dev/null)
endif
endif
KDIR ?= /lib/modules/$(KRELEASE)/build
PREFIX ?= /usr/local
# The JSON Schemas of the tool's --json output (PREFIX/share/fairdie/schema).
SCHEMAS := $(wildcard tools/cli/schema/*.json)
DESTDIR ?=

# The VM tests boot Debian's own kernel of this series, or with KVER=debug
# the debug kernel of tools/debugk (KASAN, lockdep, kmemleak, UBSAN, fault
# injection), built once by tools/debugk/build.sh.
KVER ?= 6.1
ifeq ($(KVER),debug)
DEBUGK_DIR := $(shell tools/debugk/build.sh --dir)
VM_RELEASE = $(shell cat $(DEBUGK_DIR)/include/config/kernel.release 2>/dev/null)
VM_KDIR = $(DEBUGK_DIR)
VM_IMAGE = $(DEBUGK_DIR)/arch/x86/boot/bzImage
VM_KERNEL_DEP = debug-kernel
else
VM_RELEASE = $(shell tools/scripts/kernel.sh $(KVER))
VM_KDIR = /lib/modules/$(VM_RELEASE)/build
VM_IMAGE = /boot/vmlinuz-$(VM_RELEASE)
VM_KERNEL_DEP =
endif
VM_MODDIR = $(CURDIR)/.build/mod-$(VM_RELEASE)
VM = tools/vm/vm.sh --kernel $(VM_IMAGE) --mem 3G $(DEBUGK_VM_ARGS)
VM_TIMEOUT ?= 1200
# The module make vmrun loads: KO=PATH (such as the one DKMS built) or ours.
VM_KO = $(or $(KO),$(VM_MODDIR)/fairdie.ko)

Q = @

.PHONY: all modules tools selftests deps need-deps check test ctcheck vm-module \
	debug-kernel debugk-canary vmtest vmtest-all vmrun vmclone demo bench bench-smoke efficiency certify-calib vmcertify lint docs install \
	uninstall clean
.PHONY: cli kernel-check cc-check dkms-check deb pkgtest

all: modules cli

modules: kernel-check
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# The fairdie tool, tools/fairdie (its manual page is tools/cli/fairdie.1).
cli: cc-check
	$(MAKE) -C tools/cli

# A missing prerequisite is one line naming the Debian package to install.
kernel-check: cc-check
	$(Q)if [ -z "$(KRELEASE)" ]; then \
		echo "fairdie: $(if $(KFROM),$(KFROM)=$($(KFROM)) is not a kernel build directory,no kernel headers installed: install linux-headers-$$(uname -r))" >&2; \
		exit 1; \
	elif [ ! -f "$(KDIR)/Makefile" ]; then \
		echo "fairdie: no headers for kernel $(KRELEASE) ($(KDIR) is missing): install linux-headers-$(KRELEASE), or name another kernel with KVER=RELEASE" >&2; \
		exit 1; \
	fi
	$(Q)$(if $(KFROM),:,[ "$(KRELEASE)" = "$$(uname -r)" ] || \
		echo "fairdie: building for $(KRELEASE), the running kernel $$(uname -r) has no headers (linux-headers-$$(uname -r))")

cc-check:
	$(Q)command -v $(CC) >/dev/null || { \
		echo "fairdie: no C compiler ($(CC)): install gcc and make" >&2; exit 1; }
	$(Q)echo '#include <stdio.h>' | $(CC) -E -x c - >/dev/null 2>&1 || { \
		echo "fairdie: no C library headers: install libc6-dev" >&2; exit 1; }

# What the VM tests run besides the module and the tool.
tools: need-deps cli
	$(MAKE) -C tools/guest
	$(MAKE) -C selftests all compat

selftests: need-deps
	$(MAKE) -C selftests all compat

# ---------------------------------------------------------------------
# Dependencies: Debian packages only; installed when something is missing.

deps:
	tools/scripts/deps.sh install

need-deps:
	$(Q)tools/scripts/deps.sh check >/dev/null 2>&1 || tools/scripts/deps.sh install

# ---------------------------------------------------------------------
# Tests.

# Userspace proofs of the shared algorithms and the tool's host-side tests.
test: need-deps
	$(MAKE) -C tools/test check
	$(MAKE) -C tools/cli check
	tools/scripts/test_install.sh
	tools/debugk/test_verify.sh

# The extractors and the health tests under valgrind, the raw bits marked
# undefined: no branch and no address may depend on them (tools/ctcheck).
ctcheck: need-deps
	$(MAKE) -C tools/ctcheck check

print-krelease:
	@echo $(KRELEASE)

# The module built for the VM's kernel, in a directory of its own so that
# builds for several kernels do not clobber each other.
vm-module: need-deps $(VM_KERNEL_DEP)
	$(Q)mkdir -p $(VM_MODDIR)
	$(Q)cp -r Kbuild driver uapi $(VM_MODDIR)/
	$(MAKE) -C $(VM_KDIR) M=$(VM_MODDIR) FAIRDIE_FAULT=1 modules

# Every kselftest program, 64-bit and 32-bit (selftests/Makefile says which
# have no 32-bit twin).
SELFTEST_PROGS = $(patsubst %.c,%,$(wildcard selftests/fairdie_*_test.c))
SELFTEST_COMPAT = $(filter-out selftests/fairdie_well_test_32,$(SELFTEST_PROGS:%=%_32))
VM_TOOLS = --bin tools/fairdie \
	$(foreach p,$(SELFTEST_PROGS) $(SELFTEST_COMPAT),--bin $(p)) \
	--bin tools/guest/stress --bin tools/guest/fuzz --bin tools/guest/fdread \
	--bin tools/guest/simwords

VM_TEST = --timeout $(VM_TIMEOUT) --module $(VM_MODDIR)/fairdie.ko \
	$(VM_TOOLS) --bin /usr/bin/rngtest --bin /usr/bin/ent \
	--file $(VM_MODDIR)/fairdie.ko --file tools/cli/test_vm.sh \
	--file tools/cli/testlib.sh \
	--file tools/guest/vmtest.sh --file tools/guest/collect.sh \
	--file tools/guest/certify.sh

# The guest's CPU has RDSEED and RDRAND; a second, short run takes RDSEED
# away and starts with the CRNG not initialised (tools/guest/vmtest.sh says
# what each run tests); then the clone test, on the debug kernel too.
vmtest: vm-module tools
	$(VM) $(VM_TEST) $(DEBUGK_TEST_ARGS) --modparams "hwrng=rdseed" \
		--append "random.trust_cpu=0 random.trust-cpu=on" \
		-- $(DEBUGK_WRAP) sh /root/vmtest.sh
	$(VM) $(VM_TEST) --qemu "-cpu max,-rdseed" \
		--append "random.trust_cpu=off random.trust_bootloader=off" \
		-- sh /root/vmtest.sh no-rdseed
	$(VM_CLONE)

# Clone safety: a guest holding buffered rolls is saved and restored twice
# with new VM generation IDs (QEMU's vmgenid); the clones' next rolls must
# differ, and must not once the flush is switched off (tools/vm/clonetest.sh).
VM_CLONE = tools/vm/clonetest.sh --kernel $(VM_IMAGE) $(DEBUGK_VM_ARGS) \
	--module $(VM_MODDIR)/fairdie.ko --modparams "hwrng=rdseed" \
	--bin tools/guest/vmclone

vmclone: vm-module tools
	$(VM_CLONE)

# The debug kernel: built once (the first run takes a while), then the VM
# suite runs on it inside tools/debugk/guest.sh (checkers live, fault
# injection, kmemleak scan after rmmod).  Stack dumps of the allocation
# failures it injects are expected (their "Call Trace:" and frame lines,
# which name lockdep_* functions, are let through); guest.sh fails on any
# other.
ifeq ($(KVER),debug)
# "lockdep" in the kernel log fails a run: not in its boot banner.
DEBUGK_VM_ARGS = --append no_hash_pointers \
	--klog-ignore 'RCU lockdep checking is enabled'
DEBUGK_TEST_ARGS = --klog-ignore \
	'RCU lockdep checking is enabled|Call Trace:|^\[ *[0-9.]+\]  ' \
	--bin .build/debugk/fdfault --file tools/debugk/guest.sh
DEBUGK_WRAP = FAIRDIE_PARAMS=hwrng=rdseed sh /root/guest.sh
# KASAN under TCG is slow: more time, unless VM_TIMEOUT was given.
ifeq ($(origin VM_TIMEOUT),file)
VM_TIMEOUT = 2700
endif
vmtest: .build/debugk/fdfault
endif

debug-kernel: need-deps
	tools/debugk/build.sh

.build/debugk/fdfault: tools/debugk/fdfault.c uapi/linux/fairdie.h
	$(Q)mkdir -p .build/debugk
	$(CC) -std=gnu11 -O2 -Wall -Wextra -static -Iuapi -o $@ $<

# A debug-kernel run fails when a checker fires: the test-only fdbug.ko.
debugk-canary: need-deps
	tools/debugk/canary.sh

vmtest-all:
	$(MAKE) vmtest KVER=6.1
	$(MAKE) vmcertify KVER=6.1 CERTIFY_COUNT=$(CHECK_CERTIFY_COUNT)
	$(MAKE) vmtest KVER=6.12
	$(MAKE) vmcertify KVER=6.12 CERTIFY_COUNT=$(CHECK_CERTIFY_COUNT)
	$(MAKE) vmtest KVER=debug
	$(MAKE) debugk-canary

vmrun: vm-module tools
	$(VM) --timeout $(VM_TIMEOUT) --module $(VM_KO) \
		--modparams "$(MODPARAMS)" $(VM_TOOLS) \
		$(foreach f,$(VMFILES),--file $(f)) -- '$(CMD)'

demo: vm-module tools
	$(VM) --timeout $(VM_TIMEOUT) --module $(VM_MODDIR)/fairdie.ko \
		--modparams "$(MODPARAMS)" --bin tools/fairdie \
		--file tools/guest/demo.sh -- sh /root/demo.sh

# The debug kernel builds at the lowest priority beside the steps before the
# VM suites (they mostly keep one CPU busy; pkgtest and bench-smoke boot a VM
# that measures nothing), and is waited for before vmtest-all, so that no
# timing the VM suites take shares the CPUs with it.  Its log is
# .build/debugk/build.log; if it failed, 'make debug-kernel' tries again in
# the foreground and shows why.  It runs in a session of its own, and is
# stopped when a step fails or make check is interrupted: a command started
# with & by a shell without job control ignores SIGINT, so Ctrl-C would
# leave it building.  One shell runs the steps to hold its process group;
# under make -n (which runs a recipe that names $(MAKE)) it is not started.
DRY_RUN = $(findstring n,$(firstword -$(MAKEFLAGS)))
check: need-deps
	$(Q)set -e; start=$$(date +%s); debugk=; \
	if [ -z "$(DRY_RUN)" ]; then \
		mkdir -p .build/debugk; \
		DEBUGK_NICE=19 setsid tools/debugk/build.sh </dev/null \
			>.build/debugk/build.log 2>&1 & debugk=$$!; \
		trap '[ -z "$$debugk" ] || kill -TERM -$$debugk 2>/dev/null || :' EXIT; \
		trap 'exit 130' INT; trap 'exit 143' TERM; trap 'exit 129' HUP; \
	fi; \
	for step in test ctcheck pkgtest lint docs bench-smoke debug-kernel; do \
		echo "$(MAKE) $$step"; $(MAKE) $$step; \
	done; \
	[ -z "$$debugk" ] || wait $$debugk || :; debugk=; \
	echo "$(MAKE) vmtest-all"; $(MAKE) vmtest-all; \
	echo "make check: all passed in $$(($$(date +%s) - start)) s"

# The documents build with warnings as errors, and name everything the code
# offers.
docs: need-deps
	$(MAKE) -C tools/docs check

bench: need-deps
	$(MAKE) -C tools/bench run
	$(MAKE) -C tools/test efficiency-table

# Bits per roll and extractor rates against the entropy limit.
efficiency: need-deps
	$(MAKE) -C tools/test efficiency-table

# A full-size 'fairdie certify --quick --fault-demo' (CERTIFY_COUNT outcomes
# a die) on the device in the VM; the report comes out through the guest's
# output port into .build/vmcertify-KVER/ and is rendered and checked in
# headless Chromium on the host (tools/cli/vmcertify.sh).
CERTIFY_COUNT ?= 1000000
# make check's run: a smaller capture, the same report and checks.
CHECK_CERTIFY_COUNT = 200000
vmcertify: vm-module tools
	sh tools/cli/vmcertify.sh .build/vmcertify-$(KVER) $(CERTIFY_COUNT) \
		$(VM) --timeout $(VM_TIMEOUT) --module $(VM_MODDIR)/fairdie.ko \
		--bin tools/fairdie --bin /usr/bin/rngtest --bin /usr/bin/ent \
		--file $(VM_MODDIR)/fairdie.ko

# The p-values of 'fairdie certify' on a known-good stream, a table
# (Documentation/admin-guide/certification.rst); not part of check.
certify-calib: need-deps
	$(MAKE) -C tools/cli calib

# Benchmarks are never timed tests: this only checks the figures appear.
bench-smoke: need-deps
	$(MAKE) -C tools/bench smoke

# ---------------------------------------------------------------------
# Lint: zero findings from each tool.

lint: need-deps
	tools/scripts/lint.sh $(KDIR)

# ---------------------------------------------------------------------
# Install on a real host. The module goes where Debian's DKMS puts
# out-of-tree modules, so that there is one place to look and depmod ranks
# it before the kernel's own tree.

MODSUBDIR = updates/dkms
MODDEST = $(DESTDIR)/lib/modules/$(KRELEASE)/$(MODSUBDIR)
# Debian's headers carry no signing key: the module is then installed
# unsigned, said in one line, instead of sign-file failing with SSL errors.
# depmod runs after the whole install (kbuild's would look for a System.map
# that Debian's headers lack, and warn).
SIGN_ALL = $(shell grep -sqx CONFIG_MODULE_SIG_ALL=y $(KDIR)/.config && echo y)
SIGN_KEY = $(wildcard $(KDIR)/certs/signing_key.x509)

# make install and DKMS would write the same file: one owner at a time.
dkms-check:
	$(Q)if [ -z "$(DESTDIR)" ] && command -v dkms >/dev/null && \
		dkms status -m fairdie -k $(KRELEASE) 2>/dev/null | grep -q installed; then \
		echo "fairdie: DKMS manages fairdie for $(KRELEASE): remove it first (apt remove fairdie-dkms, or dkms remove fairdie/VERSION --all)" >&2; \
		exit 1; \
	fi

install: dkms-check all
	$(if $(SIGN_ALL),$(if $(SIGN_KEY),,@echo "fairdie: installing the module unsigned: $(KDIR) has no signing key (see Secure Boot in Documentation/admin-guide/fairdie.rst)"))
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install \
		INSTALL_MOD_DIR=$(MODSUBDIR) \
		$(if $(DESTDIR),INSTALL_MOD_PATH=$(DESTDIR)) \
		$(if $(SIGN_KEY),,CONFIG_MODULE_SIG_ALL=) cmd_depmod=:
	install -D -m 0755 tools/fairdie $(DESTDIR)$(PREFIX)/bin/fairdie
	install -D -m 0644 tools/cli/fairdie.1 \
		$(DESTDIR)$(PREFIX)/share/man/man1/fairdie.1
	install -d $(DESTDIR)$(PREFIX)/share/fairdie/schema
	install -m 0644 $(SCHEMAS) $(DESTDIR)$(PREFIX)/share/fairdie/schema/
	install -D -m 0644 tools/udev/60-fairdie.rules \
		$(DESTDIR)/etc/udev/rules.d/60-fairdie.rules
	install -D -m 0644 uapi/linux/fairdie.h \
		$(DESTDIR)$(PREFIX)/include/linux/fairdie.h
	$(if $(DESTDIR),,depmod -a $(KRELEASE))

uninstall: dkms-check
	rm -f $(DESTDIR)$(PREFIX)/bin/fairdie \
		$(DESTDIR)$(PREFIX)/share/man/man1/fairdie.1 \
		$(DESTDIR)/etc/udev/rules.d/60-fairdie.rules \
		$(DESTDIR)$(PREFIX)/include/linux/fairdie.h \
		$(addprefix $(DESTDIR)$(PREFIX)/share/fairdie/schema/,$(notdir $(SCHEMAS))) \
		$(MODDEST)/fairdie.ko*
	rmdir $(MODDEST) $(dir $(MODDEST)) $(DESTDIR)$(PREFIX)/include/linux \
		$(DESTDIR)$(PREFIX)/share/fairdie/schema \
		$(DESTDIR)$(PREFIX)/share/fairdie 2>/dev/null || true
	$(if $(DESTDIR),,depmod -a $(KRELEASE))

# Debian packages, built in .build/deb/ (tools/debian/ holds the packaging).
deb:
	tools/scripts/deb.sh

# The packages built, linted, installed (DKMS builds the module for 6.1 and
# 6.12, the VM loads it), then purged. Needs root.
pkgtest: need-deps
	tools/scripts/test_package.sh

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	-$(MAKE) -C tools/test clean
	-$(MAKE) -C tools/ctcheck clean
	-$(MAKE) -C tools/cli clean
	-$(MAKE) -C selftests clean
	-$(MAKE) -C tools/guest clean
	rm -rf .build/mod-*
