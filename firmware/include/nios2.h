/*
 * Nios II CPU macros (nios2.h), for source compatibility: what can be
 * offered meaningfully on these CPUs.
 *
 * - NIOS2_READ_STATUS / NIOS2_WRITE_STATUS: the status register's PIE
 *   bit (interrupts enabled) is the CPU's interrupt mask (PRIMASK,
 *   CPSR.I, mstatus.MIE; see sys/alt_irq.h).  The other status bits
 *   read 0 and writing them does nothing: user mode, shadow register
 *   sets and the EIC interface do not exist here.
 * - NIOS2_READ_CPUID: 0, as on a single-CPU Nios II system.
 * Every other control register (estatus, bstatus, ienable, ipending,
 * exception, pteaddr, tlbacc, badaddr, config, mpubase, mpuacc) has no
 * counterpart: using its macro is a compile-time error that names it.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef __NIOS2_H__
#define __NIOS2_H__

#include "alt_types.h"
#include "sys/alt_irq.h"

#define NIOS2_STATUS_PIE_MSK 0x00000001
#define NIOS2_STATUS_PIE_OFST 0
#define NIOS2_STATUS_U_MSK 0x00000002
#define NIOS2_STATUS_U_OFST 1
#define NIOS2_STATUS_EH_MSK 0x00000004
#define NIOS2_STATUS_EH_OFST 2
#define NIOS2_STATUS_IH_MSK 0x00000008
#define NIOS2_STATUS_IH_OFST 3
#define NIOS2_STATUS_IL_MSK 0x000003f0
#define NIOS2_STATUS_IL_OFST 4
#define NIOS2_STATUS_CRS_MSK 0x0000fc00
#define NIOS2_STATUS_CRS_OFST 10
#define NIOS2_STATUS_PRS_MSK 0x003f0000
#define NIOS2_STATUS_PRS_OFST 16
#define NIOS2_STATUS_NMI_MSK 0x00400000
#define NIOS2_STATUS_NMI_OFST 22
#define NIOS2_STATUS_RSIE_MSK 0x00800000
#define NIOS2_STATUS_RSIE_OFST 23

#define NIOS2_READ_STATUS(dest) \
    do { (dest) = (alt_u32)alt_irq_enabled(); } while (0)
#define NIOS2_WRITE_STATUS(src) alt_irq_enable_all(src)

#define NIOS2_READ_CPUID(dest) do { (dest) = 0; } while (0)

/* Control registers with no counterpart here */
#define NIOS2_NOT_OFFERED_(name) \
    do { \
        _Static_assert(0, name " is not offered: this Nios II control " \
                       "register has no counterpart on this board " \
                       "(see docs/porting-from-nios2.md)"); \
    } while (0)
#define NIOS2_READ_ESTATUS(dest) NIOS2_NOT_OFFERED_("NIOS2_READ_ESTATUS")
#define NIOS2_READ_BSTATUS(dest) NIOS2_NOT_OFFERED_("NIOS2_READ_BSTATUS")
#define NIOS2_READ_IENABLE(dest) NIOS2_NOT_OFFERED_("NIOS2_READ_IENABLE")
#define NIOS2_WRITE_IENABLE(src) NIOS2_NOT_OFFERED_("NIOS2_WRITE_IENABLE")
#define NIOS2_READ_IPENDING(dest) NIOS2_NOT_OFFERED_("NIOS2_READ_IPENDING")
#define NIOS2_READ_EXCEPTION(dest) \
    NIOS2_NOT_OFFERED_("NIOS2_READ_EXCEPTION")
#define NIOS2_READ_PTEADDR(dest) NIOS2_NOT_OFFERED_("NIOS2_READ_PTEADDR")
#define NIOS2_WRITE_PTEADDR(src) NIOS2_NOT_OFFERED_("NIOS2_WRITE_PTEADDR")
#define NIOS2_READ_TLBACC(dest) NIOS2_NOT_OFFERED_("NIOS2_READ_TLBACC")
#define NIOS2_WRITE_TLBACC(src) NIOS2_NOT_OFFERED_("NIOS2_WRITE_TLBACC")
#define NIOS2_READ_TLBMISC(dest) NIOS2_NOT_OFFERED_("NIOS2_READ_TLBMISC")
#define NIOS2_WRITE_TLBMISC(src) NIOS2_NOT_OFFERED_("NIOS2_WRITE_TLBMISC")
#define NIOS2_READ_BADADDR(dest) NIOS2_NOT_OFFERED_("NIOS2_READ_BADADDR")
#define NIOS2_READ_CONFIG(dest) NIOS2_NOT_OFFERED_("NIOS2_READ_CONFIG")
#define NIOS2_WRITE_CONFIG(src) NIOS2_NOT_OFFERED_("NIOS2_WRITE_CONFIG")
#define NIOS2_READ_MPUBASE(dest) NIOS2_NOT_OFFERED_("NIOS2_READ_MPUBASE")
#define NIOS2_WRITE_MPUBASE(src) NIOS2_NOT_OFFERED_("NIOS2_WRITE_MPUBASE")
#define NIOS2_READ_MPUACC(dest) NIOS2_NOT_OFFERED_("NIOS2_READ_MPUACC")
#define NIOS2_WRITE_MPUACC(src) NIOS2_NOT_OFFERED_("NIOS2_WRITE_MPUACC")

#endif
