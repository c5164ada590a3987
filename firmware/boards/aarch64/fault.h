/*
 * Board support for bare-metal AArch64 (aarch64-virt): what fault.c and
 * fault_report.c share.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef AARCH64_FAULT_H
#define AARCH64_FAULT_H

#include "alt_types.h"

/* Who reports a data abort instead of fault.c (NULL: fault.c) */
extern void (*aarch64_data_abort_report)(alt_u32 address, alt_u32 pc);

#endif
