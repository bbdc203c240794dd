# SPDX-License-Identifier: GPL-2.0
#
# fairdie - exactly fair dice from the CPU's hardware random number generator
#
#   make              the module (fairdie.ko, against KDIR) and the tools
#   make deps         install every Debian package the project needs
#   make check        every test: userspace proofs, tools, lint, docs,
#                     the VM selftests on Debian's 6.1 and 6.12 kernels
#                     and on the debug kernel
#   make vmtest       the VM selftests on one kernel (KVER=6.1 by default;
#                     KVER=debug: a KASAN/lockdep/kmemleak kernel, built once)
#   make vmrun CMD='...' [VMFILES='a b'] [MODPARAMS='k=v ...'] [KVER=...]
#   make demo         boot the VM and show real use
#   make bench        the benchmarks
#   make lint         checkpatch --strict, sparse, W=1, kernel-doc
#   make install      module, udev rule, tool and man page (DESTDIR, PREFIX)
#
# The kernel build proper is driven by Kbuild (Documentation/kbuild/modules.rst).

KRELEASE ?= $(shell tools/scripts/kernel.sh 2>/dev/null)
KDIR ?= /lib/modules/$(KRELEASE)/build
PREFIX ?= /usr/local
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

Q = @

.PHONY: all modules tools selftests deps need-deps check test vm-module \
	debug-kernel debugk-canary vmtest vmtest-all vmrun demo bench bench-smoke efficiency lint docs install \
	uninstall clean

all: modules tools

modules: need-deps
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

tools: need-deps
	$(MAKE) -C tools/cli
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

print-krelease:
	@echo $(KRELEASE)

# The module built for the VM's kernel, in a directory of its own so that
# builds for several kernels do not clobber each other.
vm-module: need-deps $(VM_KERNEL_DEP)
	$(Q)mkdir -p $(VM_MODDIR)
	$(Q)cp -r Kbuild driver uapi $(VM_MODDIR)/
	$(MAKE) -C $(VM_KDIR) M=$(VM_MODDIR) modules

# Every kselftest program, 64-bit and 32-bit (selftests/Makefile).
SELFTEST_PROGS = $(patsubst %.c,%,$(wildcard selftests/fairdie_*_test.c))
VM_TOOLS = --bin tools/fairdie \
	$(foreach p,$(SELFTEST_PROGS),--bin $(p) --bin $(p)_32) \
	--bin tools/guest/stress --bin tools/guest/fuzz --bin tools/guest/fdread

VM_TEST = --timeout $(VM_TIMEOUT) --module $(VM_MODDIR)/fairdie.ko \
	$(VM_TOOLS) --bin /usr/bin/rngtest --bin /usr/bin/ent \
	--file $(VM_MODDIR)/fairdie.ko --file tools/cli/test_vm.sh \
	--file tools/guest/vmtest.sh

# The guest's CPU has RDSEED and RDRAND; a second, short run takes RDSEED
# away (tools/guest/vmtest.sh says what each run tests).
vmtest: vm-module tools
	$(VM) $(VM_TEST) $(DEBUGK_TEST_ARGS) --modparams "hwrng=rdseed" \
		-- $(DEBUGK_WRAP) sh /root/vmtest.sh
	$(VM) $(VM_TEST) --qemu "-cpu max,-rdseed" -- sh /root/vmtest.sh no-rdseed

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
# Its PVH entry does not boot (KASAN): the VM boots the bzImage.
export VM_BZIMAGE = 1
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
	$(MAKE) vmtest KVER=6.12
	$(MAKE) vmtest KVER=debug
	$(MAKE) debugk-canary

vmrun: vm-module tools
	$(VM) --timeout $(VM_TIMEOUT) --module $(VM_MODDIR)/fairdie.ko \
		--modparams "$(MODPARAMS)" $(VM_TOOLS) \
		$(foreach f,$(VMFILES),--file $(f)) -- '$(CMD)'

demo: vm-module tools
	$(VM) --timeout $(VM_TIMEOUT) --module $(VM_MODDIR)/fairdie.ko \
		--modparams "$(MODPARAMS)" --bin tools/fairdie \
		--file tools/guest/demo.sh -- sh /root/demo.sh

check: need-deps
	$(MAKE) test
	$(MAKE) lint
	$(MAKE) docs
	$(MAKE) bench-smoke
	$(MAKE) vmtest-all
	@echo "make check: all passed"

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

# Benchmarks are never timed tests: this only checks the figures appear.
bench-smoke: need-deps
	$(MAKE) -C tools/bench smoke

# ---------------------------------------------------------------------
# Lint: zero findings from each tool.

lint: need-deps
	tools/scripts/lint.sh $(KDIR)

# ---------------------------------------------------------------------
# Install on a real host.

install: all
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install INSTALL_MOD_DIR=extra \
		$(if $(DESTDIR),INSTALL_MOD_PATH=$(DESTDIR))
	install -D -m 0755 tools/fairdie $(DESTDIR)$(PREFIX)/bin/fairdie
	install -D -m 0644 tools/cli/fairdie.1 \
		$(DESTDIR)$(PREFIX)/share/man/man1/fairdie.1
	install -D -m 0644 tools/udev/60-fairdie.rules \
		$(DESTDIR)/etc/udev/rules.d/60-fairdie.rules
	install -D -m 0644 uapi/linux/fairdie.h \
		$(DESTDIR)$(PREFIX)/include/linux/fairdie.h
	$(if $(DESTDIR),,depmod -a $(KRELEASE))

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/fairdie \
		$(DESTDIR)$(PREFIX)/share/man/man1/fairdie.1 \
		$(DESTDIR)/etc/udev/rules.d/60-fairdie.rules \
		$(DESTDIR)$(PREFIX)/include/linux/fairdie.h \
		$(DESTDIR)/lib/modules/$(KRELEASE)/extra/fairdie.ko*
	$(if $(DESTDIR),,depmod -a $(KRELEASE))

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	-$(MAKE) -C tools/test clean
	-$(MAKE) -C tools/cli clean
	-$(MAKE) -C selftests clean
	-$(MAKE) -C tools/guest clean
	rm -rf .build/mod-*
