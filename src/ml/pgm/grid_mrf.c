/*
 * grid_mrf.c - the binary denoising MRF on a 4-neighbour grid (see
 * grid_mrf.h).
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "pgm/grid_mrf.h"

enum { UP = 0, DOWN = 1, LEFT = 2, RIGHT = 3 };

/* sum_j x_j over the neighbours of pixel (r, c) */
static inline double neighbour_sum(const double *x, int64_t H, int64_t W, int64_t r, int64_t c) {
  const int64_t i = r * W + c;
  double s = 0;
  if (r > 0) s += x[i - W];
  if (r < H - 1) s += x[i + W];
  if (c > 0) s += x[i - 1];
  if (c < W - 1) s += x[i + 1];
  return s;
}

double luma_grid_energy(const double *x, const double *f, double beta, int64_t H, int64_t W) {
  double pairs = 0, field = 0;
  for (int64_t r = 0; r < H; r++)
    for (int64_t c = 0; c < W; c++) {
      const int64_t i = r * W + c;
      if (c < W - 1) pairs += x[i] * x[i + 1];
      if (r < H - 1) pairs += x[i] * x[i + W];
      field += f[i] * x[i];
    }
  return -beta * pairs - field;
}

luma_LoopStatus luma_grid_icm(luma_Threads *t, double *x, const double *f, double beta,
                              int64_t H, int64_t W, int64_t max_sweeps, int64_t *sweeps,
                              int64_t *changed) {
  *sweeps = 0;
  *changed = 0;
  for (int64_t sweep = 0; sweep < max_sweeps; sweep++) {
    if (luma_work_charge(t, (uint64_t)(6 * H * W)) != LUMA_LOOP_DONE) return luma_work_status(t);
    int64_t flips = 0;
    for (int64_t r = 0; r < H; r++)
      for (int64_t c = 0; c < W; c++) {
        const int64_t i = r * W + c;
        const double local = f[i] + beta * neighbour_sum(x, H, W, r, c);
        /* E changes by 2 x_i local when x_i flips: flip only when that lowers it */
        if (x[i] * local < 0) {
          x[i] = -x[i];
          flips++;
        }
      }
    *sweeps = sweep + 1;
    *changed = flips;
    if (flips == 0) break;
  }
  return LUMA_LOOP_DONE;
}

luma_LoopStatus luma_grid_gibbs(luma_Threads *t, luma_Rng *rng, double *x, const double *f,
                                double beta, int64_t H, int64_t W, int64_t burn_in,
                                int64_t n_sweeps, double *freq) {
  const int64_t n = H * W;
  for (int64_t i = 0; i < n; i++) freq[i] = 0;
  for (int64_t sweep = 0; sweep < burn_in + n_sweeps; sweep++) {
    if (luma_work_charge(t, (uint64_t)(30 * n)) != LUMA_LOOP_DONE) return luma_work_status(t);
    for (int64_t r = 0; r < H; r++)
      for (int64_t c = 0; c < W; c++) {
        const int64_t i = r * W + c;
        const double local = f[i] + beta * neighbour_sum(x, H, W, r, c);
        const double p_plus = 1 / (1 + exp(-2 * local));
        x[i] = luma_rng_uniform(rng) < p_plus ? 1 : -1;
      }
    if (sweep >= burn_in)
      for (int64_t i = 0; i < n; i++) freq[i] += x[i] > 0;
  }
  if (n_sweeps > 0)
    for (int64_t i = 0; i < n; i++) freq[i] /= (double)n_sweeps;
  return LUMA_LOOP_DONE;
}

/* ---------------------------------------------------------- belief propagation */

/* Rows per chunk: about 4096 pixels, a few tens of microseconds. */
static int64_t bp_grain(int64_t W) {
  const int64_t g = 4096 / (W > 0 ? W : 1);
  return g > 0 ? g : 1;
}

int64_t luma_grid_bp_chunks(int64_t H, int64_t W) {
  const int64_t g = bp_grain(W);
  return H > 0 ? (H + g - 1) / g : 0;
}

typedef struct BpJob {
  const double *fa, *fb; /* the field factors exp(f_i) and exp(-f_i), over exp(|f_i|) */
  const double *msg;
  double *next, *errs;
  int64_t H, W;
  double coupling; /* exp(-2 |beta|) */
  int attractive;  /* beta >= 0 */
  int max_product;
  double damping;
} BpJob;

/* The two unnormalized values b(+1), b(-1) of a pixel's belief without
 * the message from direction skip (-1: with all four), from its field
 * factors fa, fb. */
static inline void local_belief(const double *in, double fa, double fb, int skip, double *plus,
                                double *minus) {
  double a = fa, b = fb;
  for (int d = 0; d < 4; d++) {
    if (d == skip) continue;
    a *= in[d];
    b *= 1 - in[d];
  }
  *plus = a;
  *minus = b;
}

/* The message to a neighbour from a pixel whose belief without that
 * neighbour's message is (a, b), normalized to its value at +1. */
static inline double bp_message(const BpJob *job, double a, double b) {
  const double p = a / (a + b), q = 1 - p;
  /* psi(x_i, x_j) = exp(beta x_i x_j) over exp(|beta|): s for equal spins,
   * o for opposite ones (1 for the pair the coupling favours, else
   * exp(-2 |beta|)) */
  const double s = job->attractive ? 1 : job->coupling, o = job->attractive ? job->coupling : 1;
  double up, down; /* the message at x_j = +1 and -1 */
  if (job->max_product) {
    up = fmax(s * p, o * q);
    down = fmax(o * p, s * q);
  } else {
    up = s * p + o * q;
    down = o * p + s * q;
  }
  return up / (up + down);
}

static void bp_chunk(void *ctx, int64_t k, int64_t r0, int64_t r1) {
  const BpJob *job = ctx;
  const int64_t H = job->H, W = job->W;
  const double keep = job->damping, take = 1 - job->damping;
  double err = 0;
  for (int64_t r = r0; r < r1; r++)
    for (int64_t c = 0; c < W; c++) {
      const int64_t i = r * W + c;
      const double *in = job->msg + 4 * i;
      /* (neighbour, the slot of i's message among its incoming ones, the direction of i's own) */
      int64_t to[4] = {-1, -1, -1, -1};
      if (r > 0) to[UP] = 4 * (i - W) + DOWN;
      if (r < H - 1) to[DOWN] = 4 * (i + W) + UP;
      if (c > 0) to[LEFT] = 4 * (i - 1) + RIGHT;
      if (c < W - 1) to[RIGHT] = 4 * (i + 1) + LEFT;
      for (int d = 0; d < 4; d++) {
        if (to[d] < 0) continue;
        double a, b;
        local_belief(in, job->fa[i], job->fb[i], d, &a, &b);
        const double old = job->msg[to[d]];
        const double m = take * bp_message(job, a, b) + keep * old;
        const double change = fabs(m - old);
        if (change > err) err = change;
        job->next[to[d]] = m;
      }
    }
  job->errs[k] = err;
}

luma_LoopStatus luma_grid_bp(luma_Threads *t, const double *f, double beta, int64_t H,
                             int64_t W, int max_product, double damping, double tol,
                             int64_t max_iter, double *msg, double *next, double *errs,
                             double *factors, double *belief, int64_t *iters, double *delta) {
  const int64_t n = H * W, chunks = luma_grid_bp_chunks(H, W);
  /* exp(f) and exp(-f) scaled by exp(-|f|): the larger is 1, the smaller
   * cannot overflow */
  double *fa = factors, *fb = factors + n;
  if (luma_work_charge(t, (uint64_t)(20 * n)) != LUMA_LOOP_DONE) return luma_work_status(t);
  for (int64_t i = 0; i < n; i++) {
    fa[i] = f[i] >= 0 ? 1 : exp(2 * f[i]);
    fb[i] = f[i] >= 0 ? exp(-2 * f[i]) : 1;
  }
  BpJob job = {fa, fb, msg, next, errs, H, W, exp(-2 * fabs(beta)), beta >= 0, max_product, damping};
  /* slots with no neighbour keep their neutral 1/2 in both buffers */
  memcpy(next, msg, (size_t)(4 * n) * sizeof(double));
  *iters = 0;
  *delta = INFINITY;
  double *cur = msg, *nxt = next;
  for (int64_t it = 0; it < max_iter; it++) {
    job.msg = cur;
    job.next = nxt;
    luma_Loop loop = {H, bp_grain(W), (uint64_t)(60 * W), 0, bp_chunk, &job};
    const luma_LoopStatus st = luma_parallel_for(t, &loop);
    if (st != LUMA_LOOP_DONE) return st;
    double err = 0;
    for (int64_t k = 0; k < chunks; k++)
      if (errs[k] > err) err = errs[k];
    double *tmp = cur;
    cur = nxt;
    nxt = tmp;
    *iters = it + 1;
    *delta = err;
    if (err < tol) break;
  }
  if (cur != msg) memcpy(msg, cur, (size_t)(4 * n) * sizeof(double));
  if (luma_work_charge(t, (uint64_t)(10 * n)) != LUMA_LOOP_DONE) return luma_work_status(t);
  for (int64_t i = 0; i < n; i++) {
    double a, b;
    local_belief(msg + 4 * i, fa[i], fb[i], -1, &a, &b);
    belief[i] = a / (a + b);
  }
  return LUMA_LOOP_DONE;
}

/* ---------------------------------------------------------------- graph cut */

void luma_grid_cut_graph(luma_Maxflow *g, const double *f, double beta, int64_t H, int64_t W) {
  const int64_t n = H * W;
  int64_t a = 0;
  /* arcs of each pixel in the order up, left, right, down */
  for (int64_t r = 0; r < H; r++)
    for (int64_t c = 0; c < W; c++) {
      const int64_t i = r * W + c;
      g->first[i] = a;
      a += (r > 0) + (c > 0) + (c < W - 1) + (r < H - 1);
    }
  g->first[n] = a;
  g->arcs = a;
  const double w = 2 * beta;
  for (int64_t r = 0; r < H; r++)
    for (int64_t c = 0; c < W; c++) {
      const int64_t i = r * W + c;
      int64_t at = g->first[i];
      if (r > 0) {
        /* the sister is the last arc (down) of the pixel above */
        g->head[at] = i - W;
        g->sister[at] = g->first[i - W + 1] - 1;
        g->rcap[at++] = w;
      }
      if (c > 0) {
        /* the pixel on the left: its right arc comes after its up and left ones */
        const int64_t k = i - 1;
        g->head[at] = k;
        g->sister[at] = g->first[k] + (r > 0) + (c - 1 > 0);
        g->rcap[at++] = w;
      }
      if (c < W - 1) {
        const int64_t k = i + 1;
        g->head[at] = k;
        g->sister[at] = g->first[k] + (r > 0); /* its left arc, after its up arc */
        g->rcap[at++] = w;
      }
      if (r < H - 1) {
        const int64_t k = i + W;
        g->head[at] = k;
        g->sister[at] = g->first[k]; /* its up arc comes first */
        g->rcap[at++] = w;
      }
      /* source side = +1: a pixel at -1 cuts s -> i (capacity 2 max(f, 0)),
       * at +1 cuts i -> t (2 max(-f, 0)); only the difference is kept */
      g->tcap[i] = 2 * f[i];
    }
  g->flow = 0;
}
