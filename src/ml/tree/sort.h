/*
 * sort.h - sorting the values of one feature (no Lua): an LSD radix sort
 * of float64 bit patterns, shared by the tree ranking (tree.c) and the
 * histogram binning (ensemble/hist.c).
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_ML_TREE_SORT_H
#define LUMA_ML_TREE_SORT_H

#include <stddef.h>
#include <stdint.h>

/* Scratch bytes luma_argsort_doubles needs for n values. */
size_t luma_argsort_work_bytes(int64_t n);

/* order[i] = the index of the i-th smallest of v[0..n) (no NaN; equal
 * values keep their index order).  work holds luma_argsort_work_bytes(n)
 * bytes, 8-byte aligned. */
void luma_argsort_doubles(const double *v, int64_t n, int32_t *order, void *work);

#endif
