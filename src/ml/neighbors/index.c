/*
 * index.c - the index block (layout, filling, checks of a restored index)
 * and the query driver shared by every algorithm (see neighbors.h).
 *
 * Queries run as a parallel loop over blocks of queries.  A block's
 * results depend only on its queries, so any thread count gives the same
 * bits.  Scratch is one caller-provided area cut into `slots` equal parts,
 * one per thread that can run at once; a chunk claims a free part with an
 * atomic flag (at most `slots` chunks run together, so one is always free)
 * and releases it when done.
 * SPDX-License-Identifier: MIT
 */
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "neighbors/search.h"

/* ---------------------------------------------------------------- sizes */

/* a * b * size with overflow detection (0 on overflow). */
static int product(int64_t a, int64_t b, size_t size, size_t *out) {
  if (a < 0 || b < 0) return 0;
  if (a == 0 || b == 0) {
    *out = 0;
    return 1;
  }
  if ((uint64_t)a > SIZE_MAX / (uint64_t)b) return 0;
  size_t ab = (size_t)a * (size_t)b;
  if (ab > SIZE_MAX / size) return 0;
  *out = ab * size;
  return 1;
}

/* The arrays of an index in block order; each entry says whether it is
 * used and how many bytes it takes. */
typedef struct Part {
  void **field;
  size_t bytes;
} Part;

static int has_rowval(const luma_NnIndex *ix) {
  return ix->algorithm == LUMA_NN_BRUTE &&
         (ix->metric == LUMA_NN_EUCLIDEAN || ix->metric == LUMA_NN_COSINE);
}

static int is_tree(const luma_NnIndex *ix) {
  return ix->algorithm == LUMA_NN_KD_TREE || ix->algorithm == LUMA_NN_BALL_TREE;
}

/* Fills parts (up to 16) for the shape; returns their count, -1 on overflow. */
static int parts_of(luma_NnIndex *ix, Part *parts) {
  int np = 0, ok = 1;
  int64_t n = ix->n, d = ix->d, nodes = ix->n_nodes;
#define PART(f, a, b, size)                                   \
  do {                                                        \
    size_t bytes_ = 0;                                          \
    ok &= product((a), (b), (size), &bytes_);                 \
    parts[np++] = (Part){(void **)&ix->f, bytes_};            \
  } while (0)
  PART(data, n, d, sizeof(double));
  if (has_rowval(ix)) PART(rowval, n, 1, sizeof(double));
  if (ix->whiten) PART(factor, d, d, sizeof(double));
  if (is_tree(ix)) PART(perm, n, 1, sizeof(int64_t));
  if (ix->algorithm == LUMA_NN_KD_TREE) {
    PART(kd, nodes, 1, sizeof(luma_NnKdNode));
    PART(lo, nodes, d, sizeof(double));
    PART(hi, nodes, d, sizeof(double));
  }
  if (ix->algorithm == LUMA_NN_BALL_TREE) {
    PART(ball, nodes, 1, sizeof(luma_NnBallNode));
    PART(centroid, nodes, d, sizeof(double));
    PART(radius, nodes, 1, sizeof(double));
  }
  /* n (n - 1) / 2 doubles are n (n - 1) x 4 bytes */
  if (ix->algorithm == LUMA_NN_ORCHARD || ix->algorithm == LUMA_NN_AESA)
    PART(pair, n, n > 0 ? n - 1 : 0, sizeof(double) / 2);
  if (ix->algorithm == LUMA_NN_ORCHARD) PART(lists, n, n > 0 ? n - 1 : 0, sizeof(int32_t));
  if (ix->algorithm == LUMA_NN_LAESA) {
    PART(buoys, ix->n_buoys, 1, sizeof(int64_t));
    PART(buoy_dist, ix->n_buoys, n, sizeof(double));
  }
#undef PART
  return ok ? np : -1;
}

size_t luma_nn_index_bytes(const luma_NnIndex *shape) {
  luma_NnIndex ix = *shape;
  Part parts[16];
  int np = parts_of(&ix, parts);
  if (np < 0) return 0;
  size_t total = luma_nn_round16(sizeof(luma_NnIndex));
  for (int i = 0; i < np; i++) {
    size_t b = luma_nn_round16(parts[i].bytes);
    if (b < parts[i].bytes || total > SIZE_MAX - b) return 0;
    total += b;
  }
  return total;
}

void luma_nn_index_attach(luma_NnIndex *ix) {
  Part parts[16];
  ix->data = ix->rowval = ix->factor = ix->lo = ix->hi = ix->centroid = ix->radius = NULL;
  ix->pair = ix->buoy_dist = NULL;
  ix->perm = ix->buoys = NULL;
  ix->kd = NULL;
  ix->ball = NULL;
  ix->lists = NULL;
  int np = parts_of(ix, parts);
  char *at = (char *)ix + luma_nn_round16(sizeof(luma_NnIndex));
  for (int i = 0; i < np; i++) {
    *parts[i].field = at;
    at += luma_nn_round16(parts[i].bytes);
  }
}

/* The brute force's row values: (1 - c) |x|^2 / 2 for Euclidean (its
 * filter, brute.c), 1 / |x| for cosine (0 for a zero row). */
void luma_nn_index_refresh(luma_NnIndex *ix) {
  if (!has_rowval(ix)) return;
  double half_keep = (1 - luma_nn_slack(ix->d)) / 2;
  for (int64_t i = 0; i < ix->n; i++) {
    const double *r = ix->data + i * ix->d;
    double s = 0;
    for (int64_t k = 0; k < ix->d; k++) s += r[k] * r[k];
    ix->rowval[i] = ix->metric == LUMA_NN_EUCLIDEAN ? half_keep * s
                    : s > 0 && !isinf(s)            ? 1 / sqrt(s)
                                                    : 0;
  }
}

void luma_nn_index_fill(luma_NnIndex *ix, const luma_Mat *x) {
  for (int64_t i = 0; i < ix->n; i++) {
    int64_t src = ix->perm ? ix->perm[i] : i;
    double *row = ix->data + i * ix->d;
    for (int64_t k = 0; k < ix->d; k++) row[k] = LUMA_AT(x, src, k);
  }
  luma_nn_index_refresh(ix);
}

/* -------------------------------------------------------------- sorting */

void luma_nn_heap_sort(luma_NnPair *h, int64_t n) {
  /* h is a max-heap: move the largest to the end, repeatedly. */
  for (int64_t end = n - 1; end > 0; end--) {
    luma_NnPair top = h[0], last = h[end];
    h[end] = top;
    int64_t i = 0;
    /* audit-loops: a sift down the heap: O(log n) steps */
    for (;;) {
      int64_t c = 2 * i + 1;
      if (c >= end) break;
      if (c + 1 < end && luma_nn_before(h[c].rd, h[c].id, h[c + 1].rd, h[c + 1].id)) c++;
      if (!luma_nn_before(last.rd, last.id, h[c].rd, h[c].id)) break;
      h[i] = h[c];
      i = c;
    }
    h[i] = last;
  }
}

/* Heapsort of two parallel columns: in place, O(n log n) for any input. */
static void sift_columns(double *rd, double *id, int64_t i, int64_t n) {
  double r = rd[i], v = id[i];
  /* audit-loops: a sift down the heap: O(log n) steps */
  for (;;) {
    int64_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && luma_nn_before(rd[c], (int64_t)id[c], rd[c + 1], (int64_t)id[c + 1])) c++;
    if (!luma_nn_before(r, (int64_t)v, rd[c], (int64_t)id[c])) break;
    rd[i] = rd[c];
    id[i] = id[c];
    i = c;
  }
  rd[i] = r;
  id[i] = v;
}

void luma_nn_sort_columns(double *rd, double *id, int64_t n) {
  for (int64_t i = n / 2 - 1; i >= 0; i--) sift_columns(rd, id, i, n);
  for (int64_t end = n - 1; end > 0; end--) {
    double r = rd[0], v = id[0];
    rd[0] = rd[end];
    id[0] = id[end];
    rd[end] = r;
    id[end] = v;
    sift_columns(rd, id, 0, end);
  }
}

/* ------------------------------------------------------ search scratch */

size_t luma_nn_search_work(const luma_NnIndex *ix) {
  size_t n = (size_t)ix->n;
  switch (ix->algorithm) {
  case LUMA_NN_KD_TREE:
  case LUMA_NN_BALL_TREE: return luma_nn_round16((size_t)(ix->depth + 2) * 16);
  case LUMA_NN_AESA: return luma_nn_round16(n * sizeof(double)) + luma_nn_round16(n);
  case LUMA_NN_ORCHARD: return luma_nn_round16(n);
  case LUMA_NN_LAESA:
    return luma_nn_round16(n * sizeof(double)) + luma_nn_round16((size_t)ix->n_buoys * sizeof(double)) +
           luma_nn_round16(n * sizeof(luma_NnKey)) + luma_nn_round16(n);
  case LUMA_NN_BRUTE: return 0;
  }
  return 0;
}

void luma_nn_search_layout(const luma_NnIndex *ix, void *base, luma_NnScratch *s) {
  char *at = base;
  size_t n = (size_t)ix->n;
  memset(s, 0, sizeof *s);
  switch (ix->algorithm) {
  case LUMA_NN_KD_TREE:
  case LUMA_NN_BALL_TREE: s->stack = at; break;
  case LUMA_NN_AESA:
    s->lb = (double *)at;
    s->mark = (unsigned char *)(at + luma_nn_round16(n * sizeof(double)));
    break;
  case LUMA_NN_ORCHARD: s->mark = (unsigned char *)at; break;
  case LUMA_NN_LAESA:
    s->lb = (double *)at;
    at += luma_nn_round16(n * sizeof(double));
    s->qb = (double *)at;
    at += luma_nn_round16((size_t)ix->n_buoys * sizeof(double));
    s->keys = (luma_NnKey *)at;
    at += luma_nn_round16(n * sizeof(luma_NnKey));
    s->mark = (unsigned char *)at;
    break;
  case LUMA_NN_BRUTE: break;
  }
}

/* --------------------------------------------------------- the driver */

/* Queries per chunk.  The brute force's GEMM wants a large block of rows
 * (brute.c), but a chunk is also the unit between interrupt checks: about
 * 2^31 multiply-adds (some 0.1 s) at most, and no fewer than 64 rows.  The
 * searches want chunks small enough to balance between threads.  Either
 * way a chunk's heaps (rows x k pairs) stay within 8 MB. */
#define BRUTE_BLOCK 512
#define BRUTE_MIN_BLOCK 64
#define BRUTE_CHUNK_WORK 2147483648.0
#define SEARCH_BLOCK 32
#define HEAP_BYTES (8 << 20)

typedef struct Job {
  const luma_NnQuery *qr;
  int mode;
  double rbound;           /* radius as a reduced distance */
  int64_t *counts;         /* count pass */
  const int64_t *offsets;  /* fill pass */
  int64_t grain;
  luma_NnSlots slots;
  atomic_int failed;
} Job;

int64_t luma_nn_query_count(const luma_NnQuery *qr) {
  return qr->q ? qr->q->rows : qr->ix->n;
}

static int64_t grain_of(const luma_NnQuery *qr) {
  const luma_NnIndex *ix = qr->ix;
  int64_t g = SEARCH_BLOCK;
  if (ix->algorithm == LUMA_NN_BRUTE) {
    double rows = BRUTE_CHUNK_WORK / ((double)ix->n * (double)ix->d);
    g = rows >= BRUTE_BLOCK ? BRUTE_BLOCK : rows <= BRUTE_MIN_BLOCK ? BRUTE_MIN_BLOCK : (int64_t)rows;
  }
  if (qr->k > 0 && g > HEAP_BYTES / (qr->k * (int64_t)sizeof(luma_NnPair)))
    g = HEAP_BYTES / (qr->k * (int64_t)sizeof(luma_NnPair));
  return g > 0 ? g : 1;
}

/* The layout of one slot: results, heaps, query copies, search scratch,
 * brute-force scratch. */
typedef struct SlotLayout {
  size_t results, heaps, queries, search, brute, total;
} SlotLayout;

static SlotLayout slot_layout(const luma_NnQuery *qr) {
  const luma_NnIndex *ix = qr->ix;
  int64_t g = grain_of(qr);
  SlotLayout l;
  l.results = 0;
  l.heaps = l.results + luma_nn_round16((size_t)g * sizeof(luma_NnResult));
  l.queries = l.heaps + luma_nn_round16((size_t)g * (size_t)(qr->k > 0 ? qr->k : 0) * sizeof(luma_NnPair));
  l.search = l.queries + luma_nn_round16((size_t)g * (size_t)ix->d * sizeof(double));
  l.brute = l.search + luma_nn_search_work(ix);
  l.total = l.brute + (ix->algorithm == LUMA_NN_BRUTE
                           ? luma_nn_round16(luma_nn_brute_work(ix, &qr->metric, g))
                           : 0);
  return l;
}

size_t luma_nn_query_work(const luma_NnQuery *qr, int slots) {
  return luma_nn_slots_bytes(slots < 1 ? 1 : slots, slot_layout(qr).total);
}

/* Where query `pos` of the loop reads its row and which query it is: the
 * rows of q, or the index's own rows (in stored order, with the original
 * index as the query number and the row excluded from its results). */
static const double *query_row(const luma_NnQuery *qr, int64_t pos, double *copy,
                               int64_t *which, int64_t *self) {
  const luma_NnIndex *ix = qr->ix;
  int64_t d = ix->d;
  if (qr->q == NULL) {
    *which = ix->perm ? ix->perm[pos] : pos;
    *self = *which;
    memcpy(copy, ix->data + pos * d, (size_t)d * sizeof(double));
    return copy;
  }
  *which = pos;
  *self = -1;
  for (int64_t k = 0; k < d; k++) copy[k] = LUMA_AT(qr->q, pos, k);
  return copy;
}

static void search_one(const luma_NnIndex *ix, const luma_NnMetric *m, const double *q,
                       luma_NnResult *r, luma_NnScratch *s) {
  switch (ix->algorithm) {
  case LUMA_NN_KD_TREE: luma_nn_kd_search(ix, m, q, r, s); break;
  case LUMA_NN_BALL_TREE: luma_nn_ball_search(ix, m, q, r, s); break;
  case LUMA_NN_ORCHARD: luma_nn_orchard_search(ix, m, q, r, s); break;
  case LUMA_NN_AESA: luma_nn_aesa_search(ix, m, q, r, s); break;
  case LUMA_NN_LAESA: luma_nn_laesa_search(ix, m, q, r, s); break;
  case LUMA_NN_BRUTE: break;
  }
}

/* Writes the finished result of query `which`. */
static void finish(Job *job, const luma_NnResult *r, int64_t which) {
  const luma_NnQuery *qr = job->qr;
  const luma_NnMetric *m = &qr->metric;
  if (job->mode == LUMA_NN_KNN) {
    luma_nn_heap_sort(r->heap, r->size);
    for (int64_t j = 0; j < r->size; j++) {
      LUMA_AT(qr->dist, which, j) = luma_nn_to_dist(m, r->heap[j].rd);
      LUMA_AT(qr->ind, which, j) = (double)(r->heap[j].id + 1);
    }
  } else if (job->mode == LUMA_NN_COUNT) {
    job->counts[which] = r->count;
  } else {
    int64_t c = r->count < r->capacity ? r->count : r->capacity;
    luma_nn_sort_columns(r->crd, r->cid, c);
    for (int64_t j = 0; j < c; j++) {
      r->crd[j] = luma_nn_to_dist(m, r->crd[j]);
      r->cid[j] += 1;
    }
  }
  if (qr->evals && job->mode != LUMA_NN_COLLECT) LUMA_AT(qr->evals, which, 0) = (double)r->evals;
}

static void chunk(void *ctx, int64_t kc, int64_t begin, int64_t end) {
  (void)kc;
  Job *job = ctx;
  if (atomic_load_explicit(&job->failed, memory_order_relaxed)) return;
  const luma_NnQuery *qr = job->qr;
  const luma_NnIndex *ix = qr->ix;
  const luma_NnMetric *m = &qr->metric;
  int64_t d = ix->d, rows = end - begin;
  char *slot = luma_nn_slot_claim(&job->slots);
  SlotLayout l = slot_layout(qr);
  luma_NnResult *results = (luma_NnResult *)(slot + l.results);
  luma_NnPair *heaps = (luma_NnPair *)(slot + l.heaps);
  double *queries = (double *)(slot + l.queries);
  int64_t which[BRUTE_BLOCK > SEARCH_BLOCK ? BRUTE_BLOCK : SEARCH_BLOCK];
  const double *rows_of[BRUTE_BLOCK > SEARCH_BLOCK ? BRUTE_BLOCK : SEARCH_BLOCK];
  for (int64_t i = 0; i < rows; i++) {
    int64_t self;
    rows_of[i] = query_row(qr, begin + i, queries + i * d, &which[i], &self);
    luma_NnResult *r = &results[i];
    luma_nn_result_init(r, job->mode, qr->k, heaps + i * (qr->k > 0 ? qr->k : 0), job->rbound,
                        self);
    if (job->mode == LUMA_NN_COLLECT) {
      int64_t off = job->offsets[which[i]];
      r->crd = qr->dist->data + off;
      r->cid = qr->ind->data + off;
      r->capacity = job->offsets[which[i] + 1] - off;
    }
  }
  int failed = 0;
  if (ix->algorithm == LUMA_NN_BRUTE) {
    luma_nn_brute_block(ix, m, queries, rows, results, slot + l.brute);
  } else {
    luma_NnScratch s;
    luma_nn_search_layout(ix, slot + l.search, &s);
    for (int64_t i = 0; i < rows && !failed; i++) {
      search_one(ix, m, rows_of[i], &results[i], &s);
      failed = results[i].failed;
    }
  }
  for (int64_t i = 0; i < rows; i++) failed |= results[i].failed;
  if (failed) {
    atomic_store(&job->failed, 1);
  } else {
    for (int64_t i = 0; i < rows; i++) finish(job, &results[i], which[i]);
  }
  luma_nn_slot_release(&job->slots, slot);
}

/* Budget units per query: about one per element operation. */
static uint64_t query_cost(const luma_NnQuery *qr) {
  const luma_NnIndex *ix = qr->ix;
  uint64_t d1 = (uint64_t)ix->d + 1;
  switch (ix->algorithm) {
  case LUMA_NN_BRUTE: return (uint64_t)ix->n * d1;
  case LUMA_NN_KD_TREE:
  case LUMA_NN_BALL_TREE: return d1 * (uint64_t)(ix->depth + 1) * (uint64_t)(ix->leaf_size + 1);
  default: return (uint64_t)ix->n + 16 * d1;
  }
}

static luma_NnStatus run(luma_Threads *t, const luma_NnQuery *qr, int mode, int64_t *counts,
                         const int64_t *offsets, void *work, int slots) {
  if (slots < 1) slots = 1;
  Job job;
  job.qr = qr;
  job.mode = mode;
  job.rbound = mode == LUMA_NN_KNN ? INFINITY : luma_nn_to_rdist(&qr->metric, qr->radius);
  job.counts = counts;
  job.offsets = offsets;
  job.grain = grain_of(qr);
  luma_nn_slots_init(&job.slots, work, slots, slot_layout(qr).total);
  atomic_init(&job.failed, 0);
  luma_Loop loop = {luma_nn_query_count(qr), job.grain, query_cost(qr),
                    qr->ix->algorithm == LUMA_NN_BRUTE, chunk, &job};
  luma_LoopStatus status = luma_parallel_for(t, &loop);
  return luma_nn_status(status, atomic_load(&job.failed));
}

luma_NnStatus luma_nn_kneighbors(luma_Threads *t, const luma_NnQuery *qr, void *work, int slots) {
  return run(t, qr, LUMA_NN_KNN, NULL, NULL, work, slots);
}

luma_NnStatus luma_nn_radius_count(luma_Threads *t, const luma_NnQuery *qr, int64_t *counts,
                                   void *work, int slots) {
  return run(t, qr, LUMA_NN_COUNT, counts, NULL, work, slots);
}

luma_NnStatus luma_nn_radius_fill(luma_Threads *t, const luma_NnQuery *qr,
                                  const int64_t *offsets, void *work, int slots) {
  return run(t, qr, LUMA_NN_COLLECT, NULL, offsets, work, slots);
}

/* ------------------------------------------------------ restored indexes */

size_t luma_nn_index_check_work(const luma_NnIndex *ix) {
  size_t a = (size_t)(ix->n_nodes > 0 ? ix->n_nodes : 0) * sizeof(int64_t);
  size_t b = (size_t)(ix->n > 0 ? ix->n : 0);
  return (a > b ? a : b) + 1;
}

/* Marks must hold n bytes; returns 0 unless ids are n distinct values in
 * [0, n). */
static int is_permutation(const int64_t *ids, int64_t count, int64_t n, unsigned char *marks) {
  memset(marks, 0, (size_t)n);
  for (int64_t i = 0; i < count; i++) {
    if (ids[i] < 0 || ids[i] >= n || marks[ids[i]]) return 0;
    marks[ids[i]] = 1;
  }
  return 1;
}

/* Child c of node `parent` must come after it and cover [s, e), non-empty
 * (an empty side is -1). */
static const char *check_child(int64_t c, int64_t parent, int64_t n_nodes, int64_t s, int64_t e,
                               int64_t cs, int64_t ce) {
  if (c == -1) return s == e ? NULL : "a non-empty side has no child";
  if (c <= parent || c >= n_nodes) return "a child index is out of order or range";
  if (s == e) return "an empty side has a child";
  if (cs != s || ce != e) return "a child does not cover its side of the parent";
  return NULL;
}

static const char *check_kd(luma_NnIndex *ix, int64_t *depth) {
  const luma_NnKdNode *nodes = ix->kd;
  int64_t nn = ix->n_nodes;
  if (nn < 1 || nodes[0].start != 0 || nodes[0].end != ix->n) return "the root must cover every row";
  for (int64_t i = 0; i < nn; i++) depth[i] = 0;
  depth[0] = 1;
  int64_t deepest = 1;
  for (int64_t i = 0; i < nn; i++) {
    const luma_NnKdNode *a = &nodes[i];
    if (depth[i] == 0) continue; /* unreachable: never visited by a search */
    if (a->start < 0 || a->end > ix->n || a->start >= a->end) return "a node range is invalid";
    if (a->left == -1 && a->right == -1) {
      if (a->own != 0) return "a leaf has its own point";
      continue;
    }
    if (a->own != 0 && a->own != 1) return "a node's own flag is not 0 or 1";
    if (a->axis < 0 || a->axis >= ix->d) return "a split axis is out of range";
    if (a->cut < a->start || a->cut + a->own > a->end) return "a split position is out of range";
    int64_t c[2] = {a->left, a->right};
    int64_t lo[2] = {a->start, a->cut + a->own}, hi[2] = {a->cut, a->end};
    for (int side = 0; side < 2; side++) {
      const luma_NnKdNode *ch = c[side] >= 0 && c[side] < nn ? &nodes[c[side]] : NULL;
      const char *why = check_child(c[side], i, nn, lo[side], hi[side], ch ? ch->start : -1,
                                    ch ? ch->end : -1);
      if (why) return why;
      if (ch) {
        depth[c[side]] = depth[i] + 1;
        if (depth[c[side]] > deepest) deepest = depth[c[side]];
      }
    }
  }
  ix->depth = deepest;
  return NULL;
}

static const char *check_ball(luma_NnIndex *ix, int64_t *depth) {
  const luma_NnBallNode *nodes = ix->ball;
  int64_t nn = ix->n_nodes;
  if (nn < 1 || nodes[0].start != 0 || nodes[0].end != ix->n) return "the root must cover every row";
  for (int64_t i = 0; i < nn; i++) depth[i] = 0;
  depth[0] = 1;
  int64_t deepest = 1;
  for (int64_t i = 0; i < nn; i++) {
    const luma_NnBallNode *a = &nodes[i];
    if (depth[i] == 0) continue;
    if (a->start < 0 || a->end > ix->n || a->start >= a->end) return "a node range is invalid";
    if (a->left == -1 && a->right == -1) continue;
    int64_t mid = a->start + (a->end - a->start) / 2;
    int64_t c[2] = {a->left, a->right};
    int64_t lo[2] = {a->start, mid}, hi[2] = {mid, a->end};
    for (int side = 0; side < 2; side++) {
      const luma_NnBallNode *ch = c[side] >= 0 && c[side] < nn ? &nodes[c[side]] : NULL;
      if (c[side] == -1) return "an inner node lacks a child";
      const char *why = check_child(c[side], i, nn, lo[side], hi[side], ch ? ch->start : -1,
                                    ch ? ch->end : -1);
      if (why) return why;
      depth[c[side]] = depth[i] + 1;
      if (depth[c[side]] > deepest) deepest = depth[c[side]];
    }
  }
  ix->depth = deepest;
  return NULL;
}

const char *luma_nn_index_check(luma_NnIndex *ix, void *work) {
  unsigned char *marks = work;
  int64_t n = ix->n;
  if (n < 1 || ix->d < 1) return "an index needs at least one row and one column";
  for (int64_t i = 0; i < n * ix->d; i++)
    if (!isfinite(ix->data[i])) return "the data has a non-finite element";
  if (is_tree(ix) && !is_permutation(ix->perm, n, n, marks))
    return "the row order is not a permutation";
  switch (ix->algorithm) {
  case LUMA_NN_KD_TREE: {
    const char *why = check_kd(ix, work);
    if (why) return why;
    for (int64_t i = 0; i < ix->n_nodes * ix->d; i++)
      if (isnan(ix->lo[i]) || isnan(ix->hi[i])) return "a bounding box has NaN";
    return NULL;
  }
  case LUMA_NN_BALL_TREE: {
    const char *why = check_ball(ix, work);
    if (why) return why;
    for (int64_t i = 0; i < ix->n_nodes; i++)
      if (isnan(ix->radius[i]) || ix->radius[i] < 0) return "a ball radius is invalid";
    for (int64_t i = 0; i < ix->n_nodes * ix->d; i++)
      if (isnan(ix->centroid[i])) return "a ball centre has NaN";
    return NULL;
  }
  case LUMA_NN_ORCHARD:
  case LUMA_NN_AESA:
    ix->scale = 0;
    for (int64_t i = 0; i < n * (n - 1) / 2; i++) {
      if (!(ix->pair[i] >= 0)) return "a stored distance is negative or NaN";
      if (ix->pair[i] > ix->scale) ix->scale = ix->pair[i];
    }
    if (ix->algorithm == LUMA_NN_ORCHARD)
      for (int64_t i = 0; i < n; i++) {
        const int32_t *row = ix->lists + i * (n - 1);
        memset(marks, 0, (size_t)n);
        marks[i] = 1;
        for (int64_t j = 0; j < n - 1; j++) {
          if (row[j] < 0 || row[j] >= n || marks[row[j]]) return "a neighbour list is invalid";
          marks[row[j]] = 1;
        }
      }
    return NULL;
  case LUMA_NN_LAESA:
    if (ix->n_buoys < 1 || ix->n_buoys > n) return "the buoy count is out of range";
    memset(marks, 0, (size_t)n);
    for (int64_t b = 0; b < ix->n_buoys; b++) {
      if (ix->buoys[b] < 0 || ix->buoys[b] >= n || marks[ix->buoys[b]])
        return "the buoys are not distinct rows";
      marks[ix->buoys[b]] = 1;
    }
    ix->scale = 0;
    for (int64_t i = 0; i < ix->n_buoys * n; i++) {
      if (!(ix->buoy_dist[i] >= 0)) return "a stored distance is negative or NaN";
      if (ix->buoy_dist[i] > ix->scale) ix->scale = ix->buoy_dist[i];
    }
    return NULL;
  case LUMA_NN_BRUTE: return NULL;
  }
  return "unknown algorithm";
}
