/*
 * perfctr plugin: what each guest instruction does to the flow of control
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_ISA_H
#define PERFCTR_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The instruction sets the plugin decodes */
typedef enum Isa {
    ISA_THUMB,      /* Thumb and Thumb-2 (Cortex-M, Cortex-A in Thumb) */
    ISA_A32,        /* Arm state (ARM11, Cortex-A in Arm state) */
    ISA_RISCV,      /* RV32 with the C extension */
} Isa;

typedef enum InsnKind {
    INSN_OTHER,             /* falls through to the next instruction */
    INSN_BRANCH,            /* jumps, conditionally or not */
    INSN_CALL,              /* jumps and links: enters a function */
    INSN_RETURN,            /* jumps to a return address */
    INSN_EXCEPTION_RETURN,  /* returns from an exception handler */
    INSN_TRAP,              /* raises an exception: SVC, BKPT, ECALL... */
} InsnKind;

typedef struct InsnClass {
    InsnKind kind;
    bool direct;            /* target is known before it runs */
    uint64_t target;        /* where a direct branch or call goes */
    bool load;              /* reads data memory (LDM, POP, LDRD too) */
    bool store;             /* writes data memory (STM, PUSH, SWP too) */
} InsnClass;

/*
 * Classify the instruction of len bytes at pc.  Returns false if bytes
 * do not hold a whole instruction of isa (it is then INSN_OTHER).
 */
bool isa_classify(Isa isa, const uint8_t *bytes, size_t len, uint64_t pc,
                  InsnClass *out);

#endif
