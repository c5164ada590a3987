/*
 * A large single-threaded program for scripts/bench's whole commands:
 * 1,344 functions (1,024 leaves, 256 functions calling 4 leaves each,
 * 64 calling 4 of those, each in a loop), called for ever from main,
 * as an interpreter's or a protocol stack's many small functions are.
 * The loops keep a subtree's code at work a while, as real code's do
 * (calling each leaf once a round made QEMU look up a block it had
 * just evicted from its jump cache at every return).  Never exits: the
 * bench stops it after a number of instructions.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>

#define NOINLINE __attribute__((noinline))

/* Each macro applies m to its prefix followed by 4, 16, ... digits */
#define BY4(m, p) m(p##0) m(p##1) m(p##2) m(p##3)
#define BY16(m, p) BY4(m, p##0) BY4(m, p##1) BY4(m, p##2) BY4(m, p##3)
#define BY64(m, p) BY16(m, p##0) BY16(m, p##1) BY16(m, p##2) BY16(m, p##3)
#define BY256(m, p) BY64(m, p##0) BY64(m, p##1) BY64(m, p##2) BY64(m, p##3)
#define BY1024(m, p) \
    BY256(m, p##0) BY256(m, p##1) BY256(m, p##2) BY256(m, p##3)

/* A leaf's work differs by its own address */
#define LEAF(id) \
    NOINLINE unsigned leaf##id(unsigned x) \
    { \
        return (x ^ (x >> 3)) * 2654435761u + (unsigned)(uintptr_t)leaf##id; \
    }

/* name##id calls the 4 functions of callee##id in a loop of rounds */
#define CALLER(name, callee, rounds, id) \
    NOINLINE unsigned name##id(unsigned x) \
    { \
        for (int i = 0; i < rounds; i++) { \
            x = callee##id##0(x); \
            x = callee##id##1(x); \
            x = callee##id##2(x); \
            x = callee##id##3(x) + 1; \
        } \
        return x; \
    }

#define MIDDLE(id) CALLER(middle, leaf, 4, id)
#define TOP(id) CALLER(top, middle, 2, id)

#define CALL_TOP(id) x = top##id(x);

BY1024(LEAF, _)
BY256(MIDDLE, _)
BY64(TOP, _)

volatile unsigned sink;

int main(void)
{
    unsigned x = 1;

    for (;;) {
        BY64(CALL_TOP, _)
        sink = x;
    }
}
