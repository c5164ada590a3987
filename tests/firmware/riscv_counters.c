/*
 * RISC-V's cycle counters as firmware reads them (tests/boot/
 * test_riscv_counters.py), on riscv32-virt.  Prints:
 *   "cycle N": mcycle over cycle_loop()
 *   "instret N": minstret over instret_loop()
 *   "inhibited N": mcycle over cycle_loop() with mcountinhibit.CY set
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdio.h>

#define MCOUNTINHIBIT_CY 1u

uint32_t cycle_loop(void);
uint32_t instret_loop(void);

int main(void)
{
    printf("cycle %lu\n", (unsigned long)cycle_loop());
    printf("instret %lu\n", (unsigned long)instret_loop());
    __asm__ volatile("csrs mcountinhibit, %0" : : "r"(MCOUNTINHIBIT_CY));
    printf("inhibited %lu\n", (unsigned long)cycle_loop());
    __asm__ volatile("csrc mcountinhibit, %0" : : "r"(MCOUNTINHIBIT_CY));
    return 0;
}
