/*
 * The Cortex-M Data Watchpoint and Trace unit's counters
 * (hw/misc/armv7m_dwt.c)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_MISC_ARMV7M_DWT_H
#define HW_MISC_ARMV7M_DWT_H

#include "hw/sysbus.h"
#include "qom/object.h"
#include "target/arm/cpu-qom.h"

#define TYPE_ARMV7M_DWT "armv7m-dwt"
OBJECT_DECLARE_SIMPLE_TYPE(ARMv7MDWTState, ARMV7M_DWT)

struct ARMv7MDWTState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;         /* the DWT: 0xe0001000 */
    MemoryRegion demcr_iomem;   /* DEMCR, in the SCS: 0xe000edfc */
    ARMCPU *cpu;
    Clock *cpuclk;
    bool has_lock;              /* Cortex-M7: LAR and LSR */

    uint32_t demcr;
    uint32_t ctrl;
    uint32_t cyccnt;
    uint8_t cpicnt;
    uint8_t exccnt;
    uint8_t sleepcnt;
    uint8_t lsucnt;
    uint8_t foldcnt;
    bool locked;
    /* The clock, the instructions and the memory stalls at the last sync */
    uint64_t clock_at_sync;
    uint64_t insns_at_sync;
    uint64_t lsu_at_sync;
};

#endif
