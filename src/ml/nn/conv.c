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

/* floor(a / b) for b > 0 and any sign of a. */
static int64_t floor_div(int64_t a, int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* The outputs z in [*lo, *hi) whose input position z s + off (off = j d -
 * p, the kernel tap's offset) lies in [0, n): the rest read padding. */
static void inside(int64_t n, int64_t s, int64_t off, int64_t count, int64_t *lo, int64_t *hi) {
  int64_t a = -floor_div(off, s); /* ceil(-off / s) */
  int64_t b = floor_div(n - 1 - off, s) + 1;
  *lo = a < 0 ? 0 : a > count ? count : a;
  *hi = b > count ? count : b < *lo ? *lo : b;
}

/* The receptive fields of channels [c0, c0 + cg) of the sample x as the
 * columns of col ((cg kH kW) x (oH oW)); outside the input, zeros.  The
 * in-bounds span of a kernel tap's output rows and columns is worked out
 * once for every channel, so the inner loop is a plain (strided) copy. */
static void im2col(const luma_NnConv *c, const double *x, int64_t c0, int64_t cg, double *col) {
  const int64_t H = c->height, Wd = c->width, oh = c->out_h, ow = c->out_w;
  const int64_t sw = c->stride_w;
  for (int64_t i = 0; i < c->k_h; i++) {
    int64_t y0, y1;
    inside(H, c->stride_h, i * c->dil_h - c->pad_h, oh, &y0, &y1);
    for (int64_t j = 0; j < c->k_w; j++) {
      const int64_t off = j * c->dil_w - c->pad_w;
      int64_t z0, z1;
      inside(Wd, sw, off, ow, &z0, &z1);
      for (int64_t ch = 0; ch < cg; ch++) {
        const double *plane = x + (c0 + ch) * H * Wd;
        double *row = col + ((ch * c->k_h + i) * c->k_w + j) * oh * ow;
        if (y0 > 0) memset(row, 0, (size_t)(y0 * ow) * sizeof *row);
        for (int64_t y = y0; y < y1; y++) {
          double *dst = row + y * ow;
          for (int64_t z = 0; z < z0; z++) dst[z] = 0.0;
          if (z1 > z0) {
            /* the input element under output z0 */
            const double *src =
                plane + (y * c->stride_h + i * c->dil_h - c->pad_h) * Wd + off + z0 * sw;
            /* (a loop, not memcpy: the rows are a few elements long) */
            for (int64_t z = z0; z < z1; z++) dst[z] = src[(z - z0) * sw];
          }
          for (int64_t z = z1; z < ow; z++) dst[z] = 0.0;
        }
        if (y1 < oh) memset(row + y1 * ow, 0, (size_t)((oh - y1) * ow) * sizeof *row);
      }
    }
  }
}

/* The adjoint of im2col: adds each column element back onto the input
 * position it was copied from (in a fixed order: deterministic). */
static void col2im(const luma_NnConv *c, const double *col, int64_t c0, int64_t cg, double *dx) {
  const int64_t H = c->height, Wd = c->width, oh = c->out_h, ow = c->out_w;
  const int64_t sw = c->stride_w;
  for (int64_t i = 0; i < c->k_h; i++) {
    int64_t y0, y1;
    inside(H, c->stride_h, i * c->dil_h - c->pad_h, oh, &y0, &y1);
    for (int64_t j = 0; j < c->k_w; j++) {
      const int64_t off = j * c->dil_w - c->pad_w;
      int64_t z0, z1;
      inside(Wd, sw, off, ow, &z0, &z1);
      for (int64_t ch = 0; ch < cg; ch++) {
        double *plane = dx + (c0 + ch) * H * Wd;
        const double *row = col + ((ch * c->k_h + i) * c->k_w + j) * oh * ow;
        for (int64_t y = y0; y < y1; y++) {
          if (z1 <= z0) break;
          double *dst = plane + (y * c->stride_h + i * c->dil_h - c->pad_h) * Wd + off + z0 * sw;
          const double *src = row + y * ow;
          for (int64_t z = z0; z < z1; z++) dst[(z - z0) * sw] += src[z];
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

/* The backward pass keeps one partial dW a chunk, summed in chunk order
 * at the end: at most this many chunks (a count fixed by n alone), so
 * the partials stay few when each sample is cheap. */
#define MAX_PARTIALS 16

static int64_t backward_grain(int64_t n, uint64_t per_sample) {
  int64_t g = grain_of(n, per_sample), least = (n + MAX_PARTIALS - 1) / MAX_PARTIALS;
  return g > least ? g : least;
}

static uint64_t conv_cost(const luma_NnConv *c) {
  uint64_t hw = (uint64_t)(c->out_h * c->out_w), kk = (uint64_t)col_rows(c);
  return (uint64_t)c->out_channels * kk * hw + (uint64_t)c->groups * kk * hw + 1;
}

int64_t luma_nn_conv_scratch(const luma_NnConv *c, int64_t n, int slots, int backward) {
  const double kk = (double)col_rows(c), hw = (double)(c->out_h * c->out_w);
  double total = (double)slots * kk * hw;
  if (backward && n > 0) {
    int64_t grain = backward_grain(n, 2 * conv_cost(c));
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
  if (dw) memset(dw, 0, (size_t)(out * kk + out) * sizeof *dw);
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
  int64_t grain = backward_grain(n, cost), chunks = (n + grain - 1) / grain;
  double *partials = scratch + (int64_t)slots * kk * c->out_h * c->out_w;
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

/* first_max's step: element q replaces the best when strictly greater or
 * the first NaN. */
static inline void consider(const double *plane, int64_t q, double *best, int64_t *at) {
  double v = plane[q];
  int take = (v > *best) | ((v != v) & (*best == *best));
  *best = take ? v : *best;
  *at = take ? q : *at;
}

/* The position of the first maximum of the window in plane (-1: empty).
 * Without branches on the data (a max of ReLU outputs is a coin toss for
 * a predictor): each element replaces the best when strictly greater, or
 * when it is the window's first NaN. */
static int64_t first_max(const double *plane, int64_t width, int64_t r0, int64_t r1, int64_t s0,
                         int64_t s1) {
  if (r0 >= r1 || s0 >= s1) return -1;
  int64_t at = r0 * width + s0;
  double best = plane[at];
  for (int64_t r = r0; r < r1; r++)
    for (int64_t s = s0; s < s1; s++) consider(plane, r * width + s, &best, &at);
  return at;
}

/* Max pooling of sample n without padding (every window inside the
 * input): first_max without the clipping, the common 2 x 2 window
 * unrolled.  The forward pass writes Y, the backward adds G into dx. */
static void max_pool_inside(const PoolJob *job, int64_t n, const double *x, double *dx) {
  const luma_NnConv *c = job->c;
  const int64_t W = c->width, hw = c->height * W, oh = c->out_h, ow = c->out_w;
  const int64_t kh = c->k_h, kw = c->k_w, sh = c->stride_h, sw = c->stride_w;
  const double *g = dx ? job->G->data + n * job->G->rs : NULL;
  double *y = dx ? NULL : job->Y->data + n * job->Y->rs;
  for (int64_t ch = 0; ch < c->channels; ch++) {
    const double *plane = x + ch * hw;
    const int64_t o0 = ch * oh * ow;
    for (int64_t r = 0; r < oh; r++)
      for (int64_t z = 0; z < ow; z++) {
        int64_t at = r * sh * W + z * sw, base = at;
        double best = plane[at];
        if (kh == 2 && kw == 2) {
          consider(plane, base + 1, &best, &at);
          consider(plane, base + W, &best, &at);
          consider(plane, base + W + 1, &best, &at);
        } else {
          for (int64_t i = 0; i < kh; i++)
            for (int64_t j = 0; j < kw; j++) consider(plane, base + i * W + j, &best, &at);
        }
        if (dx)
          dx[ch * hw + at] += g[o0 + r * ow + z];
        else
          y[o0 + r * ow + z] = best;
      }
  }
}

static void pool_chunk(void *ctx, int64_t k, int64_t begin, int64_t end) {
  (void)k;
  const PoolJob *job = ctx;
  const luma_NnConv *c = job->c;
  const int64_t hw = c->height * c->width, ohw = c->out_h * c->out_w;
  const int inside_only = job->kind == LUMA_NN_POOL_MAX && c->pad_h == 0 && c->pad_w == 0;
  for (int64_t n = begin; n < end; n++) {
    const double *x = job->X->data + n * job->X->rs;
    double *dx = job->dX ? job->dX->data + n * job->dX->rs : NULL;
    if (dx) memset(dx, 0, (size_t)(c->channels * hw) * sizeof *dx);
    if (inside_only) {
      max_pool_inside(job, n, x, dx);
      continue;
    }
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
