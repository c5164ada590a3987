/*
 * The half of the HAL API test that repeats the vendor's prototypes.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef HAL_VENDOR_DECL_H
#define HAL_VENDOR_DECL_H

#include "alt_types.h"

/* Section n's time read through the vendor-declared getter */
alt_u64 vendor_decl_section_time(int n);

#endif
