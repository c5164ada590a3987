/*
 * What perfctr-hook.c, which QEMU builds once for all targets, uses of
 * accel/tcg/tb-maint.c, whose header (tb-internal.h) is per target
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef ACCEL_TCG_PERFCTR_TB_MAINT_H
#define ACCEL_TCG_PERFCTR_TB_MAINT_H

#include "exec/cpu-common.h"

/*
 * The blocks holding the size bytes of code at ram_addr are translated
 * again (tb-internal.h's declaration).  Not tb_invalidate_phys_range(),
 * which in QEMU 10.0 drops every block from the start of the page up to
 * the address (24 times as many blocks, measured).
 */
void tb_invalidate_phys_range_fast(ram_addr_t ram_addr, unsigned size,
                                   uintptr_t retaddr);

#endif
