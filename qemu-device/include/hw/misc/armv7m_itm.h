/*
 * The Cortex-M Instrumentation Trace Macrocell's stimulus ports
 * (hw/misc/armv7m_itm.c)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_MISC_ARMV7M_ITM_H
#define HW_MISC_ARMV7M_ITM_H

#include "chardev/char-fe.h"
#include "hw/misc/armv7m_dwt.h"
#include "hw/sysbus.h"
#include "qom/object.h"

#define TYPE_ARMV7M_ITM "armv7m-itm"
OBJECT_DECLARE_SIMPLE_TYPE(ARMv7MITMState, ARMV7M_ITM)

struct ARMv7MITMState {
    SysBusDevice parent_obj;

    MemoryRegion iomem;         /* 0xe0000000 */
    CharBackend chr;            /* where stimulus port writes go */
    ARMv7MDWTState *dwt;        /* its DEMCR.TRCENA enables the ITM */
    bool has_lock;              /* Cortex-M7: LAR and LSR */

    uint32_t ter;
    uint32_t tpr;
    uint32_t tcr;
    bool locked;
};

#endif
