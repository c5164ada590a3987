/*
 * Board support for bare-metal AArch64 (aarch64-virt): report a fault
 * the way picolibc's crt0 does on Cortex-M ("ARM fault: KIND", then
 * registers), so that the scripts read every board's faults alike, and
 * exit with 1; or, once board_fault_report_install() (fault_report.c)
 * has set aarch64_data_abort_report, a data abort as that says it.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include "board.h"
#include "fault.h"

/* ESR_EL1's exception classes */
#define EC_UNKNOWN 0x00         /* an undefined instruction */
#define EC_SVC 0x15
#define EC_INSTRUCTION_ABORT 0x21
#define EC_PC_ALIGNMENT 0x22
#define EC_DATA_ABORT 0x25
#define EC_SP_ALIGNMENT 0x26
#define EC_BRK 0x3c

void aarch64_fault(alt_u64 esr, alt_u64 elr, alt_u64 far);
void arm_vbar_fault(int kind, alt_u32 pc);

void (*aarch64_data_abort_report)(alt_u32 address, alt_u32 pc);

static void __attribute__((noreturn))
report(const char *kind, alt_u64 pc, const alt_u64 *address)
{
    printf("ARM fault: %s\n", kind);
    printf("\tPC:   0x%08llx\n", (unsigned long long)pc);
    if (address) {
        printf("\tADDR: 0x%08llx\n", (unsigned long long)*address);
    }
    fflush(stdout);
    _Exit(1);
}

/* From the vectors (exceptions.S), on the fault stack */
void aarch64_fault(alt_u64 esr, alt_u64 elr, alt_u64 far)
{
    unsigned ec = (esr >> 26) & 0x3f;
    char other[32];

    switch (ec) {
    case EC_UNKNOWN:
        report("undefined instruction", elr, NULL);
    case EC_SVC:
        report("unexpected svc", elr - 4, NULL);    /* ELR: the next one */
    case EC_INSTRUCTION_ABORT:
        report("prefetch abort", elr, &far);
    case EC_DATA_ABORT:
        if (aarch64_data_abort_report) {
            aarch64_data_abort_report((alt_u32)far, (alt_u32)elr);
        }
        report("data abort", elr, &far);
    case EC_PC_ALIGNMENT:
        report("pc alignment fault", elr, &far);
    case EC_SP_ALIGNMENT:
        report("sp alignment fault", elr, NULL);
    case EC_BRK:
        report("breakpoint", elr, NULL);
    default:
        snprintf(other, sizeof(other), "exception class 0x%02x", ec);
        report(other, elr, NULL);
    }
}

/* From the board's interrupt code (virt/interrupts.c): an IRQ no one
 * expects stops the program */
void arm_vbar_fault(int kind, alt_u32 pc)
{
    (void)kind;
    report("unexpected irq", pc, NULL);
}
