/*
 * Nios II HAL register access macros, for source compatibility.
 * REGNUM counts 32-bit words from BASE; each macro is one load or store.
 * BASE is an address, as an integer or a pointer.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef IO_H
#define IO_H

#include "alt_types.h"

#define __IO_CALC_ADDRESS_NATIVE(BASE, REGNUM) \
    ((volatile alt_u32 *)((volatile alt_u8 *)(uintptr_t)(BASE) + 4 * (REGNUM)))

#define IORD(BASE, REGNUM) (*__IO_CALC_ADDRESS_NATIVE((BASE), (REGNUM)))
#define IOWR(BASE, REGNUM, DATA) \
    (*__IO_CALC_ADDRESS_NATIVE((BASE), (REGNUM)) = (DATA))

#define IORD_32DIRECT(BASE, OFFSET) \
    (*(volatile alt_u32 *)((volatile alt_u8 *)(uintptr_t)(BASE) + (OFFSET)))
#define IOWR_32DIRECT(BASE, OFFSET, DATA) \
    (*(volatile alt_u32 *)((volatile alt_u8 *)(uintptr_t)(BASE) + (OFFSET)) = (DATA))

#endif
