/*
 * A compute loop for scripts/bench: a bitwise CRC-32 over a buffer,
 * repeated, with no calls in the loop (about 60 million instructions),
 * the other shape of code sampling must be cheap on (bench_calls.c is
 * the call-heavy one).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdio.h>

#define BYTES 1024
#define ROUNDS 1536

static uint8_t buffer[BYTES];

int main(void)
{
    uint32_t crc = 0xffffffffu;
    unsigned round, i, bit;

    for (i = 0; i < BYTES; i++) {
        buffer[i] = (uint8_t)(i * 37 + 11);
    }
    for (round = 0; round < ROUNDS; round++) {
        for (i = 0; i < BYTES; i++) {
            crc ^= buffer[i];
            for (bit = 0; bit < 8; bit++) {
                crc = crc >> 1 ^ (0xedb88320u & -(crc & 1));
            }
        }
    }
    printf("crc32 of %u rounds: 0x%08lx\n", ROUNDS,
           (unsigned long)~crc);
    return 0;
}
