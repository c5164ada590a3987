/*
 * The one hook between the perfctr TCG plugin, QEMU's execution loop
 * and the devices that count guest events (the perf-counter device,
 * the ARM1176 performance monitor).
 *
 * The plugin counts events in executed guest code and hands QEMU its
 * operations (PerfctrPluginOps); QEMU counts the exceptions and
 * interrupts taken itself; a device registers as a client, reads
 * counts, says which events it wants counted and arms targets: when
 * a vCPU's count of an event reaches a client's target, the client is
 * called back between two guest instructions, before the next one
 * runs, so that an interrupt it raises is taken at that instruction.
 *
 * Plugins reach QEMU only through exported symbols, so this header is
 * plain C, included by both sides (the plugin through contrib's
 * include path), and the functions the plugin calls are exported
 * (plugins/perfctr-hook.symbols).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef ACCEL_TCG_PERFCTR_HOOK_H
#define ACCEL_TCG_PERFCTR_HOOK_H

#include <stdbool.h>
#include <stdint.h>

/* Events counted exactly; the numbers are the devices' register values */
typedef enum PerfctrEvent {
    PERFCTR_EVENT_NONE = 0,
    PERFCTR_EVENT_INSTRUCTIONS = 1,     /* executed instructions */
    PERFCTR_EVENT_LOADS = 2,            /* instructions that read memory */
    PERFCTR_EVENT_STORES = 3,           /* instructions that write memory */
    PERFCTR_EVENT_BRANCHES = 4,         /* branch, call, return executed */
    PERFCTR_EVENT_CALLS = 5,            /* calls executed */
    PERFCTR_EVENT_RETURNS = 6,          /* returns executed */
    PERFCTR_EVENT_TAKEN_BRANCHES = 7,   /* branches that changed the pc */
    PERFCTR_EVENT_EXCEPTIONS = 8,       /* exceptions and interrupts taken */
    PERFCTR_EVENT_CYCLES = 9,           /* estimated cycles (timing model) */
    /*
     * Branches by kind: conditional ones to an immediate, unconditional
     * ones to an immediate, and those to a register or a loaded value
     */
    PERFCTR_EVENT_CONDITIONAL_BRANCHES = 10,    /* B<c>, CBZ, BEQ... */
    PERFCTR_EVENT_DIRECT_JUMPS = 11,    /* unconditional, to an immediate */
    PERFCTR_EVENT_INDIRECT_JUMPS = 12,  /* to a register or a load's value */
    PERFCTR_EVENT_MULTIPLIES = 13,      /* MUL, MLA, SMULL, MULH... */
    PERFCTR_EVENT_DIVIDES = 14,         /* SDIV, UDIV, DIV, REM... */
    PERFCTR_EVENT_EXCEPTION_RETURNS = 15,   /* ERET, MRET, EXC_RETURN... */
    /* Branches that pass their condition code, taken or not (Arm's) */
    PERFCTR_EVENT_RETIRED_BRANCHES = 16,
    /* The timing model's cycles beyond the first of loads and stores */
    PERFCTR_EVENT_MEMORY_STALLS = 17,
    PERFCTR_EVENT_COUNT
} PerfctrEvent;

typedef struct CPUState CPUState;

/* A target that is never reached */
#define PERFCTR_NEVER UINT64_MAX

/* What the plugin offers QEMU; any member may be NULL */
typedef struct PerfctrPluginOps {
    /* Events the plugin can count (bit e for event e) */
    uint32_t events;
    /* The count of event so far on the vCPU */
    uint64_t (*read)(unsigned vcpu_index, PerfctrEvent event);
    /*
     * Count these events from now on (bit e for event e), and be ready
     * for targets on those of targeted (a subset): only they cost the
     * countdowns and checks that targets need
     */
    void (*want)(uint32_t events, uint32_t targeted);
    /*
     * Call perfctr_hook_reached() when the vCPU's count of event
     * reaches target (PERFCTR_NEVER: disarm); event is one of targeted
     */
    void (*arm)(unsigned vcpu_index, PerfctrEvent event, uint64_t target);
    /*
     * The vCPU left translated code and resumes at pc (an exception,
     * an interrupt, a device reading counts between two blocks):
     * settle what depends on where execution goes next.
     */
    void (*left_code)(unsigned vcpu_index, uint64_t pc);
    /*
     * The vCPU entered the handler of exception number (the guest's
     * own: Cortex-M's IPSR, RISC-V's mcause, else QEMU's exception
     * index), interrupted at resume_pc with its stack pointer at sp
     */
    void (*exception_entered)(unsigned vcpu_index, uint64_t number,
                              uint64_t resume_pc, uint64_t sp);
    /*
     * Cortex-M: an exception return (the other architectures return by
     * an instruction the plugin sees).  number is the IPSR after it: 0
     * back in Thread mode, the handler it returned to, or a pending
     * exception it tail-chained to; pc and sp are those after it.
     */
    void (*exception_returned)(unsigned vcpu_index, uint64_t number,
                               uint64_t pc, uint64_t sp);
    /*
     * QEMU left the vCPU's running block before the last not_begun of
     * its instructions began (a fault, an I/O access it runs again on
     * its own, a target reached, a stop): for a plugin that counts a
     * block's instructions as the block is entered, as icount does.
     */
    void (*block_left)(unsigned vcpu_index, uint64_t not_begun);
    /*
     * Write what the plugin has counted so far to path, in the form it
     * writes at exit (a controller's snapshot at a step's ends), with
     * the vCPUs between two instructions; false if it cannot
     */
    bool (*write_results)(const char *path);
    /*
     * The interrupt controller pended exception number (the guest's
     * numbering, as exception_entered gets it), which was not pending:
     * the start of its latency
     */
    void (*irq_pended)(unsigned vcpu_index, uint64_t number);
    /* ... and cleared it before it was taken: no latency then */
    void (*irq_cleared)(unsigned vcpu_index, uint64_t number);
} PerfctrPluginOps;

/* Called by the plugin when it is installed (exported by QEMU) */
void perfctr_hook_set_plugin(const PerfctrPluginOps *ops);

/*
 * Called by the plugin when a count armed with ops->arm is reached.
 * host_pc 0: reached by the last instruction of a block, with that
 * instruction about to run; the clients are called back after it.
 * Otherwise the count was reached by the instruction before the one
 * whose translated code returns to host_pc, which has not run yet:
 * QEMU leaves the block there and calls the clients back before it.
 */
void perfctr_hook_reached(unsigned vcpu_index, uintptr_t host_pc);

/*
 * Called by the plugin in a callback that reads registers, before the
 * first instruction of a block whose translated code returns to
 * host_pc: QEMU leaves the block before it and runs its first n_insns
 * instructions only, as a block of their own (so that a target the
 * plugin knows the block reaches in its middle ends it there).
 */
void perfctr_hook_run_first(unsigned vcpu_index, uintptr_t host_pc,
                            unsigned n_insns);

/*
 * Called by the plugin, also as it instruments a block: all code is
 * translated again before any of it runs (the block too), for code
 * translated before the plugin knew how to instrument it
 */
void perfctr_hook_retranslate(void);

/*
 * Called by the plugin, in a callback or as it instruments a block: the
 * code at host_code (an instruction's qemu_plugin_insn_haddr()) is
 * translated again before it next runs, and before any block runs
 * again; the rest stays as it is (all of it, for code not in RAM)
 */
void perfctr_hook_retranslate_at(void *host_code);

/*
 * Under icount only the last instruction of a block may access I/O: one
 * in the middle leaves its block and runs alone, and QEMU notes it
 * (patch 0037), and ends the blocks it translates from then on at it.
 * The plugin asks, as it instruments a block, whether the block's last
 * instruction is one (so ended, not falling through to the next).
 */
void perfctr_hook_note_io_insn(uint64_t pc);
bool perfctr_hook_io_insn_known(uint64_t pc);

/*
 * Called by the plugin in a callback that reads registers, or from one
 * of its PerfctrPluginOps: the stack pointer of the vCPU that runs it,
 * as its code sees it (GDB's "sp"), without the gdbstub's copying
 * (accel/tcg/cpu-exec.c: it knows each target's CPU state)
 */
uint64_t perfctr_hook_stack_pointer(void);
/*
 * The same for a general register, by its number (Arm's r0 to r14 or
 * x0 to x30, RISC-V's x0 to x31; 0 for another): what the probes' and
 * the interrupt masks' callbacks read, a few million times a run
 */
uint64_t perfctr_hook_register(unsigned number);

/*
 * The stack pointer each vCPU made its last call with (the Arm and
 * RISC-V translators store it at BL, BLX and a JAL or JALR that links,
 * perfctr-hook-gen.h, in slot vCPU index modulo
 * PERFCTR_HOOK_CALL_SLOTS): the plugin makes a call's frame only once
 * something needs it, with the stack pointer of the call
 */
#define PERFCTR_HOOK_CALL_SLOTS 64
extern uint32_t perfctr_hook_call_sp[PERFCTR_HOOK_CALL_SLOTS];
/* For the plugin: the stack pointer of vcpu_index's last call */
uint64_t perfctr_hook_call_stack_pointer(unsigned vcpu_index);

/*
 * The lowest and highest value each vCPU wrote to its stack pointer
 * since the plugin last took them: the Arm translator keeps them at
 * every write of sp by an instruction (A32 and T32, not an exception's
 * stacking; perfctr-hook-gen.h), in slot vCPU index modulo
 * PERFCTR_HOOK_CALL_SLOTS, once the plugin asked before any code was
 * translated: each context's deepest stack without a callback after
 * every push
 */
extern bool perfctr_hook_sp_extremes_kept;
extern uint32_t perfctr_hook_sp_low[PERFCTR_HOOK_CALL_SLOTS];
extern uint32_t perfctr_hook_sp_high[PERFCTR_HOOK_CALL_SLOTS];
/* For the plugin, as it is installed: keep them from now on */
void perfctr_hook_keep_sp_extremes(void);
/*
 * For the plugin: vcpu_index's extremes since it last took them, which
 * start again; false if it wrote none
 */
bool perfctr_hook_take_sp_extremes(unsigned vcpu_index, uint64_t *low,
                                   uint64_t *high);

/* A device counting events of one vCPU */
typedef struct PerfctrHookClient PerfctrHookClient;
struct PerfctrHookClient {
    unsigned vcpu_index;
    /* Called between two instructions once a target has been reached */
    void (*reached)(PerfctrHookClient *client);
    /* Set by the client, then perfctr_hook_arm(); PERFCTR_NEVER: none */
    uint64_t target[PERFCTR_EVENT_COUNT];
    /* Events to count, and those the client may set targets on */
    uint32_t want;
    uint32_t targeted;
    PerfctrHookClient *next;
};

void perfctr_hook_add_client(PerfctrHookClient *client);
void perfctr_hook_remove_client(PerfctrHookClient *client);

/*
 * The client of vcpu_index called back by reached, allocated (size
 * bytes, zeroed, of a struct that begins with the client, targets
 * PERFCTR_NEVER) and added the first time: for a CPU's own counters
 */
PerfctrHookClient *perfctr_hook_client_of(unsigned vcpu_index, size_t size,
                                          void (*reached)(PerfctrHookClient *));

/*
 * Called by an interrupt controller (armv7m_nvic.c) as it pends number,
 * and as it clears it pending
 */
void perfctr_hook_irq_pended(unsigned vcpu_index, uint64_t number);
void perfctr_hook_irq_cleared(unsigned vcpu_index, uint64_t number);

/* The plugin's results so far to path (ops->write_results); false if not */
bool perfctr_hook_write_results(const char *path);

/* The events that can be counted now (bit e for event e) */
uint32_t perfctr_hook_events(void);

/* false if event is not counted now (no plugin, or not one it counts) */
bool perfctr_hook_read_event(unsigned vcpu_index, PerfctrEvent event,
                             uint64_t *count);

/*
 * The pc vcpu_index resumes at, when it waits where it may do I/O:
 * between two blocks (a timer, a snapshot, a stop), after the last
 * one's branch or call, which the next block's entry has not followed
 * yet; or in an MMIO access, the last instruction of its block (the pc
 * QEMU last stored; nothing is left to follow there).  False elsewhere.
 */
bool perfctr_hook_resume_pc(unsigned vcpu_index, uint64_t *pc);

/*
 * Count client->want from now on and arm client->target.  An event
 * newly in client->targeted is retranslated once the running block
 * ends; its targets are exact from then on (one reached before is
 * signalled there).
 */
void perfctr_hook_arm(PerfctrHookClient *client);

/*
 * QEMU's virtual clock (ns) once the vCPU has executed instructions
 * since the machine started; -1 without -icount.  The plugin calls it
 * with its own count from inside translated code, where the clock
 * cannot be read.
 */
int64_t perfctr_hook_virtual_ns(uint64_t instructions);

/*
 * Guest time in modelled cycles (accel/tcg/perfctr-model-time.c): true
 * while the plugin runs a timing model under -icount; the virtual clock
 * then advances by the model's cycles.  QEMU's icount calls the rest:
 * after it accounts for a vCPU's executed instructions, for the count
 * its clock runs on (the cycles, or its own count of instructions),
 * and with a vCPU's budget up to the next timer deadline.
 */
bool perfctr_hook_model_time(void);
void perfctr_hook_icount_updated(CPUState *cpu);
int64_t perfctr_hook_icount_clock(int64_t icount);
void perfctr_hook_icount_budget(CPUState *cpu, int64_t budget);

/*
 * Called by QEMU as it restores the state of a block it leaves early
 * (accel/tcg/translate-all.c): insns_left of its instructions from the
 * one it stopped in.  That one began (it faulted, or does I/O that QEMU
 * runs again in a block the plugin does not instrument), unless the
 * plugin stopped before it: perfctr_hook_cpu_restore_before().
 */
void perfctr_hook_cpu_block_left(CPUState *cpu, int insns_left);
/* Restore the state at host_pc, before the instruction there begins */
void perfctr_hook_cpu_restore_before(CPUState *cpu, uintptr_t host_pc);

/* Called by QEMU's execution loop (accel/tcg/cpu-exec.c) */
void perfctr_hook_cpu_exec_boundary(CPUState *cpu);
void perfctr_hook_cpu_exception_entry(CPUState *cpu, uint64_t resume_pc,
                                      uint64_t sp, uint64_t number);
void perfctr_hook_cpu_exception_taken(CPUState *cpu);
/* Called by the targets' exception return instructions (and Cortex-M's) */
void perfctr_hook_cpu_exception_returned(CPUState *cpu);
void perfctr_hook_cpu_exception_return(CPUState *cpu, uint64_t pc,
                                       uint64_t sp, uint64_t number);

#endif
