/*
 * The Nios II HAL's small stdio under its other include name.
 *
 * SPDX-License-Identifier: MIT
 */
#include "sys/alt_stdio.h"
