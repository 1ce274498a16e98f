/*
 * budget.h - native work charged to a state's limits (threads.c, state.c),
 * for bindings; kernels use the meter of core/parallel.h.
 *
 * One unit is about one element touched by a simple operation; the
 * instruction budget counts VM instructions and units together
 * (docs/EMBEDDING.md, "Cost model").
 * SPDX-License-Identifier: MIT
 */
#ifndef LUMA_VM_BUDGET_H
#define LUMA_VM_BUDGET_H

#include <stdint.h>

#include "core.h"
#include "core/parallel.h"

/* Forgets what the pool's meter spent in an earlier run (called by
 * luma_state_restart_budget, before each luma_run_* / luma_pcall). */
void luma_threads_new_run(lua_State *L);

/* Charges `units` of native work done (or about to be done) by the
 * calling binding, outside any kernel, straight to the state's
 * instruction count: raises the limit error when the budget is exceeded,
 * or "interrupted!", as a native loop would (and the time-limit error:
 * the clock is read whenever the units charged pass a multiple of
 * LUMA_CHARGE_CLOCK_UNITS, so many small charges meet the deadline as one
 * large charge does).  Costs a few nanoseconds: fine once per call, or per
 * chunk of a loop in a binding. */
void luma_charge(lua_State *L, uint64_t units);
#define LUMA_CHARGE_CLOCK_UNITS 4096

/* The meter for a kernel about to do about `units` of work: for less
 * than LUMA_WORK_CHUNK units the estimate is charged at once (as
 * luma_charge) and the result is NULL, so the kernel runs unmetered;
 * otherwise the pool's meter (luma_threads_of), which the kernel charges
 * as it goes.  Either way end with luma_meter_done, which raises the
 * limit, interrupt or time error if the kernel stopped. */
struct luma_Threads *luma_meter(lua_State *L, uint64_t units);
void luma_meter_done(lua_State *L, struct luma_Threads *t);

/* Before a call that cannot be interrupted (one BLAS or LAPACK call):
 * refuses it with the limit error, naming `what` and its estimated cost,
 * when the cost exceeds what is left of the budget; otherwise charges it. */
void luma_charge_uninterruptible(lua_State *L, double cost, const char *what);

/* Raises the instruction-limit error for a call refused in advance (the
 * message names it, its cost and the budget left); uncatchable like
 * luma_state_limit_error. */
int luma_state_refuse_cost(lua_State *L, const char *what, double cost, uint64_t left);

#endif
