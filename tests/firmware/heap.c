/*
 * heap: a fixed sequence of allocations through the C library, whose
 * figures tests/boot/test_heap.py knows in advance (bytes requested):
 *
 *   a = malloc(100)          100 in use
 *   b = malloc(200)          300
 *   free(a)                  200
 *   c = calloc(10, 8)        280
 *   b = realloc(b, 400)      480, the peak
 *   malloc(1 GiB)            fails: NULL
 *   free(b)                   80
 *   e = malloc(64)           144
 *   free(c)                   64, held at the end
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>

/* Where the blocks go, so that the compiler keeps every call */
static void *volatile kept[4];

int main(void)
{
    kept[0] = malloc(100);
    kept[1] = malloc(200);
    free(kept[0]);
    kept[2] = calloc(10, 8);
    kept[1] = realloc(kept[1], 400);
    kept[3] = malloc(1u << 30);
    free(kept[1]);
    kept[0] = malloc(64);
    free(kept[2]);
    printf("heap: %s, the 1 GiB request %s\n",
           kept[0] && kept[1] && kept[2] ? "allocated" : "FAILED",
           kept[3] ? "ALLOCATED" : "failed");
    return 0;
}
