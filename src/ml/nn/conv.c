/*
 * conv.c - im2col convolution and pooling with their backward passes
 * (conv.h).
 * SPDX-License-Identifier: MIT
 */
#include "nn/conv.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>

#include "core/matrix_ops.h"

static int64_t out_size(int64_t n, int64_t k, int64_t s, int64_t p, int64_t d) {
  int64_t span = n + 2 * p - d * (k - 1) - 1;
  return span < 0 ? 0 : span / s + 1;
}

int luma_nn_conv_shape(luma_NnConv *c) {
  c->out_h = out_size(c->height, c->k_h, c->stride_h, c->pad_h, c->dil_h);
  c->out_w = out_size(c->width, c->k_w, c->stride_w, c->pad_w, c->dil_w);
  return c->out_h > 0 && c->out_w > 0;
}

/* A row-major rows x cols view of memory at p. */
static luma_Mat view(double *p, int64_t rows, int64_t cols) {
  luma_Mat m = {p, rows, cols, cols, 1};
  return m;
}

/* The transpose of a row-major view (no copy: dgemm reads it transposed). */
static luma_Mat transposed(const luma_Mat *m) {
  luma_Mat t = {m->data, m->cols, m->rows, m->cs, m->rs};
  return t;
}

/* The receptive fields of channels [c0, c0 + cg) of the sample x as the
 * columns of col ((cg kH kW) x (oH oW)); outside the input, zeros. */
static void im2col(const luma_NnConv *c, const double *x, int64_t c0, int64_t cg, double *col) {
  const int64_t H = c->height, Wd = c->width, oh = c->out_h, ow = c->out_w;
  for (int64_t ch = 0; ch < cg; ch++) {
    const double *plane = x + (c0 + ch) * H * Wd;
    for (int64_t i = 0; i < c->k_h; i++)
      for (int64_t j = 0; j < c->k_w; j++) {
        double *row = col + ((ch * c->k_h + i) * c->k_w + j) * oh * ow;
        for (int64_t y = 0; y < oh; y++) {
          int64_t r = y * c->stride_h - c->pad_h + i * c->dil_h;
          double *dst = row + y * ow;
          if (r < 0 || r >= H) {
            memset(dst, 0, (size_t)ow * sizeof *dst);
            continue;
          }
          for (int64_t z = 0; z < ow; z++) {
            int64_t s = z * c->stride_w - c->pad_w + j * c->dil_w;
            dst[z] = s >= 0 && s < Wd ? plane[r * Wd + s] : 0.0;
          }
        }
      }
  }
}

/* The adjoint of im2col: adds each column element back onto the input
 * position it was copied from (in a fixed order: deterministic). */
static void col2im(const luma_NnConv *c, const double *col, int64_t c0, int64_t cg, double *dx) {
  const int64_t H = c->height, Wd = c->width, oh = c->out_h, ow = c->out_w;
  for (int64_t ch = 0; ch < cg; ch++) {
    double *plane = dx + (c0 + ch) * H * Wd;
    for (int64_t i = 0; i < c->k_h; i++)
      for (int64_t j = 0; j < c->k_w; j++) {
        const double *row = col + ((ch * c->k_h + i) * c->k_w + j) * oh * ow;
        for (int64_t y = 0; y < oh; y++) {
          int64_t r = y * c->stride_h - c->pad_h + i * c->dil_h;
          if (r < 0 || r >= H) continue;
          for (int64_t z = 0; z < ow; z++) {
            int64_t s = z * c->stride_w - c->pad_w + j * c->dil_w;
            if (s >= 0 && s < Wd) plane[r * Wd + s] += row[y * ow + z];
          }
        }
      }
  }
}

typedef struct ConvJob {
  const luma_NnConv *c;
  const luma_Mat *X, *W, *b, *G;
  luma_Mat *Y, *dX;
  double *cols;     /* slots im2col matrices */
  double *partials; /* backward: per chunk, dW then db */
  int slots, want_w, want_b;
  atomic_int busy[LUMA_MAX_THREADS];
} ConvJob;

static int64_t col_rows(const luma_NnConv *c) {
  return c->channels / c->groups * c->k_h * c->k_w;
}

/* Claims a free im2col matrix: at most `slots` chunks run at once and
 * each gives its matrix back before it ends, so one pass finds one. */
static int claim(ConvJob *job) {
  for (int s = 0; s < job->slots; s++)
    if (!atomic_exchange(&job->busy[s], 1)) return s;
  return 0; /* unreachable while slots >= the threads running chunks */
}

static void forward_chunk(void *ctx, int64_t k, int64_t begin, int64_t end) {
  (void)k;
  ConvJob *job = ctx;
  const luma_NnConv *c = job->c;
  const int64_t cg = c->channels / c->groups, og = c->out_channels / c->groups;
  const int64_t kk = col_rows(c), hw = c->out_h * c->out_w;
  int slot = claim(job);
  double *col = job->cols + slot * kk * hw;
  luma_Mat cm = view(col, kk, hw);
  for (int64_t n = begin; n < end; n++) {
    const double *x = job->X->data + n * job->X->rs;
    double *y = job->Y->data + n * job->Y->rs;
    for (int64_t g = 0; g < c->groups; g++) {
      im2col(c, x, g * cg, cg, col);
      luma_Mat wg = view(job->W->data + g * og * kk, og, kk);
      luma_Mat yg = view(y + g * og * hw, og, hw);
      if (job->b)
        for (int64_t o = 0; o < og; o++) {
          double bias = job->b->data[(g * og + o) * job->b->cs];
          for (int64_t q = 0; q < hw; q++) yg.data[o * hw + q] = bias;
        }
      luma_mat_gemm(1.0, &wg, &cm, job->b ? 1.0 : 0.0, &yg);
    }
  }
  atomic_store(&job->busy[slot], 0);
}

/* Samples a chunk: enough work that a chunk is worth a hand-off, fixed by
 * the shapes alone (the sums over samples are combined by chunk). */
static int64_t grain_of(int64_t n, uint64_t per_sample) {
  uint64_t g = (4 * (uint64_t)LUMA_WORK_CHUNK) / (per_sample ? per_sample : 1);
  if (g < 1) g = 1;
  if ((int64_t)g > n) g = (uint64_t)(n > 0 ? n : 1);
  return (int64_t)g;
}

static uint64_t conv_cost(const luma_NnConv *c) {
  uint64_t hw = (uint64_t)(c->out_h * c->out_w), kk = (uint64_t)col_rows(c);
  return (uint64_t)c->out_channels * kk * hw + (uint64_t)c->groups * kk * hw + 1;
}

int64_t luma_nn_conv_scratch(const luma_NnConv *c, int64_t n, int slots, int backward) {
  const double kk = (double)col_rows(c), hw = (double)(c->out_h * c->out_w);
  double total = (double)slots * kk * hw;
  if (backward && n > 0) {
    int64_t grain = grain_of(n, 2 * conv_cost(c));
    total += (double)((n + grain - 1) / grain) * ((double)c->out_channels * (kk + 1));
  }
  return total > (double)LUMA_MAX_ELEMENTS ? -1 : (int64_t)total;
}

luma_LoopStatus luma_nn_conv_forward(luma_Threads *t, const luma_NnConv *c, const luma_Mat *X,
                                     const luma_Mat *W, const luma_Mat *b, luma_Mat *Y,
                                     double *scratch, int slots) {
  if (X->rows == 0) return luma_work_status(t);
  ConvJob job = {c, X, W, b, NULL, Y, NULL, scratch, NULL, slots, 0, 0, {0}};
  uint64_t cost = conv_cost(c);
  luma_Loop loop = {X->rows, grain_of(X->rows, cost), cost, 1, forward_chunk, &job};
  return luma_parallel_for(t, &loop);
}

static void backward_chunk(void *ctx, int64_t k, int64_t begin, int64_t end) {
  ConvJob *job = ctx;
  const luma_NnConv *c = job->c;
  const int64_t cg = c->channels / c->groups, og = c->out_channels / c->groups;
  const int64_t kk = col_rows(c), hw = c->out_h * c->out_w, out = c->out_channels;
  int slot = claim(job);
  double *col = job->cols + slot * kk * hw;
  luma_Mat cm = view(col, kk, hw);
  double *dw = job->partials ? job->partials + k * (out * kk + out) : NULL;
  double *db = dw ? dw + out * kk : NULL;
  const int64_t plane = c->height * c->width;
  for (int64_t n = begin; n < end; n++) {
    const double *x = job->want_w ? job->X->data + n * job->X->rs : NULL;
    const double *gy = job->G->data + n * job->G->rs;
    double *dx = job->dX ? job->dX->data + n * job->dX->rs : NULL;
    /* col2im adds onto dx: it starts at zero, or at the bias of each
     * channel when this is a transposed convolution's forward pass */
    if (dx && job->b) {
      for (int64_t ch = 0; ch < c->channels; ch++) {
        double bias = job->b->data[ch * job->b->cs];
        for (int64_t q = 0; q < plane; q++) dx[ch * plane + q] = bias;
      }
    } else if (dx) {
      memset(dx, 0, (size_t)job->dX->cols * sizeof *dx);
    }
    for (int64_t g = 0; g < c->groups; g++) {
      luma_Mat gg = view((double *)gy + g * og * hw, og, hw);
      if (job->want_w) {
        im2col(c, x, g * cg, cg, col);
        luma_Mat dwg = view(dw + g * og * kk, og, kk);
        luma_Mat ct = transposed(&cm);
        luma_mat_gemm(1.0, &gg, &ct, 1.0, &dwg);
      }
      if (dx) {
        luma_Mat wg = view(job->W->data + g * og * kk, og, kk);
        luma_Mat wt = transposed(&wg);
        luma_mat_gemm(1.0, &wt, &gg, 0.0, &cm);
        col2im(c, col, g * cg, cg, dx);
      }
    }
    if (job->want_b)
      for (int64_t o = 0; o < out; o++) {
        double s = 0;
        for (int64_t q = 0; q < hw; q++) s += gy[o * hw + q];
        db[o] += s;
      }
  }
  atomic_store(&job->busy[slot], 0);
}

luma_LoopStatus luma_nn_conv_backward(luma_Threads *t, const luma_NnConv *c, const luma_Mat *X,
                                      const luma_Mat *W, const luma_Mat *G, luma_Mat *dX,
                                      luma_Mat *dW, luma_Mat *db, double *scratch, int slots) {
  const int64_t out = c->out_channels, kk = col_rows(c), n = X->rows;
  if (dW) memset(dW->data, 0, (size_t)(out * kk) * sizeof *dW->data);
  if (db) memset(db->data, 0, (size_t)out * sizeof *db->data);
  if (n == 0) return luma_work_status(t);
  uint64_t cost = 2 * conv_cost(c);
  int64_t grain = grain_of(n, cost), chunks = (n + grain - 1) / grain;
  double *partials = scratch + (int64_t)slots * kk * c->out_h * c->out_w;
  memset(partials, 0, (size_t)(chunks * (out * kk + out)) * sizeof *partials);
  ConvJob job = {c, X, W, NULL, G, NULL, dX, scratch, partials, slots, dW != NULL, db != NULL,
                 {0}};
  luma_Loop loop = {n, grain, cost, 1, backward_chunk, &job};
  luma_LoopStatus status = luma_parallel_for(t, &loop);
  if (status == LUMA_LOOP_DONE) {
    /* chunk by chunk in order: the same sums for any thread count */
    for (int64_t k = 0; k < chunks; k++) {
      const double *p = partials + k * (out * kk + out);
      if (dW)
        for (int64_t e = 0; e < out * kk; e++) dW->data[e] += p[e];
      if (db)
        for (int64_t o = 0; o < out; o++) db->data[o] += p[out * kk + o];
    }
  }
  return status;
}

/* ------------------------------------------------- transposed convolution
 *
 * The adjoint of the convolution c in its input: the transposed layer's
 * input is c's output (out_channels x oH x oW), its output c's input
 * (channels x H x W).  Its forward pass is therefore c's input-gradient
 * pass (col2im of W^T x) started at the bias, and its backward pass c's
 * forward (the input gradient) and c's weight gradient with the roles of
 * input and output-gradient swapped. */

int luma_nn_conv_transpose_shape(luma_NnConv *c, int64_t op_h, int64_t op_w) {
  c->height = (c->out_h - 1) * c->stride_h - 2 * c->pad_h + c->dil_h * (c->k_h - 1) + op_h + 1;
  c->width = (c->out_w - 1) * c->stride_w - 2 * c->pad_w + c->dil_w * (c->k_w - 1) + op_w + 1;
  return c->height > 0 && c->width > 0;
}

luma_LoopStatus luma_nn_conv_transpose_forward(luma_Threads *t, const luma_NnConv *c,
                                               const luma_Mat *X, const luma_Mat *W,
                                               const luma_Mat *b, luma_Mat *Y, double *scratch,
                                               int slots) {
  if (X->rows == 0) return luma_work_status(t);
  ConvJob job = {c, NULL, W, b, X, NULL, Y, scratch, NULL, slots, 0, 0, {0}};
  uint64_t cost = conv_cost(c);
  luma_Loop loop = {X->rows, grain_of(X->rows, cost), cost, 1, backward_chunk, &job};
  return luma_parallel_for(t, &loop);
}

luma_LoopStatus luma_nn_conv_transpose_backward(luma_Threads *t, const luma_NnConv *c,
                                                const luma_Mat *X, const luma_Mat *W,
                                                const luma_Mat *G, luma_Mat *dX, luma_Mat *dW,
                                                luma_Mat *db, double *scratch, int slots) {
  luma_LoopStatus status = luma_work_status(t);
  if (dX && status == LUMA_LOOP_DONE)
    status = luma_nn_conv_forward(t, c, G, W, NULL, dX, scratch, slots);
  if (dW && status == LUMA_LOOP_DONE)
    status = luma_nn_conv_backward(t, c, G, W, X, NULL, dW, NULL, scratch, slots);
  if (db && status == LUMA_LOOP_DONE) {
    /* the sums of G per output channel, sample by sample in order */
    const int64_t plane = c->height * c->width;
    memset(db->data, 0, (size_t)c->channels * sizeof *db->data);
    for (int64_t n = 0; n < G->rows && status == LUMA_LOOP_DONE; n++) {
      const double *g = G->data + n * G->rs;
      for (int64_t ch = 0; ch < c->channels; ch++) {
        double s = 0;
        for (int64_t q = 0; q < plane; q++) s += g[ch * plane + q];
        db->data[ch] += s;
      }
      status = luma_work_charge(t, (uint64_t)(c->channels * plane));
    }
  }
  return status;
}

/* ------------------------------------------------------------ pooling */

typedef struct PoolJob {
  luma_NnPool kind;
  const luma_NnConv *c;
  const luma_Mat *X, *G;
  luma_Mat *Y, *dX;
} PoolJob;

/* The window of output (y, z): rows [*r0, *r1), columns [*s0, *s1)
 * clipped to the input, and the divisor of a mean. */
static double window(const PoolJob *job, int64_t y, int64_t z, int64_t *r0, int64_t *r1,
                     int64_t *s0, int64_t *s1) {
  const luma_NnConv *c = job->c;
  if (job->kind == LUMA_NN_POOL_ADAPTIVE) {
    *r0 = y * c->height / c->out_h;
    *r1 = ((y + 1) * c->height + c->out_h - 1) / c->out_h;
    *s0 = z * c->width / c->out_w;
    *s1 = ((z + 1) * c->width + c->out_w - 1) / c->out_w;
    return (double)((*r1 - *r0) * (*s1 - *s0));
  }
  int64_t a = y * c->stride_h - c->pad_h, b = z * c->stride_w - c->pad_w;
  /* the mean counts padding as zeros: the window within the padded
   * input (PyTorch's count_include_pad) */
  int64_t ae = a + c->k_h, be = b + c->k_w;
  if (ae > c->height + c->pad_h) ae = c->height + c->pad_h;
  if (be > c->width + c->pad_w) be = c->width + c->pad_w;
  double count = (double)((ae - a) * (be - b));
  *r0 = a < 0 ? 0 : a;
  *r1 = ae < c->height ? ae : c->height;
  *s0 = b < 0 ? 0 : b;
  *s1 = be < c->width ? be : c->width;
  return count;
}

/* The position of the first maximum of the window in plane (-1: empty). */
static int64_t first_max(const double *plane, int64_t width, int64_t r0, int64_t r1, int64_t s0,
                         int64_t s1) {
  int64_t at = -1;
  double best = -INFINITY;
  for (int64_t r = r0; r < r1; r++)
    for (int64_t s = s0; s < s1; s++) {
      double v = plane[r * width + s];
      if (at < 0 || v > best || isnan(v)) {
        at = r * width + s;
        best = v;
        if (isnan(v)) return at;
      }
    }
  return at;
}

static void pool_chunk(void *ctx, int64_t k, int64_t begin, int64_t end) {
  (void)k;
  const PoolJob *job = ctx;
  const luma_NnConv *c = job->c;
  const int64_t hw = c->height * c->width, ohw = c->out_h * c->out_w;
  for (int64_t n = begin; n < end; n++) {
    const double *x = job->X->data + n * job->X->rs;
    double *dx = job->dX ? job->dX->data + n * job->dX->rs : NULL;
    if (dx) memset(dx, 0, (size_t)(c->channels * hw) * sizeof *dx);
    for (int64_t ch = 0; ch < c->channels; ch++) {
      const double *plane = x + ch * hw;
      for (int64_t y = 0; y < c->out_h; y++)
        for (int64_t z = 0; z < c->out_w; z++) {
          int64_t r0, r1, s0, s1, o = ch * ohw + y * c->out_w + z;
          double count = window(job, y, z, &r0, &r1, &s0, &s1);
          if (job->kind == LUMA_NN_POOL_MAX) {
            int64_t at = first_max(plane, c->width, r0, r1, s0, s1);
            if (dx) {
              if (at >= 0) dx[ch * hw + at] += job->G->data[n * job->G->rs + o];
            } else {
              job->Y->data[n * job->Y->rs + o] = at >= 0 ? plane[at] : -INFINITY;
            }
          } else if (dx) {
            double share = job->G->data[n * job->G->rs + o] / count;
            for (int64_t r = r0; r < r1; r++)
              for (int64_t s = s0; s < s1; s++) dx[ch * hw + r * c->width + s] += share;
          } else {
            double sum = 0;
            for (int64_t r = r0; r < r1; r++)
              for (int64_t s = s0; s < s1; s++) sum += plane[r * c->width + s];
            job->Y->data[n * job->Y->rs + o] = sum / count;
          }
        }
    }
  }
}

static luma_LoopStatus pool_run(luma_Threads *t, PoolJob *job) {
  const luma_NnConv *c = job->c;
  int64_t n = job->X->rows;
  if (n == 0) return luma_work_status(t);
  int64_t kh = c->k_h, kw = c->k_w;
  if (job->kind == LUMA_NN_POOL_ADAPTIVE) {
    kh = (c->height + c->out_h - 1) / c->out_h + 1;
    kw = (c->width + c->out_w - 1) / c->out_w + 1;
  }
  uint64_t cost = (uint64_t)(c->channels * c->out_h * c->out_w * kh * kw) + 1;
  luma_Loop loop = {n, grain_of(n, cost), cost, 0, pool_chunk, job};
  return luma_parallel_for(t, &loop);
}

luma_LoopStatus luma_nn_pool_forward(luma_Threads *t, luma_NnPool kind, const luma_NnConv *c,
                                     const luma_Mat *X, luma_Mat *Y) {
  PoolJob job = {kind, c, X, NULL, Y, NULL};
  return pool_run(t, &job);
}

luma_LoopStatus luma_nn_pool_backward(luma_Threads *t, luma_NnPool kind, const luma_NnConv *c,
                                      const luma_Mat *X, const luma_Mat *G, luma_Mat *dX) {
  PoolJob job = {kind, c, X, G, NULL, dX};
  return pool_run(t, &job);
}
