// SPDX-License-Identifier: GPL-2.0
/*
 * fairdie - random.c's trust in the CPU's generator, as a module can learn it.
 *
 * random.c counts RDSEED and RDRAND as entropy when it seeds the CRNG only
 * if its trust_cpu setting is on. On 6.1 the setting starts from
 * CONFIG_RANDOM_TRUST_CPU (Debian: y); since 6.2 it starts on. Either way
 * random.trust_cpu= on the command line overrides it: random.c parses it
 * with kstrtobool(), so the last occurrence with a value kstrtobool()
 * accepts wins, and an occurrence it rejects changes nothing. The setting
 * itself is __initdata and nothing exports it, so the module applies the
 * same rule to the command line the kernel booted with, /proc/cmdline,
 * with the kernel's own next_arg() and kstrtobool(), matching '-' and '_'
 * alike in the name and stopping at "--" as the kernel's parser does.
 * A command line the module cannot read means "not trusted": fairdie then
 * credits nothing rather than more than random.c grants.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/version.h>

#include "fairdie.h"

/* Longer than any command line a kernel keeps (bootconfig included). */
#define FAIRDIE_CMDLINE_MAX	(64 * 1024)

#if KERNEL_VERSION(6, 2, 0) <= LINUX_VERSION_CODE
#define FAIRDIE_TRUST_CPU_DEFAULT	true
#else
#define FAIRDIE_TRUST_CPU_DEFAULT	IS_ENABLED(CONFIG_RANDOM_TRUST_CPU)
#endif

/* A parameter's name as the kernel compares them: '-' and '_' alike. */
static bool __init fairdie_param_is(const char *param, const char *name)
{
	for (; *param && *name; param++, name++) {
		char a = *param == '-' ? '_' : *param;
		char b = *name == '-' ? '_' : *name;

		if (a != b)
			return false;
	}
	return !*param && !*name;
}

/* The command line the kernel booted with, NUL-terminated, or an ERR_PTR. */
static char *__init fairdie_read_cmdline(void)
{
	size_t len = 0, size = PAGE_SIZE;
	struct file *file;
	char *buf, *more;
	loff_t pos = 0;
	ssize_t n;

	file = filp_open("/proc/cmdline", O_RDONLY, 0);
	if (IS_ERR(file))
		return ERR_CAST(file);
	buf = kmalloc(size, GFP_KERNEL);
	while (buf) {
		n = kernel_read(file, buf + len, size - 1 - len, &pos);
		if (n <= 0) {
			if (n < 0) {
				kfree(buf);
				buf = ERR_PTR(n);
			}
			break;
		}
		len += n;
		if (len < size - 1)
			continue;
		if (size >= FAIRDIE_CMDLINE_MAX) {
			kfree(buf);
			buf = ERR_PTR(-E2BIG);
			break;
		}
		size *= 2;
		more = krealloc(buf, size, GFP_KERNEL);
		if (!more)
			kfree(buf);
		buf = more;
	}
	filp_close(file, NULL);
	if (!buf)
		return ERR_PTR(-ENOMEM);
	if (!IS_ERR(buf))
		buf[len] = '\0';
	return buf;
}

/**
 * fairdie_trust_cpu() - whether random.c trusts the CPU's generator
 *
 * Applies random.c's rule (CONFIG_RANDOM_TRUST_CPU on 6.1, on since 6.2,
 * then every random.trust_cpu= of the command line in order) to the
 * command line in /proc/cmdline. Says why in the kernel log when the
 * answer is no.
 *
 * Return: true when random.c credits the CPU's RDSEED and RDRAND.
 */
bool __init fairdie_trust_cpu(void)
{
	bool trust = FAIRDIE_TRUST_CPU_DEFAULT, value;
	char *cmdline, *args, *param, *val;
	const char *why = "the kernel's default";

	cmdline = fairdie_read_cmdline();
	if (IS_ERR(cmdline)) {
		pr_notice("cannot read /proc/cmdline (%ld): random.trust_cpu unknown, the CPU's generator is not credited\n",
			  PTR_ERR(cmdline));
		return false;
	}
	args = skip_spaces(cmdline);
	while (*args) {
		args = next_arg(args, &param, &val);
		if (!val && !strcmp(param, "--"))
			break;
		if (val && fairdie_param_is(param, "random.trust_cpu") &&
		    !kstrtobool(val, &value)) {
			trust = value;
			why = "random.trust_cpu= on the command line";
		}
	}
	kfree(cmdline);
	if (!trust)
		pr_info("random.c does not trust the CPU's generator (%s): fairdie credits it nothing\n",
			why);
	return trust;
}
