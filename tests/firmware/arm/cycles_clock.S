/*
 * Estimated cycles as the counter's clock (tests/boot/test_cycles.py):
 * section 1 of the core at r0 begins and ends around sequences whose
 * cycles the plugin also counts in windows of pcs.
 *
 * clock_loop(base): a loop of 10 iterations, then END, between the
 * labels clock_loop_start and clock_loop_end.  The section counts what
 * comes after the BEGIN store up to the END store included (each
 * instruction's cycles are added before it runs), which is exactly the
 * window.
 *
 * clock_adds(base): BEGIN, then 16 dependent 16-bit ADDS from
 * clock_adds_start, then END: a threshold on the section's time stops
 * them after the instruction whose cycles reach it.
 *
 * SPDX-License-Identifier: MIT
 */
    .syntax unified
    .thumb
    .text

    .global clock_loop
    .type clock_loop, %function
    .thumb_func
clock_loop:
    movs r1, #1
    isb
    str r1, [r0, #0x14]         @ BEGIN section 1
    .global clock_loop_start
clock_loop_start:
    movs r2, #10
1:  subs r2, r2, #1
    bne 1b
    str r1, [r0, #0x10]         @ END section 1
    .global clock_loop_end
clock_loop_end:
    isb
    bx lr
    .size clock_loop, . - clock_loop

    .global clock_adds
    .type clock_adds, %function
    .thumb_func
clock_adds:
    movs r1, #1
    movs r2, #0
    isb
    str r1, [r0, #0x14]         @ BEGIN section 1
    .global clock_adds_start
clock_adds_start:
    .rept 16
    adds r2, r2, #1
    .endr
    .global clock_adds_end
clock_adds_end:
    str r1, [r0, #0x10]         @ END section 1
    isb
    bx lr
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
    .type \name, %function
    .thumb_func
\name:
    movs r1, #1
    movs r2, #0
    movs r3, #10
    isb
    str r1, [r0, #0x14]         @ BEGIN section 1
1:  adds r2, r2, #1
    cmp r2, r3
    bne 2f
    str r1, [r0, #0x10]         @ END section 1
    isb
    bx lr
2:  b 1b                        @ the guess's other way
    .global \name\()_warm
    .thumb_func
\name\()_warm:                  @ at the other way first: r2 + 1 = 10
    movs r1, #1
    movs r2, #9
    movs r3, #10
    b 2b
    .size \name, . - \name
.endm

    guess_loop guess_late
    guess_loop guess_first

/*
 * io_store_load(base): section 1 around a device store in mid-block
 * (BEGIN section 2) and a load right after it, which a store holds up
 * a cycle (the M3's and M4's table).  Under icount QEMU leaves the
 * block at the store on its first run, and from the second on has it
 * end there: both runs count the same cycles.
 */
    .balign 4
    .global io_store_load
    .type io_store_load, %function
    .thumb_func
io_store_load:
    movs r1, #1
    isb
    str r1, [r0, #0x14]         @ BEGIN section 1
    adds r2, r1, #1
    str r1, [r0, #0x24]         @ BEGIN section 2: a device, in mid-block
    ldr r3, [sp]
    adds r3, r3, #1
    str r1, [r0, #0x10]         @ END section 1
    isb
    bx lr
    .size io_store_load, . - io_store_load
