/*
 * Nios II HAL integer types, for source compatibility.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef ALT_TYPES_H
#define ALT_TYPES_H

#include <stdint.h>

typedef int8_t alt_8;
typedef uint8_t alt_u8;
typedef int16_t alt_16;
typedef uint16_t alt_u16;
typedef int32_t alt_32;
typedef uint32_t alt_u32;
typedef int64_t alt_64;
typedef uint64_t alt_u64;

/* What the HAL's own headers use to inline their small functions */
#define ALT_INLINE __inline__
#define ALT_ALWAYS_INLINE __attribute__((always_inline))

#endif
