/*
 * Floating-point sequences of known cycle counts (the Cortex-M4 TRM's
 * table 7-1; tests/boot/test_cycles_fpu.py), in the frame of
 * cycles_frame.h, for the boards whose core has an FPU (cycles_fpu.c
 * enables it).  Single precision only, and doubles only in loads,
 * stores and moves: what the M4's FPv4-SP has.
 *
 * SPDX-License-Identifier: MIT
 */
#include "cycles_frame.h"

    .fpu fpv4-sp-d16

/* Loads and stores, as the core's of as many words */
    begin fp_vldr
    start fp_vldr
    vldr s0, [r4]
    vldr s1, [r4, #4]
    vldr s2, [r4, #8]
    vldr s3, [r4, #12]
    vldr s4, [r4, #16]
    vldr s5, [r4, #20]
    vldr s6, [r4, #24]
    vldr s7, [r4, #28]
    finish fp_vldr

    begin fp_vldr_double
    start fp_vldr_double
    vldr d0, [r4]
    vldr d1, [r4, #8]
    vldr d2, [r4, #16]
    vldr d3, [r4, #24]
    finish fp_vldr_double

    begin fp_vstr
    start fp_vstr
    vstr s0, [r4]
    vstr s1, [r4, #4]
    vstr s2, [r4, #8]
    vstr s3, [r4, #12]
    vstr s4, [r4, #16]
    vstr s5, [r4, #20]
    vstr s6, [r4, #24]
    vstr s7, [r4, #28]
    finish fp_vstr

    begin fp_vldm
    start fp_vldm
    .rept 4
    vldm r4, {s0-s7}
    .endr
    finish fp_vldm

    begin fp_vpush_vpop
    start fp_vpush_vpop
    vpush {d8-d11}
    vpop {d8-d11}
    finish fp_vpush_vpop

/* Moves between core and FPU registers */
    begin fp_vmov_to_core
    start fp_vmov_to_core
    vmov r0, s0
    vmov r1, s1
    vmov r2, s2
    vmov r3, s3
    vmov r6, s4
    vmov r7, s5
    vmov r8, s6
    vmov r9, s7
    finish fp_vmov_to_core

    begin fp_vmov_from_core
    start fp_vmov_from_core
    vmov s0, r0
    vmov s1, r1
    vmov s2, r2
    vmov s3, r3
    vmov s4, r6
    vmov s5, r7
    vmov s6, r8
    vmov s7, r9
    finish fp_vmov_from_core

    begin fp_vmov_pair
    start fp_vmov_pair
    .rept 4
    vmov r0, r1, s0, s1
    .endr
    finish fp_vmov_pair

/* Arithmetic: independent, dependent, multiply-accumulate */
    begin fp_add_independent
    vmov.f32 s0, #1.0
    vmov.f32 s1, #2.0
    start fp_add_independent
    vadd.f32 s8, s0, s1
    vadd.f32 s9, s0, s1
    vadd.f32 s10, s0, s1
    vadd.f32 s11, s0, s1
    vadd.f32 s12, s0, s1
    vadd.f32 s13, s0, s1
    vadd.f32 s14, s0, s1
    vadd.f32 s15, s0, s1
    finish fp_add_independent

    begin fp_add_dependent
    vmov.f32 s0, #1.0
    vmov.f32 s1, #2.0
    start fp_add_dependent
    .rept 8
    vadd.f32 s0, s0, s1
    .endr
    finish fp_add_dependent

    begin fp_mac_chain
    vmov.f32 s0, #1.0
    vmov.f32 s1, #2.0
    vmov.f32 s2, #0.5
    start fp_mac_chain
    .rept 4
    vmla.f32 s0, s1, s2
    .endr
    finish fp_mac_chain

    begin fp_mul_then_mac
    vmov.f32 s1, #2.0
    vmov.f32 s2, #0.5
    start fp_mul_then_mac
    .rept 2
    vmul.f32 s3, s1, s2
    vmla.f32 s0, s3, s2
    .endr
    finish fp_mul_then_mac

    begin fp_mul_to_addend
    vmov.f32 s1, #2.0
    vmov.f32 s2, #0.5
    start fp_mul_to_addend
    .rept 2
    vmul.f32 s3, s1, s2
    vmla.f32 s3, s1, s2
    .endr
    finish fp_mul_to_addend

/* Division and square root: the FPU stays busy, the core goes on */
    begin fp_div_use
    vmov.f32 s1, #2.0
    vmov.f32 s2, #0.5
    start fp_div_use
    vdiv.f32 s0, s1, s2
    vadd.f32 s3, s0, s1
    finish fp_div_use

    begin fp_div_overlap
    vmov.f32 s1, #2.0
    vmov.f32 s2, #0.5
    start fp_div_overlap
    vdiv.f32 s0, s1, s2
    .rept 8
    adds r0, r0, #1
    .endr
    vadd.f32 s3, s0, s1
    finish fp_div_overlap

    begin fp_sqrt_use
    vmov.f32 s1, #2.0
    start fp_sqrt_use
    vsqrt.f32 s0, s1
    vmov r0, s0
    finish fp_sqrt_use

    begin fp_compare
    vmov.f32 s0, #1.0
    vmov.f32 s1, #2.0
    start fp_compare
    vcmp.f32 s0, s1
    vmrs APSR_nzcv, fpscr
    finish fp_compare

    .global cycles_fpu_run
    .type cycles_fpu_run, %function
    .thumb_func
cycles_fpu_run:
    push {r4, lr}
    .irp name, fp_vldr, fp_vldr_double, fp_vstr, fp_vldm, fp_vpush_vpop, \
        fp_vmov_to_core, fp_vmov_from_core, fp_vmov_pair, \
        fp_add_independent, fp_add_dependent, fp_mac_chain, \
        fp_mul_then_mac, fp_mul_to_addend, fp_div_use, fp_div_overlap, \
        fp_sqrt_use, fp_compare
    bl cyc_\name
    .endr
    pop {r4, pc}
    .size cycles_fpu_run, . - cycles_fpu_run
