/*
 * RISC-V's cycle counters as firmware reads them (tests/boot/
 * test_riscv_counters.py), on the RISC-V boards.  Prints:
 *   "cycle N": mcycle over cycle_loop()
 *   "instret N": minstret over instret_loop()
 *   "inhibited N": mcycle over cycle_loop() with mcountinhibit.CY set
 *   (where the core has mcountinhibit: system.h says)
 *   "hpm-NAME N": mhpmcounter3 over hpm_loop() with mhpmevent3 selecting
 *   NAME in the SiFive E31's encoding (class 0, a mask of events)
 *   "hpm-inhibited N": the same for loads, with mcountinhibit.HPM3 set
 *   "hpm-written N": mhpmcounter3 read right after writing 1000 to it
 *   "wfi N": minstret over a WFI that returns at once and 8 more
 *   instructions (wfi_instret())
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdio.h>

#include "system.h"

#define MCOUNTINHIBIT_CY 1u
#define MCOUNTINHIBIT_HPM3 (1u << 3)
/* mhpmevent: class 0 (instruction commit), events from bit 8 */
#define E31_COMMIT(bit) (1u << (bit))

static const struct {
    const char *name;
    uint32_t selector;
} selectors[] = {
    { "exceptions", E31_COMMIT(8) },
    { "loads", E31_COMMIT(9) },
    { "stores", E31_COMMIT(10) },
    { "conditional", E31_COMMIT(14) },
    { "jal", E31_COMMIT(15) },
    { "jalr", E31_COMMIT(16) },
    { "mul", E31_COMMIT(17) },
    { "div", E31_COMMIT(18) },
    { "memory", E31_COMMIT(9) | E31_COMMIT(10) },
    { "jumps", E31_COMMIT(15) | E31_COMMIT(16) },
    { "arithmetic", E31_COMMIT(13) },      /* not counted: holds */
    { "loads-and-atomics", E31_COMMIT(9) | E31_COMMIT(11) },
    { "icache-miss", E31_COMMIT(8) | 2 },  /* class 2: not counted */
};
static uint32_t buffer[2];

uint32_t cycle_loop(void);
uint32_t instret_loop(void);
uint32_t hpm_loop(uint32_t *buffer);
uint32_t wfi_instret(void);

/* The CLINT's machine timer compare (riscv32-virt and sifive_e) */
#define MTIMECMP_LO ((volatile uint32_t *)0x02004000)
#define MTIMECMP_HI ((volatile uint32_t *)0x02004004)
#define MSTATUS_MIE 0x8
#define MIE_MTIE (1u << 7)

/* minstret over a WFI woken at once by a pending timer, not taken */
static uint32_t wfi_woken_at_once(void)
{
    uint32_t instret;

    __asm__ volatile("csrc mstatus, %0" : : "r"(MSTATUS_MIE) : "memory");
    *MTIMECMP_HI = 0;
    *MTIMECMP_LO = 0;
    __asm__ volatile("csrs mie, %0" : : "r"(MIE_MTIE));
    instret = wfi_instret();
    __asm__ volatile("csrc mie, %0" : : "r"(MIE_MTIE));
    *MTIMECMP_HI = 0xffffffff;
    return instret;
}

static void hpm_select(uint32_t selector)
{
    __asm__ volatile("csrw mhpmevent3, %0" : : "r"(selector));
}

int main(void)
{
    printf("cycle %lu\n", (unsigned long)cycle_loop());
    printf("instret %lu\n", (unsigned long)instret_loop());
#if BOARD_RISCV_HAS_MCOUNTINHIBIT
    __asm__ volatile("csrs mcountinhibit, %0" : : "r"(MCOUNTINHIBIT_CY));
    printf("inhibited %lu\n", (unsigned long)cycle_loop());
    __asm__ volatile("csrc mcountinhibit, %0" : : "r"(MCOUNTINHIBIT_CY));
#endif

    for (unsigned i = 0; i < sizeof(selectors) / sizeof(selectors[0]); i++) {
        hpm_select(selectors[i].selector);
        printf("hpm-%s %lu\n", selectors[i].name,
               (unsigned long)hpm_loop(buffer));
    }
    hpm_select(E31_COMMIT(9));
#if BOARD_RISCV_HAS_MCOUNTINHIBIT
    __asm__ volatile("csrs mcountinhibit, %0" : : "r"(MCOUNTINHIBIT_HPM3));
    printf("hpm-inhibited %lu\n", (unsigned long)hpm_loop(buffer));
    __asm__ volatile("csrc mcountinhibit, %0" : : "r"(MCOUNTINHIBIT_HPM3));
#endif
    {
        uint32_t written;

        __asm__ volatile("csrw mhpmcounter3, %1\n\tcsrr %0, mhpmcounter3"
                         : "=r"(written) : "r"(1000));
        printf("hpm-written %lu\n", (unsigned long)written);
    }
    printf("wfi %lu\n", (unsigned long)wfi_woken_at_once());
    return 0;
}
