/*
 * _mcount, the hook GCC calls at the entry of every function built with
 * -pg on RISC-V and AArch64: an ordinary call whose argument is the
 * callee's return address (the call site, in its caller) and whose own
 * return address is in the callee.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>

#include "perfctr_gprof.h"

void _mcount(void *from_pc);

void _mcount(void *from_pc)
{
    perfctr_gprof_arc((uintptr_t)from_pc,
                      (uintptr_t)__builtin_return_address(0));
}
