/*
 * What the Armv7-M debug units (armv7m_dwt.c, armv7m_itm.c) share: the
 * enable in DEMCR, and the CoreSight lock and identification registers
 * at the top of each unit's 4 KiB.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_MISC_ARMV7M_DEBUG_H
#define HW_MISC_ARMV7M_DEBUG_H

#include "hw/registerfields.h"
#include "target/arm/cpu.h"

/* Each unit's MMIO region */
#define ARMV7M_DEBUG_UNIT_SIZE 0x1000

FIELD(DEMCR, TRCENA, 24, 1)

REG32(ARMV7M_DEBUG_LAR, 0xfb0)
REG32(ARMV7M_DEBUG_LSR, 0xfb4)
    FIELD(ARMV7M_DEBUG_LSR, SLI, 0, 1)
    FIELD(ARMV7M_DEBUG_LSR, SLK, 1, 1)

#define ARMV7M_DEBUG_LAR_KEY 0xc5acce55u
#define ARMV7M_DEBUG_ID_BASE 0xfd0
/* PID4-7, PID0-3, CID0-3 */
#define ARMV7M_DEBUG_ID_COUNT 12

/* Of the cores we emulate, the Cortex-M7 alone has the lock */
static inline bool armv7m_debug_has_lock(ARMCPU *cpu)
{
    return FIELD_EX32(cpu->midr, MIDR_EL1, PARTNUM) == 0xc27;
}

/* The value written to LAR: whether the unit is locked now */
static inline bool armv7m_debug_lar_write(bool has_lock, uint64_t value)
{
    return has_lock && value != ARMV7M_DEBUG_LAR_KEY;
}

/*
 * Read the lock status or an identification register (ids[]) at
 * offset into *data; false if offset is neither
 */
static inline bool armv7m_debug_read(const uint8_t *ids, bool has_lock,
                                     bool locked, hwaddr offset,
                                     uint64_t *data)
{
    if (offset >= ARMV7M_DEBUG_ID_BASE &&
        offset < ARMV7M_DEBUG_ID_BASE + 4 * ARMV7M_DEBUG_ID_COUNT) {
        *data = ids[(offset - ARMV7M_DEBUG_ID_BASE) / 4];
        return true;
    }
    if (offset == A_ARMV7M_DEBUG_LSR) {
        *data = has_lock ? R_ARMV7M_DEBUG_LSR_SLI_MASK |
                (locked ? R_ARMV7M_DEBUG_LSR_SLK_MASK : 0) : 0;
        return true;
    }
    return false;
}

#endif
