/*
 * The check that a core answers at a base, before the HAL getters and
 * the report read it: a wrong base would otherwise read as zeros (MPS2)
 * or stop the program at a fault with no word of why (virt boards).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include "board.h"
#include "perfctr.h"

/*
 * The bases found good.  The check runs before a getter touches the core
 * (on the virt boards even the getter's STOP store would fault), so its
 * few instructions count if the core runs; remembering a few bases keeps
 * that to the first call on each.
 */
#define CHECKED_BASES 4
static void *checked_base[CHECKED_BASES];
static unsigned next_slot;

/*
 * The first store of a program with a wrong base (PERF_RESET) comes
 * before any getter; where it faults, say why there.  A constructor in
 * this file runs in every program that uses a getter or the report.
 */
__attribute__((constructor)) static void install_fault_report(void)
{
    board_fault_report_install();
}

void perfctr_fault_report(alt_u32 address, alt_u32 pc)
{
    fflush(stdout);
    fprintf(stderr, "perf-counter: the program's access to 0x%08lx at pc "
            "0x%08lx faulted: nothing answers there.  If it is a "
            "performance counter base, check the base the program passes "
            "(PERFORMANCE_COUNTER_BASE in system.h)\n",
            (unsigned long)address, (unsigned long)pc);
    exit(EXIT_FAILURE);
}

/* Any other trap: reported as picolibc's handler would (the scripts
 * read that form into a one-line reason) */
void perfctr_trap_report(alt_u32 cause, alt_u32 pc, alt_u32 value)
{
    printf("RISCV fault\n\tmepc:     0x%08lx\n\tmcause:   0x%08lx\n"
           "\tmtval:    0x%08lx\n", (unsigned long)pc,
           (unsigned long)cause, (unsigned long)value);
    fflush(stdout);
    exit(EXIT_FAILURE);
}

void perfctr_require_core(void *p)
{
    alt_u32 addr = (alt_u32)(uintptr_t)p;
    alt_u32 magic;

    unsigned i;

    for (i = 0; i < CHECKED_BASES; i++) {
        if (p == checked_base[i] && p != NULL) {
            return;
        }
    }
    if (board_probe_read(addr + 4 * PERFCTR_REG_MAGIC, &magic) != 0) {
        fprintf(stderr, "perf-counter: no performance counter core at "
                "0x%08lx: reading its MAGIC register (base + 0x800) "
                "faults; check the base the program passes "
                "(PERFORMANCE_COUNTER_BASE in system.h)\n",
                (unsigned long)addr);
        exit(EXIT_FAILURE);
    }
    if (magic != PERFCTR_MAGIC) {
        fprintf(stderr, "perf-counter: no performance counter core at "
                "0x%08lx: its MAGIC register (base + 0x800) reads "
                "0x%08lx, not 0x%08lx; check the base the program passes "
                "(PERFORMANCE_COUNTER_BASE in system.h)\n",
                (unsigned long)addr, (unsigned long)magic,
                (unsigned long)PERFCTR_MAGIC);
        exit(EXIT_FAILURE);
    }
    checked_base[next_slot] = p;
    next_slot = (next_slot + 1) % CHECKED_BASES;
}
