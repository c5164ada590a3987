/*
 * Calls of every kind the profiler follows, 1000 times over: a leaf
 * called directly, from a loop in another function, conditionally (in
 * an IT block on Thumb-2, taken every other time), through a pointer,
 * and a recursion left by longjmp from its deepest call.  leaf() is
 * called 5,500 times, nested() and conditional() 1,000 times each,
 * recurse() 5,000 times; work() runs directly below main at the end.
 *
 * SPDX-License-Identifier: MIT
 */
#include <setjmp.h>

static jmp_buf env;
static volatile int sink;

__attribute__((noinline)) void leaf(void)
{
    sink++;
}

__attribute__((noinline)) void nested(int n)
{
    for (int i = 0; i < n; i++) {
        leaf();
    }
}

__attribute__((noinline)) void conditional(int call)
{
#if defined(__thumb2__)
    __asm__ volatile("cmp %0, #0\n\tit ne\n\tblne leaf" : : "r"(call)
                     : "r0", "r1", "r2", "r3", "r12", "lr", "cc", "memory");
#else
    if (call) {
        leaf();
        sink++;         /* no tail call */
    }
#endif
}

__attribute__((noinline)) int recurse(int n)
{
    if (n == 0) {
        longjmp(env, 1);
    }
    return recurse(n - 1) + sink;
}

__attribute__((noinline)) void work(void)
{
    for (int i = 0; i < 200; i++) {
        sink += i;
    }
}

void (*volatile indirect)(void) = leaf;

int main(void)
{
    for (int k = 0; k < 1000; k++) {
        leaf();
        nested(3);
        conditional(k & 1);
        indirect();
        if (setjmp(env) == 0) {
            recurse(4);
        }
    }
    work();
    return 0;
}
