/*
 * Known coverage: a branch never taken, a function never called, a loop
 * with a branch both ways; the same source runs natively under gcov
 * (tests/boot/test_coverage.py compares them line by line).
 *
 * SPDX-License-Identifier: MIT
 */
static volatile int sink;

int classify(int x)
{
    if (x < 0) {
        return -1;
    } else if (x == 0) {
        return 0;
    }
    return 1;
}

void never_called(void)
{
    sink = 42;
}

int sum_to(int n)
{
    int total = 0;

    for (int i = 0; i < n; i++) {
        if (i % 3 == 0) {
            total += i;
        } else {
            total -= 1;
        }
    }
    return total;
}

int main(void)
{
    sink = classify(5) + classify(7);
    sink += sum_to(10);
    if (sink > 1000000) {
        never_called();
    }
    return 0;
}
