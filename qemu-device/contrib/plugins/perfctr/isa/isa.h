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

/* No address: a word that holds no pc, a target not known before it runs */
#define NO_PC UINT64_MAX

/* The instruction sets the plugin decodes */
typedef enum Isa {
    ISA_THUMB,      /* Thumb and Thumb-2 (Cortex-M, Cortex-A in Thumb) */
    ISA_A32,        /* Arm state (ARM11, Cortex-A in Arm state) */
    ISA_RISCV,      /* RV32 with the C extension */
    ISA_A64,        /* AArch64 state (Cortex-A53 and later) */
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
    /*
     * Its encoding has a condition (B<c>, B.cond, CBZ, TBZ, BEQ...; a
     * Thumb IT block may still predicate a branch whose encoding has none)
     */
    bool conditional;
    /*
     * An Arm condition code may make it not execute (B<c>, A64's B.cond,
     * Arm state's conditional instructions; not CBZ, whose test is its
     * branch): for Thumb's IT, see isa_may_not_execute()
     */
    bool predicated;
    uint64_t target;        /* where a direct branch or call goes */
    bool load;              /* reads data memory (LDM, POP, LDRD too) */
    bool store;             /* writes data memory (STM, PUSH, SWP too) */
} InsnClass;

/* GDB's names of RISC-V's general registers x0 to x31, as QEMU gives them */
extern const char *const isa_riscv_register_names[32];

/* What the timing models (cycles-*.c) need to know of an instruction */
typedef enum TimingClass {
    TC_ALU,             /* single-cycle data processing, moves, hints */
    TC_MUL,             /* multiply with a 32-bit result (and DSP MACs) */
    TC_MAC,             /* MLA, MLS */
    TC_MULL,            /* SMULL, UMULL (RISC-V: MULH*) */
    TC_MLAL,            /* SMLAL, UMLAL, UMAAL */
    TC_DIV,             /* SDIV, UDIV (RISC-V: DIV, REM...) */
    TC_LOAD,            /* single load (LDR*, LDREX, LW...) */
    TC_STORE,           /* single store */
    TC_LOAD_DOUBLE,     /* LDRD */
    TC_STORE_DOUBLE,    /* STRD */
    TC_LOAD_MULTIPLE,   /* LDM, POP (nregs registers) */
    TC_STORE_MULTIPLE,  /* STM, PUSH (nregs registers) */
    TC_BRANCH,          /* any write of the pc that is not a load */
    TC_TABLE_BRANCH,    /* TBB, TBH */
    TC_IT,              /* Thumb IT */
    TC_BARRIER,         /* ISB, DSB, DMB */
    TC_SYSTEM,          /* MRS, MSR, CPS, CSR access, WFI, SVC... */
} TimingClass;

typedef struct InsnTiming {
    TimingClass cls;
    bool wide;              /* a 32-bit Thumb or RISC-V encoding */
    bool conditional;       /* a conditional branch: B<c>, CBZ, BEQ... */
    bool sets_pc;           /* may write the pc (branch, POP {pc}...) */
    bool reg_offset;        /* a load or store with a register offset */
    bool writeback;         /* a pre- or post-indexed load or store */
    uint8_t size;           /* bytes of a single load or store */
    uint8_t nregs;          /* registers a load or store multiple moves */
    int8_t op_a, op_b;      /* multiply and divide operands; -1: none */
    bool is_signed;         /* of the multiply or division */
    uint32_t writes;        /* registers written, as a mask (isa_sp_mask) */
    uint32_t reads;         /* registers read (address ones included) */
    uint32_t address;       /* registers that form a memory address */
    /* Thumb only (the Cortex-M33 model's rules): */
    bool sets_flags;        /* writes the condition flags */
    bool nop;               /* NOP: no work, only a slot */
    /*
     * Data processing in two stages: a shifted register or a rotated
     * constant operand, extend and add, DSP and SIMD arithmetic
     */
    bool two_stage;
    bool rotated_imm;       /* of them, a rotated constant operand */
    uint32_t early;         /* of them, the register shifted or extended */
    /*
     * A 16-bit move, add or subtract of a constant (ADDS/SUBS imm3 and
     * imm8, MOVS imm8), MOV between registers, or SXTB/SXTH/UXTB/UXTH
     * (the Cortex-M55 model's dual issue)
     */
    bool dual16;
    /* Floating point (cp10, cp11; the Cortex-M4 model's FPU table): */
    bool fp;                /* a floating-point instruction */
    uint8_t fp_cycles;      /* of data processing or a transfer, or 0 */
    uint8_t fp_busy;        /* VDIV, VSQRT: cycles the FPU stays busy */
    bool fp_late;           /* arithmetic: a cycle late to the next */
    uint32_t fp_reads;      /* s registers read, as a mask */
    uint32_t fp_writes;     /* s registers written */
    uint32_t fp_addend;     /* of fp_reads, a MAC's addend (read late) */
} InsnTiming;

/*
 * Decode the timing class and register use of the instruction of len
 * bytes; false if the bytes are not a whole instruction (it is then a
 * TC_ALU that uses no register).
 */
bool isa_timing(Isa isa, const uint8_t *bytes, size_t len,
                InsnTiming *out);

/* The size of the instruction whose first bytes (got of them) these are */
size_t isa_insn_size(Isa isa, const uint8_t *bytes, size_t got);

/*
 * The stack pointer's bit in InsnTiming's register masks: r13 (Arm
 * state, Thumb), x2 (RISC-V), bit 31 (A64, where x31 is sp or xzr)
 */
uint32_t isa_sp_mask(Isa isa);

/*
 * The registers that address only the stack or the code: an access
 * addressed from them alone (a push, a local, a literal pool; A64's
 * literal loads name none) never reaches a device: the stack pointer,
 * and Arm's pc
 */
uint32_t isa_local_address_mask(Isa isa);

/* What an instruction does to the stack pointer */
typedef enum SpWrite {
    SP_KEPT,            /* nothing, or raises it on its stack (a pop) */
    SP_MOVED,           /* moves it along its stack: a push, sub sp */
    SP_SWITCHED,        /* another stack: mov sp, ldr sp, a mode change */
} SpWrite;

/* What the instruction of len bytes does to the stack pointer */
SpWrite isa_sp_write(Isa isa, const uint8_t *bytes, size_t len);

/*
 * Classify the instruction of len bytes at pc.  Returns false if bytes
 * do not hold a whole instruction of isa (it is then INSN_OTHER).
 */
bool isa_classify(Isa isa, const uint8_t *bytes, size_t len, uint64_t pc,
                  InsnClass *out);

/*
 * Whether the instruction of len bytes links the one after it into a
 * call: Arm state's MOV lr, pc, after which an indirect branch (BX Rm)
 * is a call (the Armv4T idiom; picolibc's __libc_init_array calls the
 * constructors so).  The caller then makes that branch's class a call
 * with isa_linked().
 */
bool isa_links_next(Isa isa, const uint8_t *bytes, size_t len);
void isa_linked(InsnClass *branch);

/*
 * Whether an instruction may fail its condition and not execute: Arm
 * state's conditional instructions, Thumb's in an IT block.  Give each
 * instruction of a translated block in turn, with *it zeroed at its
 * start: a Thumb block may begin inside an IT block that began in the
 * block before, so its first four instructions may too (unless an IT
 * comes first).
 */
typedef struct IsaPredication {
    unsigned index;         /* of the instruction in its block */
    unsigned it_left;       /* instructions left in the IT block */
    bool it_seen;           /* an IT in this block, at or before it */
} IsaPredication;

bool isa_may_not_execute(Isa isa, const uint8_t *bytes, size_t len,
                         IsaPredication *it);
/* Whether any instruction of isa may (Arm state, Thumb) */
bool isa_predicates(Isa isa);
/* How many instructions after it a Thumb IT predicates; 0: not an IT */
unsigned isa_it_count(Isa isa, const uint8_t *bytes, size_t len);

#endif
