/*
 * What the targets' translators generate for the perfctr hook: the
 * stack pointer at each call, stored in the vCPU's slot of
 * perfctr_hook_call_sp, and the extremes of the stack pointer's writes
 * (perfctr-hook.h).  Included by a translator, after the TCG headers,
 * where ArchCPU is known.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef ACCEL_TCG_PERFCTR_HOOK_GEN_H
#define ACCEL_TCG_PERFCTR_HOOK_GEN_H

#include "accel/tcg/perfctr-hook.h"

/* The vCPU's slot of one of the hook's arrays of PERFCTR_HOOK_CALL_SLOTS */
static inline TCGv_ptr perfctr_gen_slot(uint32_t *array)
{
    TCGv_i32 index;
    TCGv_ptr slot;

    if (first_cpu && !CPU_NEXT(first_cpu)) {
        /*
         * One vCPU (all are made before any code is): its slot is
         * known as the code is made, as QEMU's plugin ops know theirs
         */
        return tcg_constant_ptr(array + (first_cpu->cpu_index &
                                         (PERFCTR_HOOK_CALL_SLOTS - 1)));
    }
    index = tcg_temp_new_i32();
    slot = tcg_temp_new_ptr();
    tcg_gen_ld_i32(index, tcg_env, offsetof(ArchCPU, parent_obj.cpu_index) -
                   offsetof(ArchCPU, env));
    tcg_gen_andi_i32(index, index, PERFCTR_HOOK_CALL_SLOTS - 1);
    tcg_gen_shli_i32(index, index, 2);
    tcg_gen_ext_i32_ptr(slot, index);
    tcg_gen_add_ptr(slot, slot, tcg_constant_ptr(array));
    return slot;
}

/* A call is made with the stack pointer sp (a few TCG ops, no helper) */
static inline void perfctr_gen_call(TCGv_i32 sp)
{
    tcg_gen_st_i32(sp, perfctr_gen_slot(perfctr_hook_call_sp), 0);
}

/* The stack pointer is written: sp, its new value, into its extremes */
static inline void perfctr_gen_sp_written(TCGv_i32 sp)
{
    TCGv_i32 value = tcg_temp_new_i32();
    TCGv_ptr slot;

    if (!perfctr_hook_sp_extremes_kept) {
        return;
    }
    slot = perfctr_gen_slot(perfctr_hook_sp_low);
    tcg_gen_ld_i32(value, slot, 0);
    tcg_gen_umin_i32(value, value, sp);
    tcg_gen_st_i32(value, slot, 0);
    slot = perfctr_gen_slot(perfctr_hook_sp_high);
    tcg_gen_ld_i32(value, slot, 0);
    tcg_gen_umax_i32(value, value, sp);
    tcg_gen_st_i32(value, slot, 0);
}

#endif
