/*
 * ARM1176 performance monitor (CP15 c15, c12): see arm11-pmu.c
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef TARGET_ARM_ARM11_PMU_H
#define TARGET_ARM_ARM11_PMU_H

#ifndef CONFIG_USER_ONLY
void arm11_pmu_define_cp_regs(ARMCPU *cpu);
void arm11_pmu_finalize(ARMCPU *cpu);
extern const VMStateDescription vmstate_arm11_pmu;
#endif

#endif
