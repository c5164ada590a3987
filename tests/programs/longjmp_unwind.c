/*
 * longjmp out of a recursion, 50 times, then a plain call: the profiler
 * must unwind the frames longjmp left (as MicroPython's nlr_jump does
 * on every exception), so work() runs directly below main.
 *
 * SPDX-License-Identifier: MIT
 */
#include <setjmp.h>

static jmp_buf env;
static volatile int sink;

__attribute__((noinline)) void down(int n)
{
    sink++;
    if (n == 0) {
        longjmp(env, 1);
    }
    down(n - 1);
    sink++;             /* no tail call */
}

__attribute__((noinline)) void work(void)
{
    for (int i = 0; i < 200; i++) {
        sink += i;
    }
}

int main(void)
{
    for (int k = 0; k < 50; k++) {
        if (setjmp(env) == 0) {
            down(5);
        }
    }
    work();
    return 0;
}
