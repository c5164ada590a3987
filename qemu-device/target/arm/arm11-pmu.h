/*
 * ARM1176 performance monitor (CP15 c15, c12): see arm11-pmu.c
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef TARGET_ARM_ARM11_PMU_H
#define TARGET_ARM_ARM11_PMU_H

/*
 * What a branch instruction counts for, as the translator sees it:
 * event 0x05 (branch instruction executed) and event 0x23 (procedure
 * call executed).
 */
#define ARM11_PMU_BRANCH 1
#define ARM11_PMU_CALL 2

/* A32: B, BL, BLX (immediate and register), BX, BXJ */
static inline unsigned arm11_pmu_a32_branch(uint32_t insn)
{
    if ((insn & 0x0e000000) == 0x0a000000) {
        /* B, BL; BLX (immediate) has cond 0xf and always links */
        if ((insn & 0x01000000) || (insn >> 28) == 0xf) {
            return ARM11_PMU_BRANCH | ARM11_PMU_CALL;
        }
        return ARM11_PMU_BRANCH;
    }
    if ((insn >> 28) != 0xf && (insn & 0x0fffffc0) == 0x012fff00) {
        switch (insn & 0x30) {
        case 0x10: /* BX */
        case 0x20: /* BXJ */
            return ARM11_PMU_BRANCH;
        case 0x30: /* BLX (register) */
            return ARM11_PMU_BRANCH | ARM11_PMU_CALL;
        }
    }
    return 0;
}

/* T16 (ARMv6 Thumb): B<cond>, B, BX, BLX (register), BL/BLX suffixes */
static inline unsigned arm11_pmu_t16_branch(uint32_t insn)
{
    if ((insn & 0xf000) == 0xd000 && (insn & 0x0e00) != 0x0e00) {
        return ARM11_PMU_BRANCH;               /* B<cond>, not UDF/SVC */
    }
    if ((insn & 0xf800) == 0xe000) {
        return ARM11_PMU_BRANCH;               /* B */
    }
    if ((insn & 0xff80) == 0x4700) {
        return ARM11_PMU_BRANCH;               /* BX */
    }
    if ((insn & 0xff80) == 0x4780) {
        return ARM11_PMU_BRANCH | ARM11_PMU_CALL;  /* BLX (register) */
    }
    if ((insn & 0xf800) == 0xf800 || (insn & 0xf800) == 0xe800) {
        return ARM11_PMU_BRANCH | ARM11_PMU_CALL;  /* BL, BLX suffix */
    }
    return 0;
}

/* A BL/BLX prefix and suffix pair that QEMU translates as one insn */
static inline unsigned arm11_pmu_t32_branch(uint32_t insn)
{
    if ((insn & 0xf800f800) == 0xf000f800 ||
        (insn & 0xf800f800) == 0xf000e800) {
        return ARM11_PMU_BRANCH | ARM11_PMU_CALL;
    }
    return 0;
}

#ifndef CONFIG_USER_ONLY
void arm11_pmu_define_cp_regs(ARMCPU *cpu);
void arm11_pmu_update(ARMCPU *cpu);
#endif

#endif
