/*
 * RISC-V board support (riscv32-virt, sifive_e): reading an address that
 * may be empty.  On these boards a load from an address nothing answers
 * at is a load access fault, so the load runs under a trap vector of its own (mtvec)
 * that resumes after it and reports the fault.
 *
 * int board_probe_read(alt_u32 addr, alt_u32 *value): 0, or -1 if the
 * load faulted (*value is then 0).
 *
 * SPDX-License-Identifier: MIT
 */
    .text
    .global board_probe_read
    .type board_probe_read, @function
board_probe_read:
    csrrci t3, mstatus, 8         # interrupts masked while mtvec is ours
    la t0, probe_trap
    csrrw t1, mtvec, t0
    li a2, 0                      # faulted
    lw a3, 0(a0)                  # on a fault: a3 = 0, a2 = 1, on at 1:
1:  csrw mtvec, t1
    andi t3, t3, 8
    csrs mstatus, t3
    sw a3, 0(a1)
    neg a0, a2
    ret
    .size board_probe_read, . - board_probe_read

    .align 2                      # mtvec direct mode: 4-byte aligned
probe_trap:
    la t2, 1b
    csrw mepc, t2
    li a3, 0
    li a2, 1
    mret

/*
 * void board_fault_report_install(void): from now on a trap stops the
 * program with a message: perfctr_fault_report(address, pc) for a load or
 * store access fault (where nothing answers, such as PERF_RESET on a
 * wrong base), perfctr_trap_report(mcause, mepc, mtval) for any other
 * trap (the program never takes one on purpose: interrupts stay masked).
 */
    .global board_fault_report_install
    .type board_fault_report_install, @function
board_fault_report_install:
    la t0, report_trap
    csrw mtvec, t0
    ret
    .size board_fault_report_install, . - board_fault_report_install

    .align 2
report_trap:
    andi sp, sp, -16              # the program's stack: it never resumes
    csrr a0, mcause
    csrr a1, mepc
    csrr a2, mtval
    li t0, 5                      # load access fault
    beq a0, t0, 1f
    li t0, 7                      # store/AMO access fault
    beq a0, t0, 1f
    call perfctr_trap_report
    j .
1:  mv a0, a2                     # the address; a1: mepc, the pc
    call perfctr_fault_report
    j .
