/*
 * RISC-V mhpmcounter3..31 counting the perfctr hook's events, selected
 * with the SiFive E31's mhpmevent encoding (perfctr-hpm.c)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef RISCV_PERFCTR_HPM_H
#define RISCV_PERFCTR_HPM_H

/*
 * csr.c calls each before QEMU's own handling; those returning true
 * have done the job (the counter counts hook events).
 */
void riscv_perfctr_hpm_select(CPURISCVState *env, uint32_t ctr_idx,
                              uint64_t mhpmevent);
bool riscv_perfctr_hpm_read(CPURISCVState *env, uint32_t ctr_idx,
                            bool upper_half, target_ulong *val);
bool riscv_perfctr_hpm_write(CPURISCVState *env, uint32_t ctr_idx,
                             bool upper_half, target_ulong val);
/* Before mcountinhibit changes to inhibit */
void riscv_perfctr_hpm_inhibit(CPURISCVState *env, target_ulong inhibit);

#endif
