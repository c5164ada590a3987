/*
 * Estimated cycles as the counter's clock (tests/boot/test_cycles.py):
 * section 1 of the core at a0 begins and ends around sequences whose
 * cycles the plugin also counts in windows of pcs.
 *
 * clock_loop(base): a loop of 10 iterations, then END, between the
 * labels clock_loop_start and clock_loop_end.  The section counts what
 * comes after the BEGIN store up to the END store included (each
 * instruction's cycles are added before it runs), which is exactly the
 * window.
 *
 * clock_adds(base): BEGIN, then 16 dependent 32-bit ADDIs from
 * clock_adds_start, then END: a threshold on the section's time stops
 * them after the instruction whose cycles reach it.
 *
 * SPDX-License-Identifier: MIT
 */
    .option norvc
    .text

    .global clock_loop
    .type clock_loop, @function
clock_loop:
    li a1, 1
    fence.i
    sw a1, 0x14(a0)             # BEGIN section 1
    .global clock_loop_start
clock_loop_start:
    li a2, 10
1:  addi a2, a2, -1
    bnez a2, 1b
    sw a1, 0x10(a0)             # END section 1
    .global clock_loop_end
clock_loop_end:
    fence.i
    ret
    .size clock_loop, . - clock_loop

    .global clock_adds
    .type clock_adds, @function
clock_adds:
    li a1, 1
    li a2, 0
    fence.i
    sw a1, 0x14(a0)             # BEGIN section 1
    .global clock_adds_start
clock_adds_start:
    .rept 16
    addi a2, a2, 1
    .endr
    .global clock_adds_end
clock_adds_end:
    sw a1, 0x10(a0)             # END section 1
    fence.i
    ret
    .size clock_adds, . - clock_adds

/*
 * guess_late(base), guess_first(base): the same loop twice, section 1
 * around it: a forward BNE taken 9 times of 10, a static guess (not
 * taken) missing each time, whose other way is a block of its own.
 * NAME_warm(base) enters that block first, so that it is translated
 * before the branch that makes it an other way (the plugin must then
 * translate it again, with the check of the guess); guess_late is
 * warmed so, guess_first not: both count the same cycles.
 */
.macro guess_loop name
    .balign 4
    .global \name
    .type \name, @function
\name:
    li a1, 1
    li a2, 0
    li a3, 10
    fence.i
    sw a1, 0x14(a0)             # BEGIN section 1
1:  addi a2, a2, 1
    bne a2, a3, 2f
    sw a1, 0x10(a0)             # END section 1
    fence.i
    ret
2:  j 1b                        # the guess's other way
    .global \name\()_warm
\name\()_warm:                  # at the other way first: a2 + 1 = 10
    li a1, 1
    li a2, 9
    li a3, 10
    j 2b
    .size \name, . - \name
.endm

    guess_loop guess_late
    guess_loop guess_first

/*
 * io_store_load(base): section 1 around a device store in mid-block
 * (BEGIN section 2) and a load right after it.  Under icount QEMU
 * leaves the block at the store on its first run, and from the second
 * on has it end there: both runs count the same cycles.
 */
    .balign 4
    .global io_store_load
    .type io_store_load, @function
io_store_load:
    li a1, 1
    fence.i
    sw a1, 0x14(a0)             # BEGIN section 1
    addi a2, a1, 1
    sw a1, 0x24(a0)             # BEGIN section 2: a device, in mid-block
    lw a3, 0(sp)
    addi a3, a3, 1
    sw a1, 0x10(a0)             # END section 1
    fence.i
    ret
    .size io_store_load, . - io_store_load
