/*
 * Cycles of UIC-ESLAS/Dilithium-Multi-Moduli's assembly (the artifact of
 * "Revisiting Keccak and Dilithium Implementations on ARMv7-M"),
 * measured as its authors measured them on silicon, for scripts/bench
 * --dilithium-mm (docs/cycles.md, "Against silicon").  Their harness
 * (crypto_sign/f_speed.c) reads SysTick around one call; we put one
 * section of the counter core around the same call.  The code is not
 * ours and is not in this repository: the bench compiles it from the
 * user's checkout with this program, which is built in one of three
 * ways:
 *
 *   -DKECCAK_ONLY        only KeccakF1600_StatePermute (linked with
 *                        M3/common/keccakf1600.S, theirs, or
 *                        keccakf1600_XKCP.S, the XKCP one they compare
 *                        with; both keep the state bit-interleaved);
 *   -DM3PLANT            that, and crypto_sign/dilithium2/m3plant's
 *                        NTTs (the constant-time schoolbook MUL/MLA one
 *                        and the SMULL "leaktime" one), inverse NTTs,
 *                        pointwise multiplications, the 16-bit NTT
 *                        modulo 769 and its inverse, and the two-moduli
 *                        NTT (769 and 3329);
 *   -DM4OLD              that, and M4 crypto_sign/dilithium2/old's NTT,
 *                        inverse NTT and pointwise multiplication.
 *
 * The calls are theirs: poly_ntt(&buf) and the like (the checkout's C
 * wrappers in poly.c), KeccakF1600_StatePermute(state) on the state
 * shake256_inc_init leaves (zeros), the small NTTs through the macros
 * of the checkout's smallntt.h.  Every result is checked where a cheap
 * check exists, on inputs of our own before the measured runs: the
 * first lane of Keccak-f[1600] of the zero state, an inverse NTT
 * followed by the NTT giving back the input times the Montgomery
 * factor 2^32 mod q (the inverse first: poly.c wants its inputs below
 * q in absolute value, which the NTT's outputs are not), the pointwise
 * product times 2^32 equal to the product mod q, and the small NTTs'
 * round trip giving back the input times one constant (the inverse
 * first too: the other order comes back wrong modulo 3329).
 *
 * The SMULL code's time depends on the data (the Cortex-M3's long
 * multiplies terminate early).  f_speed.c runs its calls in a loop on
 * the same buffer, so the timed calls see what the calls before them
 * left there; we run its sequence twice from a deterministic start and
 * print the second pass, which is what 99 of its 100 iterations saw.
 *
 * Prints "name clocks=N" per routine, N the section's estimated cycles
 * (the call and the END store); "wrong" when a check fails.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "silicon_section.h"

#include "keccakf1600.h"
#ifndef KECCAK_ONLY
#include "params.h"
#include "poly.h"
#include "smallntt.h"
#endif

#define CPACR (*(volatile uint32_t *)0xE000ED88)
#define CPACR_CP10_CP11 (0xfu << 20)

static int wrong;

static void report(const char *name, int pass)
{
    uint64_t clocks = measured();

    if (pass) {
        printf("%s clocks=%llu\n", name, (unsigned long long)clocks);
    }
}

/* Time one call the way f_speed.c does, printed on the pass that counts */
#define TIMED(name, pass, call) \
    do { \
        PERF_BEGIN(PERF, 1); \
        call; \
        PERF_END(PERF, 1); \
        report(name, pass); \
    } while (0)

static void check(const char *name, int ok)
{
    if (!ok) {
        printf("%s: wrong result\n", name);
        wrong = 1;
    }
}

/* Keccak-f[1600] of the zero state: its first lane is F1258F7940E1DDE7 */
static void keccak(void)
{
    static uint64_t state[26] __attribute__((aligned(8)));
    static const uint8_t first_lane[8] = {
        0xe7, 0xdd, 0xe1, 0x40, 0x79, 0x8f, 0x25, 0xf1,
    };
    uint8_t lane[8];

    TIMED("keccak", 1, KeccakF1600_StatePermute(state));
    KeccakF1600_StateExtractBytes(state, lane, 0, sizeof(lane));
    check("keccak", !memcmp(lane, first_lane, sizeof(lane)));
}

#ifndef KECCAK_ONLY
#define MONT 4193792            /* 2^32 mod Q */

static uint32_t seed = 1;

/* A deterministic sequence (a 32-bit LCG's top bits) */
static uint32_t next_random(void)
{
    seed = seed * 1664525u + 1013904223u;
    return seed >> 8;
}

static int congruent(int64_t a, int64_t b, int64_t modulus)
{
    return (a - b) % modulus == 0;
}

static void random_poly(poly *p)
{
    for (unsigned i = 0; i < N; i++) {
        p->coeffs[i] = (int32_t)(next_random() % (2 * Q - 1)) - (Q - 1);
    }
}

/* invntt then ntt: the input times 2^32 mod Q */
static void check_round_trip(const char *name, void (*forward)(poly *),
                             void (*inverse)(poly *))
{
    static poly p, in;
    int ok = 1;

    random_poly(&in);
    p = in;
    inverse(&p);
    forward(&p);
    for (unsigned i = 0; i < N; i++) {
        ok &= congruent(p.coeffs[i], (int64_t)in.coeffs[i] * MONT, Q);
    }
    check(name, ok);
}

/* c = a b 2^-32 mod Q */
static void check_pointwise(const char *name,
                            void (*multiply)(poly *, const poly *,
                                             const poly *))
{
    static poly a, b, c;
    int ok = 1;

    random_poly(&a);
    random_poly(&b);
    multiply(&c, &a, &b);
    for (unsigned i = 0; i < N; i++) {
        ok &= congruent((int64_t)c.coeffs[i] * MONT,
                        (int64_t)a.coeffs[i] * b.coeffs[i], Q);
    }
    check(name, ok);
}

/* The checkout's own wrappers, by address for the checks */
static void ntt(poly *p) { poly_ntt(p); }
static void invntt(poly *p) { poly_invntt_tomont(p); }
static void basemul(poly *c, const poly *a, const poly *b)
{
    poly_pointwise_montgomery(c, a, b);
}
#endif

#ifdef M3PLANT
#include "smallpoly.h"

static void ntt_leaktime(poly *p) { poly_ntt_leaktime(p); }
static void invntt_leaktime(poly *p) { poly_invntt_tomont_leaktime(p); }
static void basemul_leaktime(poly *c, const poly *a, const poly *b)
{
    poly_pointwise_montgomery_leaktime(c, a, b);
}

/* out = k in mod modulus for one k and every coefficient (in[0] 1) */
static int scaled(const int16_t *out, const int16_t *in, unsigned n,
                  int32_t modulus)
{
    int32_t k;

    for (k = 1; k < modulus; k++) {
        if (congruent(out[0], (int64_t)k * in[0], modulus)) {
            break;
        }
    }
    for (unsigned i = 0; i < n; i++) {
        if (!congruent(out[i], (int64_t)k * in[i], modulus)) {
            return 0;
        }
    }
    return 1;
}

/* Small coefficients (-2..2, as s1 and s2 have), the first 1 */
static void random_small(int16_t *a, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        a[i] = (int16_t)(next_random() % 5) - 2;
    }
    a[0] = 1;
}

static void check_small(void)
{
    /* (aligned as a poly: the assembly loads words and pairs) */
    static int16_t in[2 * N], a[2 * N] __attribute__((aligned(32)));

    random_small(in, N);
    memcpy(a, in, N * sizeof(*a));
    small_invntt_tomont(a);
    small_ntt(a);
    check("small_ntt", scaled(a, in, N, 769));

    random_small(in, N);
    random_small(in + N, N);
    memcpy(a, in, sizeof(a));
    double_invntt(a);
    double_ntt(a);
    check("multi_moduli_ntt", scaled(a, in, N, 769) &&
          scaled(a + N, in + N, N, 3329));
}

static void measure(void)
{
    static poly buf, a1;
    static int16_t a[N] __attribute__((aligned(32)));

    check_round_trip("ntt", ntt, invntt);
    check_round_trip("ntt_leaktime", ntt_leaktime, invntt_leaktime);
    check_pointwise("basemul", basemul);
    check_pointwise("basemul_leaktime", basemul_leaktime);
    check_small();

    random_poly(&buf);
    random_poly(&a1);
    random_small(a, N);
    /* f_speed.c's order, on its buffers */
    for (int pass = 0; pass < 2; pass++) {
        TIMED("ntt_leaktime", pass, poly_ntt_leaktime(&buf));
        TIMED("invntt_leaktime", pass, poly_invntt_tomont_leaktime(&buf));
        TIMED("basemul_leaktime", pass,
              poly_pointwise_montgomery_leaktime(&buf, &buf, &buf));
        TIMED("ntt", pass, poly_ntt(&buf));
        TIMED("invntt", pass, poly_invntt_tomont(&buf));
        TIMED("basemul", pass, poly_pointwise_montgomery(&buf, &buf, &buf));
        TIMED("multi_moduli_ntt", pass, poly_double_ntt(&a1));
        TIMED("small_ntt", pass, small_ntt(a));
        TIMED("small_invntt", pass, small_invntt_tomont(a));
    }
}
#endif

#ifdef M4OLD
static void measure(void)
{
    static poly buf;

    check_round_trip("NTT", ntt, invntt);
    check_pointwise("basemul", basemul);

    random_poly(&buf);
    /* f_speed.c's order, on its buffer */
    for (int pass = 0; pass < 2; pass++) {
        TIMED("NTT", pass, poly_ntt(&buf));
        TIMED("iNTT", pass, poly_invntt_tomont(&buf));
        TIMED("basemul", pass, poly_pointwise_montgomery(&buf, &buf, &buf));
    }
}
#endif

int main(void)
{
#ifdef __ARM_FP
    /* The M4 NTT keeps values in FPU registers (VMOV, VLDM) */
    CPACR |= CPACR_CP10_CP11;
    __asm__ volatile("dsb\n\tisb");
#endif
    PERF_RESET(PERF);
    PERF_START_MEASURING(PERF);
#ifndef KECCAK_ONLY
    measure();
#endif
    keccak();
    PERF_STOP_MEASURING(PERF);
    return wrong;
}
