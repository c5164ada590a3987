/*
 * Cycles of jnk0le/cortexm-AES's assembly ciphers, measured as their
 * author measured them on STM32 silicon (a counter read around one
 * call), for scripts/bench --cortexm-aes (docs/cycles.md, "Against
 * silicon").  The ciphers are not ours and are not in this repository:
 * the bench compiles them from the user's checkout with this program.
 * Built with -DENCRYPT=<the checkout's encrypt function> and, where the
 * checkout has one for the core, -DKEYSCHEDULE=<its AES-128 key
 * schedule>, and linked with the checkout's lookup tables
 * (aes/lookup_tables.c: the S-box and T tables the ciphers read).  The
 * reference key expansion is ours.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "silicon_section.h"


void ENCRYPT(uint8_t *rk, const uint8_t *in, uint8_t *out, size_t rounds);
#ifdef KEYSCHEDULE
void KEYSCHEDULE(uint8_t *rk, const uint8_t *key);
#endif

/* The S-box of the reference key expansion */
static uint8_t sbox[256];

static uint8_t xtime(uint8_t x)
{
    return (uint8_t)(x << 1 ^ (x >> 7) * 0x1b);
}

static uint8_t rotl8(uint8_t x, unsigned n)
{
    return (uint8_t)(x << n | x >> (8 - n));
}

static void make_sbox(void)
{
    uint8_t p = 1, q = 1;

    /* p runs through the powers of 3, q through their inverses */
    do {
        p ^= xtime(p);
        q ^= q << 1;
        q ^= q << 2;
        q ^= q << 4;
        if (q & 0x80) {
            q ^= 0x09;
        }
        sbox[p] = q ^ rotl8(q, 1) ^ rotl8(q, 2) ^ rotl8(q, 3) ^
                  rotl8(q, 4) ^ 0x63;
    } while (p != 1);
    sbox[0] = 0x63;
}

/* FIPS-197 key expansion: nk key words, rounds + 1 round keys */
static void expand_key(const uint8_t *key, unsigned nk, uint8_t *rk,
                       unsigned rounds)
{
    uint8_t rcon = 1;

    memcpy(rk, key, 4 * nk);
    for (unsigned i = nk; i < 4 * (rounds + 1); i++) {
        uint8_t t[4];

        memcpy(t, rk + 4 * (i - 1), 4);
        if (i % nk == 0) {
            uint8_t first = t[0];

            t[0] = sbox[t[1]] ^ rcon;
            t[1] = sbox[t[2]];
            t[2] = sbox[t[3]];
            t[3] = sbox[first];
            rcon = xtime(rcon);
        } else if (nk > 6 && i % nk == 4) {
            for (unsigned j = 0; j < 4; j++) {
                t[j] = sbox[t[j]];
            }
        }
        for (unsigned j = 0; j < 4; j++) {
            rk[4 * i + j] = rk[4 * (i - nk) + j] ^ t[j];
        }
    }
}

static uint32_t rk[60] __attribute__((aligned(8)));
static uint8_t in[16] __attribute__((aligned(4)));
static uint8_t out[16] __attribute__((aligned(4)));


int main(void)
{
    /* FIPS-197 appendix C.1: AES-128 of 00112233...ff under 00010203... */
    static const uint8_t expected[16] = {
        0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30,
        0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a,
    };
    uint8_t key[32];
    int wrong = 0;

    make_sbox();
    for (unsigned i = 0; i < sizeof(key); i++) {
        key[i] = i;
    }
    for (unsigned i = 0; i < sizeof(in); i++) {
        in[i] = i * 0x11;
    }
    PERF_RESET(PERF);
    PERF_START_MEASURING(PERF);
    for (unsigned nk = 4; nk <= 8; nk += 2) {
        unsigned rounds = nk + 6;

        expand_key(key, nk, (uint8_t *)rk, rounds);
        ENCRYPT((uint8_t *)rk, in, out, rounds);
        measured();
        PERF_BEGIN(PERF, 1);
        ENCRYPT((uint8_t *)rk, in, out, rounds);
        PERF_END(PERF, 1);
        printf("encrypt<%u> clocks=%llu\n", 32 * nk,
               (unsigned long long)measured());
        if (nk == 4 && memcmp(out, expected, sizeof(out))) {
            printf("encrypt<128>: wrong ciphertext\n");
            wrong = 1;
        }
    }
#ifdef KEYSCHEDULE
    {
        static uint32_t reference[44];

        expand_key(key, 4, (uint8_t *)reference, 10);
        PERF_BEGIN(PERF, 1);
        KEYSCHEDULE((uint8_t *)rk, key);
        PERF_END(PERF, 1);
        printf("setEncKey<128> clocks=%llu\n",
               (unsigned long long)measured());
        if (memcmp(rk, reference, sizeof(reference))) {
            printf("setEncKey<128>: wrong round keys\n");
            wrong = 1;
        }
    }
#endif
    PERF_STOP_MEASURING(PERF);
    return wrong;
}
