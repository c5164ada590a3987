/*
 * Branches Armv6-M makes with BL that are no calls, or return where no
 * call did (tests/boot/test_hotspots.py): GCC crosses big()'s long body
 * with BL, Thumb-1's only far branch, and dispatches its switch through
 * libgcc's __gnu_thumb1_case_uqi, which returns past its return address,
 * into the case.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>

volatile int sink;

/* Each S() is some 16 bytes of code at -Os; 150 of them pass 2 KiB */
#define S(k) do { sink = sink * (k) + i; acc += sink ^ (k); } while (0);
#define S10(k) S(k##0) S(k##1) S(k##2) S(k##3) S(k##4) \
               S(k##5) S(k##6) S(k##7) S(k##8) S(k##9)

__attribute__((noinline, optimize("Os"))) int big(int n)
{
    int acc = 0;

    for (int i = 0; i < n; i++) {
        switch (i % 7) {
        case 0:
            acc += 3;
            break;
        case 1:
            acc ^= 5;
            break;
        case 2:
            acc -= sink;
            break;
        case 3:
            acc *= 3;
            break;
        case 5:
            acc += sink * 7;
            break;
        default:
            acc >>= 1;
            break;
        }
        if (sink & 1) {
            S10(1) S10(2) S10(3) S10(4) S10(5) S10(6) S10(7) S10(8)
            S10(9) S10(10) S10(11) S10(12) S10(13) S10(14) S10(15)
        }
        sink++;
    }
    return acc;
}

int main(void)
{
    printf("big %d\n", big(100));
    return 0;
}
