/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fairdie - von Neumann's extractor.
 *
 * Raw bits are taken in pairs: 01 and 10 give one fair bit (the first bit of
 * the pair), 00 and 11 give nothing. For independent bits with any fixed
 * bias p both kept pairs have probability p(1 - p), so every output bit is
 * fair and the rate is p(1 - p) output bits per input bit.
 */
#ifndef _FAIRDIE_VN_H
#define _FAIRDIE_VN_H

#include "fd_shim.h"

unsigned int fd_vn_word(u64 raw, u64 *out);

#endif /* _FAIRDIE_VN_H */
