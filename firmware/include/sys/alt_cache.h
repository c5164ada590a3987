/*
 * Nios II HAL cache API.
 *
 * None of the boards has a cache QEMU models (QEMU keeps memory and
 * translated code coherent itself), so there is nothing to flush: the
 * data cache calls are memory barriers, the instruction cache calls
 * instruction barriers, which is all that code relying on a flush for
 * ordering needs.  Uncached memory is ordinary memory: the
 * uncached allocator is malloc(), the remaps return their argument.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef __ALT_CACHE_H__
#define __ALT_CACHE_H__

#include <stddef.h>
#include "alt_types.h"

#ifdef __cplusplus
extern "C" {
#endif

extern void alt_dcache_flush(void *start, alt_u32 len);
extern void alt_dcache_flush_all(void);
extern void alt_dcache_flush_no_writeback(void *start, alt_u32 len);
extern void alt_icache_flush(void *start, alt_u32 len);
extern void alt_icache_flush_all(void);
extern volatile void *alt_uncached_malloc(size_t size);
extern void alt_uncached_free(volatile void *ptr);
extern volatile void *alt_remap_uncached(void *ptr, alt_u32 len);
extern void *alt_remap_cached(volatile void *ptr, alt_u32 len);

#ifdef __cplusplus
}
#endif

#endif
