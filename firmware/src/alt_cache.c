/*
 * Nios II HAL cache API on boards without a modelled cache: barriers,
 * and ordinary memory for "uncached" memory (see sys/alt_cache.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdlib.h>
#include "sys/alt_cache.h"

static void data_barrier(void)
{
#if defined(__riscv)
    __asm__ volatile("fence rw, rw" : : : "memory");
#elif __ARM_ARCH == 6 && !defined(__ARM_ARCH_6M__)
    /* ARMv6 (ARM1176): the barriers are CP15 operations */
    __asm__ volatile("mcr p15, 0, %0, c7, c10, 4" : : "r"(0) : "memory");
#else
    __asm__ volatile("dsb sy" : : : "memory");
#endif
}

static void instruction_barrier(void)
{
#if defined(__riscv)
    __asm__ volatile("fence rw, rw\n\tfence.i" : : : "memory");
#elif __ARM_ARCH == 6 && !defined(__ARM_ARCH_6M__)
    __asm__ volatile("mcr p15, 0, %0, c7, c10, 4\n\t"   /* DSB */
                     "mcr p15, 0, %0, c7, c5, 4"        /* ISB */
                     : : "r"(0) : "memory");
#else
    __asm__ volatile("dsb sy\n\tisb" : : : "memory");
#endif
}

void alt_dcache_flush(void *start, alt_u32 len)
{
    (void)start;
    (void)len;
    data_barrier();
}

void alt_dcache_flush_all(void)
{
    data_barrier();
}

void alt_dcache_flush_no_writeback(void *start, alt_u32 len)
{
    (void)start;
    (void)len;
    data_barrier();
}

void alt_icache_flush(void *start, alt_u32 len)
{
    (void)start;
    (void)len;
    instruction_barrier();
}

void alt_icache_flush_all(void)
{
    instruction_barrier();
}

volatile void *alt_uncached_malloc(size_t size)
{
    return malloc(size);
}

void alt_uncached_free(volatile void *ptr)
{
    free((void *)ptr);
}

volatile void *alt_remap_uncached(void *ptr, alt_u32 len)
{
    (void)len;
    return ptr;
}

void *alt_remap_cached(volatile void *ptr, alt_u32 len)
{
    (void)len;
    return (void *)ptr;
}
