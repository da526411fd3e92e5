/*
 * The compressed shard kind's locate walk in C: LF steps until a sampled row, then the sample lookup. It mirrors
 * FmIndex.lf (src/shard/compressed/fm-index.ts) and SaSamples.at (sa-samples.ts) step for step, over the very
 * typed arrays the TypeScript reader built on open (no copy, no format change); the TypeScript path stays the
 * reference a property test compares this against. Why: an LF step walks a Huffman wavelet tree, ~1 µs in
 * TypeScript, and a locate takes ~32 of them at sample rate 64.
 *
 *   fmOpenRrr(blockInfo: Int32Array, nodes: Int32Array, dir: Uint32Array, stream: Uint8Array, occ: Uint32Array,
 *          below: Float64Array,
 *          sampleChunks: Uint32Array, sampleRows: Uint8Array, sampleValues: Uint32Array,
 *          lens: Uint8Array, paths: Uint32Array, totals: Float64Array, rows, logBlock, dollar, rate, valueBits): External
 *   fmLocate(handle, row): number               text position of FM row `row` (= SA rank + 1); -1 = corrupt index
 *   fmLocateMany(handle, rows: Float64Array, out: Float64Array): void   the same per row: one N-API crossing,
 *                                                 and 16 walks interleaved so their cache misses overlap
 *   fmCount(handle, query: Uint8Array): number   ep − sp of the backward search, stopping once it is empty
 *                                                 (FmIndex.count); -1 for a damaged index
 *   fmSearch(handle, query: Uint8Array, out: Float64Array(2)): void   backward search (FmIndex.search): out = [sp, ep),
 *                                                 [-1, -1] for a damaged index. Why C: a whole-month count is one
 *                                                 search per part, 2 ranks per query byte, each ~0.3 µs in TypeScript
 *
 * The handle holds references to the arrays, so their memory stays alive and in place while it exists. Every
 * index is bounds-checked: a damaged shard gives -1 (the reader throws ShardFormatError), never a wild read.
 */
#include "fm_locate.h"
#include "huge_pages.h"
#include "napi_check.h"
#include <stdint.h>
#include <stdlib.h>

#include <string.h>

/*
 * Hybrid chunks of the wavelet bits (src/shard/compressed/rank-bits.ts): 256 bits, plain, run boundaries or (format
 * version 5) RRR: 8 classes of 6 bits, then per 32-bit sub-block its offset (src/shard/compressed/rrr-chunk.ts).
 */
enum { ARRAYS = 12, FILL = 0, CHUNK_BITS = 256, PLAIN = 255, RRR = 254, RRR_CLASS_BYTES = 6, PLAIN_BYTES = 32, ONES_MASK = (1 << 24) - 1 };

typedef struct {
  napi_ref refs[ARRAYS];
  const int32_t *block_info; size_t block_info_len;
  const int32_t *nodes; size_t nodes_len;
  const uint32_t *dir; size_t dir_len;
  const uint8_t *stream; size_t stream_len;
  const uint32_t *occ; size_t occ_len;
  const double *below; size_t below_len;
  const uint32_t *sample_chunks; size_t sample_chunks_len;
  const uint8_t *sample_rows; size_t sample_rows_len;
  const uint32_t *sample_values; size_t sample_values_len;
  const uint8_t *lens; size_t lens_len;
  const uint32_t *paths; size_t paths_len;
  const double *totals; size_t totals_len;
  int64_t rows, dollar;
  uint32_t log_block, block_mask, rate, width, value_mask;
} Fm;

/*
 * by_k[k + 1][n] = C(n, k) (all fit a u32): one row per class, so the decode steps along a row and moves one row
 * up per one it finds. Row 0 (k = −1) is all ones, so no offset in range ever steps past it.
 * offset_bits[k] = ceil(log2 C(32, k)), the offset width of class k.
 */
static uint32_t by_k[34][33];
static uint32_t offset_bits[33];

static void init_binom(void) {
  if (by_k[1][0] == 1) return;
  for (int n = 0; n <= 32; n++) by_k[0][n] = UINT32_MAX;
  for (int n = 0; n <= 32; n++) {
    by_k[1][n] = 1;
    for (int k = 1; k <= 32; k++) by_k[k + 1][n] = n == 0 ? 0 : by_k[k][n - 1] + by_k[k + 1][n - 1];
  }
  for (int k = 0; k <= 32; k++) offset_bits[k] = by_k[k + 1][32] <= 1 ? 0 : 32 - (uint32_t)__builtin_clz(by_k[k + 1][32] - 1);
}

/*
 * Ones in the first p bits of the RRR chunk at `off` and in *one bit p (rrrRankBit); -1 when it leads outside the
 * stream or a class is over 32. The open (TypeScript) checked every offset is in range; an out-of-range one could
 * only give a wrong count here, never a wild read.
 */
static int64_t rrr_rank_bit(const Fm *f, uint32_t off, uint32_t p, uint32_t *one) {
  if ((uint64_t)off + RRR_CLASS_BYTES > f->stream_len) return -1;
  const uint8_t *s = f->stream + off;
  /* A payload of up to 36 bytes often spans two cache lines: ask for the second with the first. */
  __builtin_prefetch(s + 35);
  uint64_t classes = 0;
  memcpy(&classes, s, RRR_CLASS_BYTES); /* little-endian: checked on open */
  uint32_t q = p >> 5, r = p & 31, ones = 0, at = 8 * RRR_CLASS_BYTES;
  for (uint32_t i = 0; i < q; i++) {
    uint32_t c = (uint32_t)(classes >> (6 * i)) & 63;
    if (c > 32) return -1;
    ones += c;
    at += offset_bits[c];
  }
  uint32_t k = (uint32_t)(classes >> (6 * q)) & 63, w;
  if (k > 32) return -1;
  w = offset_bits[k];
  uint32_t o = 0;
  if (w > 0) {
    uint64_t first = at >> 3, last = (at + w - 1) >> 3, v = 0;
    if (off + last >= f->stream_len) return -1;
    if (off + first + 8 <= f->stream_len) memcpy(&v, s + first, 8);
    else
      for (uint64_t i = last + 1; i-- > first;) v = v << 8 | s[i];
    o = (uint32_t)((v >> (at & 7)) & ((1ull << w) - 1));
  }
  /*
   * Decode from bit 31 down to bit r (the combinatorial number system): bit i is set when o ≥ C(i, k); what
   * remains of k is the ones ≤ r. Both candidates of the next step (same k, or k − 1) are loaded before this
   * step's compare, so the chain per bit is a compare and a select, not a table load.
   */
  const uint32_t *row = by_k[k + 1];
  uint32_t c = row[31];
  for (uint32_t i = 31; i > r; i--) {
    uint32_t same = row[i - 1], less = (row - 33)[i - 1], ge = o >= c;
    o -= c & (0u - ge);
    row -= 33 * ge;
    k -= ge;
    c = ge ? less : same;
  }
  uint32_t bit = o >= c;
  *one = bit;
  return (int64_t)ones + k - bit;
}

static inline uint32_t popcount32(uint32_t x) { return (uint32_t)__builtin_popcount(x); }

/*
 * Ones in the first `bit` bits of the block whose first hybrid chunk is `base`, and in *one the bit at `bit` itself
 * (RankBits.rankBit); -1 when the index leads outside the directory or the stream. LF steps and the backward
 * search share it. A uniform chunk is answered from its directory entry; a run chunk reads ≤ 31 boundary bytes.
 */
static int64_t rank_bit(const Fm *f, uint32_t base, uint32_t bit, uint32_t *one) {
  uint64_t j = (uint64_t)base + (bit >> 8);
  if (2 * j + 1 >= f->dir_len) return -1;
  uint32_t entry = f->dir[2 * j + 1], off = f->dir[2 * j], header = entry >> 24, p = bit & 255;
  uint32_t ones = entry & ONES_MASK;
  if (header == RRR) {
    int64_t in = rrr_rank_bit(f, off, p, one);
    return in < 0 ? -1 : ones + in;
  }
  if (header == PLAIN) {
    if ((uint64_t)off + PLAIN_BYTES > f->stream_len) return -1;
    uint64_t w[4];
    memcpy(w, f->stream + off, sizeof w);
    uint32_t in = p >> 6, rem = p & 63;
    for (uint32_t k = 0; k < in; k++) ones += (uint32_t)__builtin_popcountll(w[k]);
    if (rem != 0) ones += (uint32_t)__builtin_popcountll(w[in] << (64 - rem));
    *one = (uint32_t)(w[in] >> rem) & 1;
    return ones;
  }
  uint32_t k = header >> 1, cur = header & 1, prev = 0;
  if (header > 2 * PLAIN_BYTES - 1 || (uint64_t)off + k > f->stream_len) return -1;
  const uint8_t *at = f->stream + off;
  for (uint32_t i = 0; i < k && at[i] <= p; i++) {
    if (cur) ones += at[i] - prev;
    prev = at[i];
    cur ^= 1;
  }
  if (cur) ones += p - prev;
  *one = cur;
  return ones;
}

/*
 * A helper whose only effects are prefetches must be always_inline: GCC 12 deduces such a function is pure (a
 * prefetch is no side effect to it) and deletes the call, prefetches and all, wherever it is not inlined first
 * (measured: prefetch_step below was gone from locate_many until this attribute).
 */
#define PREFETCH_ONLY static inline __attribute__((always_inline)) void

/*
 * Fetches child `child`'s directory entries for chunks k and k + 1, k holding its bit `lo` (a leaf < 0 has no bits).
 * An unsigned position that wraps (a window starting before the node) lands past the directory and fetches nothing.
 */
PREFETCH_ONLY prefetch_child(const Fm *f, uint32_t base, int32_t child, uint32_t lo) {
  if (child >= 0 && 4 * (size_t)child < f->nodes_len) {
    uint64_t k = (uint64_t)base + (((uint32_t)f->nodes[4 * (size_t)child] + lo) >> 8);
    if (2 * k + 2 < f->dir_len) {
      __builtin_prefetch(f->dir + 2 * k);
      __builtin_prefetch(f->dir + 2 * k + 2);
    }
  }
}

/* LF(i), or -1 for the sentinel's row, or -2 when the index leads outside its arrays. */
static int64_t lf(const Fm *f, int64_t i) {
  if (i == f->dollar) return -1;
  uint64_t b = (uint64_t)i >> f->log_block;
  if (2 * b + 1 >= f->block_info_len) return -2;
  uint32_t local = (uint32_t)i & f->block_mask;
  int32_t node = f->block_info[2 * b];
  uint32_t base = (uint32_t)f->block_info[2 * b + 1];
  if (node >= 0) {
    /*
     * The walk's misses are a chain: block record, then per level a node record and its rank chunk. A block's node
     * records are contiguous, root first and the nodes of its shortest (most frequent) codes next, so the first
     * three cache lines hold most levels a step visits; and the root's bits start at the block's first word, so
     * its chunk is known now. Fetching them together turns ~2 misses per level into ~1.
     */
    const int32_t *top = f->nodes + 4 * (size_t)node;
    __builtin_prefetch(top);
    __builtin_prefetch(top + 16);
    __builtin_prefetch(top + 32);
    uint64_t j = (uint64_t)base + (local >> 8);
    if (2 * j + 1 < f->dir_len) {
      __builtin_prefetch(f->dir + 2 * j);
      __builtin_prefetch(f->stream + f->dir[2 * j]); /* usually still in flight: a harmless hint */
    }
  }
  while (node >= 0) {
    if (4 * (size_t)node + 3 >= f->nodes_len) return -2;
    const int32_t *nd = f->nodes + 4 * (size_t)node;
    /* A leaf child's cumulative count is the step's last read: fetch it while this level's chunk is read. */
    if (nd[2] < 0) __builtin_prefetch(f->occ + (b << 8 | (uint32_t)(-(int64_t)nd[2] - 1)));
    if (nd[3] < 0) __builtin_prefetch(f->occ + (b << 8 | (uint32_t)(-(int64_t)nd[3] - 1)));
    uint32_t one, bit = (uint32_t)nd[0] + local;
    uint64_t j = (uint64_t)base + (bit >> 8);
    if (2 * j + 1 < f->dir_len) {
      /*
       * The next level's directory entry would otherwise be read only after this level's payload: a second miss per
       * level in the chain. The ones before this chunk (its entry) leave the child's position within p + 1 values
       * (however many of the chunk's first p bits are set), so fetch the entries for both children now, while the
       * payload is on its way (cold locate p50 −15 % on the real month, BENCHMARKS.md issue 24).
       */
      uint32_t before = (f->dir[2 * j + 1] & ONES_MASK) - (uint32_t)nd[1], p = bit & 255;
      prefetch_child(f, base, nd[3], before);
      prefetch_child(f, base, nd[2], local - before - p);
    }
    int64_t r = rank_bit(f, base, bit, &one);
    if (r < 0) return -2;
    uint32_t ones = (uint32_t)r - (uint32_t)nd[1];
    if (one) {
      local = ones;
      node = nd[3];
    } else {
      local -= ones;
      node = nd[2];
    }
  }
  uint32_t c = (uint32_t)(-(int64_t)node - 1);
  if (c > 255 || (b << 8 | c) >= f->occ_len) return -2;
  int64_t r = (int64_t)f->occ[b << 8 | c] + local;
  int64_t row = (int64_t)f->below[c] + (c == FILL && i > f->dollar ? r - 1 : r);
  return row >= 0 && row < f->rows ? row : -2;
}

/* Occurrences of byte c in BWT rows [0, i) (FmIndex.rank); -1 when the index leads outside its arrays. */
static int64_t rank_of(const Fm *f, uint32_t c, int64_t i) {
  if (i >= f->rows) return (int64_t)f->totals[c];
  uint64_t b = (uint64_t)i >> f->log_block, k = b << 8 | c;
  if (k >= f->occ_len || k >= f->lens_len || 2 * b + 1 >= f->block_info_len) return -1;
  int64_t r = f->occ[k];
  uint32_t len = f->lens[k], local = (uint32_t)i & f->block_mask;
  int32_t node = f->block_info[2 * b];
  if (len == 0) {
    if (node != -(int32_t)(c + 1)) local = 0;
  } else {
    uint32_t base = (uint32_t)f->block_info[2 * b + 1], path = f->paths[k];
    for (uint32_t d = 0; d < len; d++) {
      if (node < 0 || 4 * (size_t)node + 3 >= f->nodes_len) return -1;
      const int32_t *nd = f->nodes + 4 * (size_t)node;
      uint32_t one;
      int64_t ones = rank_bit(f, base, (uint32_t)nd[0] + local, &one);
      if (ones < 0) return -1;
      ones -= (uint32_t)nd[1];
      if ((path >> d) & 1) {
        local = (uint32_t)ones;
        node = nd[3];
      } else {
        local -= (uint32_t)ones;
        node = nd[2];
      }
    }
  }
  r += local;
  return c == FILL && i > f->dollar ? r - 1 : r;
}

/*
 * Backward search (FmIndex.search): rows [sp, ep) of the suffixes starting with q; 0 when the index is damaged.
 * `count_only` stops at the first empty interval (FmIndex.count): its count is 0 whatever the remaining bytes, and
 * only `find` needs the exact insertion point. Most parts of a month hold no occurrence of a long query, and a
 * query's last 10–20 bytes usually already say so.
 */
static int search(const Fm *f, const uint8_t *q, size_t n, int64_t *sp_out, int64_t *ep_out, int count_only) {
  int64_t sp = 0, ep = f->rows;
  for (size_t k = n; k-- > 0 && !(count_only && sp == ep);) {
    uint32_t c = q[k];
    int64_t base = (int64_t)f->below[c];
    int64_t lo = rank_of(f, c, sp);
    int64_t hi = sp == ep ? lo : rank_of(f, c, ep);
    if (lo < 0 || hi < 0) return 0;
    sp = base + lo;
    ep = base + hi;
    if (sp > ep || ep > f->rows) return 0;
  }
  *sp_out = sp;
  *ep_out = ep;
  return 1;
}

/* Text position of row i if sampled, -1 if not, -2 when the marks lead outside their arrays. */
static int64_t sample_at(const Fm *f, int64_t i) {
  uint64_t chunk = (uint64_t)i >> 8;
  uint32_t low = (uint32_t)i & 255;
  if (chunk + 1 >= f->sample_chunks_len) return -2;
  uint64_t end = f->sample_chunks[chunk + 1];
  if (end > f->sample_rows_len) return -2;
  for (uint64_t k = f->sample_chunks[chunk]; k < end; k++) {
    uint32_t r = f->sample_rows[k];
    if (r == low) {
      uint64_t bit = k * f->width;
      uint64_t w = bit >> 5;
      uint32_t off = (uint32_t)(bit & 31);
      if (w >= f->sample_values_len) return -2;
      uint32_t v = f->sample_values[w] >> off;
      if (off + f->width > 32) {
        if (w + 1 >= f->sample_values_len) return -2;
        v |= f->sample_values[w + 1] << (32 - off);
      }
      return (int64_t)(v & f->value_mask) * f->rate;
    }
    if (r > low) break;
  }
  return -1;
}

/*
 * One step of a walk at `*row` after `steps` steps: 1 = finished with *pos (the text position, or -1 for a damaged
 * index: a position past the text, or a walk longer than `rate` steps, which a valid index never takes since it
 * samples every position divisible by rate); 0 = not yet, *row is the next row.
 */
static inline int step(const Fm *f, int64_t *row, int64_t steps, int64_t *pos) {
  /* The sample marks and the LF step of a row are independent: their misses overlap (LF first, as 63 in 64 rows
     are not sampled, and the marks' loop ends on a branch the CPU cannot predict). */
  if (((uint64_t)*row >> 8) < f->sample_chunks_len) __builtin_prefetch(f->sample_chunks + ((uint64_t)*row >> 8));
  int64_t next = lf(f, *row);
  int64_t sampled = sample_at(f, *row);
  if (sampled != -1) {
    *pos = sampled >= 0 && sampled + steps < f->rows - 1 ? sampled + steps : -1;
    return 1;
  }
  if (next < 0 || steps >= (int64_t)f->rate) {
    *pos = next == -1 && steps < f->rows - 1 ? steps : -1;
    return 1;
  }
  *row = next;
  return 0;
}

/* The rows a walk starts from: 1 <= row < rows, integral. */
static inline int valid_row(const Fm *f, double row) {
  return row >= 1 && row < (double)f->rows && row == (double)(int64_t)row;
}

/* SA[row - 1]: LF steps back to a sampled row, or to text position 0; -1 for a damaged index. */
static int64_t locate(const Fm *f, int64_t row) {
  int64_t pos = -1;
  for (int64_t steps = 0; !step(f, &row, steps, &pos); steps++) {}
  return pos;
}

/* Where the next step of a walk at `row` reads first: fetched early, so other walks' steps hide the misses. */
PREFETCH_ONLY prefetch_step(const Fm *f, int64_t row) {
  uint64_t b = (uint64_t)row >> f->log_block;
  if (((uint64_t)row >> 8) < f->sample_chunks_len) __builtin_prefetch(f->sample_chunks + ((uint64_t)row >> 8));
  if (2 * b + 1 < f->block_info_len) {
    __builtin_prefetch(f->block_info + 2 * b);
    /* The root's bits start at its block's first chunk, so its directory entry is known before its node record is read. */
    uint64_t j = (uint64_t)(uint32_t)f->block_info[2 * b + 1] + (((uint32_t)row & f->block_mask) >> 8);
    if (2 * j + 1 < f->dir_len) __builtin_prefetch(f->dir + 2 * j);
  }
}

enum { LANES = 16 };

/*
 * out[k] = locate(rows[k]) for every k, LANES walks interleaved step by step: one walk is a chain of dependent
 * cache misses, but the walks are independent, so while one waits the others proceed (memory-level parallelism).
 */
static void locate_many(const Fm *f, const double *rows, double *out, size_t n) {
  int64_t row[LANES], steps[LANES];
  size_t slot[LANES];
  size_t next = 0, active = 0;
  for (;;) {
    while (active < LANES && next < n) {
      size_t k = next++;
      if (!valid_row(f, rows[k])) {
        out[k] = -1;
        continue;
      }
      row[active] = (int64_t)rows[k];
      steps[active] = 0;
      slot[active] = k;
      prefetch_step(f, row[active]);
      active++;
    }
    if (active == 0) return;
    for (size_t j = 0; j < active;) {
      int64_t pos;
      if (step(f, &row[j], steps[j], &pos)) {
        out[slot[j]] = (double)pos;
        active--; /* the last walk takes this lane; it is stepped in this same pass */
        row[j] = row[active];
        steps[j] = steps[active];
        slot[j] = slot[active];
        continue;
      }
      steps[j]++;
      prefetch_step(f, row[j]);
      j++;
    }
  }
}

static void finalize(napi_env env, void *data, void *hint) {
  (void)hint;
  Fm *f = (Fm *)data;
  for (int k = 0; k < ARRAYS; k++) if (f->refs[k] != NULL) napi_delete_reference(env, f->refs[k]);
  free(f);
}

/* The typed array's data and element count if it has the expected type, else 0. */
static int typed(napi_env env, napi_value v, napi_typedarray_type want, const void **data, size_t *len) {
  return news_typed_array(env, v, want, (void **)data, len);
}

static int int_arg(napi_env env, napi_value v, int64_t *out) {
  return napi_get_value_int64(env, v, out) == napi_ok;
}

static napi_value fm_open(napi_env env, napi_callback_info info) {
  size_t argc = ARRAYS + 5;
  napi_value argv[ARRAYS + 5], handle;
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  Fm *f = (Fm *)calloc(1, sizeof(Fm));
  if (f == NULL) {
    napi_throw_error(env, NULL, "out of memory");
    return NULL;
  }
  init_binom();
  int64_t rows, log_block, dollar, rate, width;
  int ok = argc == ARRAYS + 5 &&
      typed(env, argv[0], napi_int32_array, (const void **)&f->block_info, &f->block_info_len) &&
      typed(env, argv[1], napi_int32_array, (const void **)&f->nodes, &f->nodes_len) &&
      typed(env, argv[2], napi_uint32_array, (const void **)&f->dir, &f->dir_len) &&
      typed(env, argv[3], napi_uint8_array, (const void **)&f->stream, &f->stream_len) &&
      typed(env, argv[4], napi_uint32_array, (const void **)&f->occ, &f->occ_len) &&
      typed(env, argv[5], napi_float64_array, (const void **)&f->below, &f->below_len) &&
      typed(env, argv[6], napi_uint32_array, (const void **)&f->sample_chunks, &f->sample_chunks_len) &&
      typed(env, argv[7], napi_uint8_array, (const void **)&f->sample_rows, &f->sample_rows_len) &&
      typed(env, argv[8], napi_uint32_array, (const void **)&f->sample_values, &f->sample_values_len) &&
      typed(env, argv[9], napi_uint8_array, (const void **)&f->lens, &f->lens_len) &&
      typed(env, argv[10], napi_uint32_array, (const void **)&f->paths, &f->paths_len) &&
      typed(env, argv[11], napi_float64_array, (const void **)&f->totals, &f->totals_len) &&
      int_arg(env, argv[12], &rows) && int_arg(env, argv[13], &log_block) && int_arg(env, argv[14], &dollar) &&
      int_arg(env, argv[15], &rate) && int_arg(env, argv[16], &width);
  ok = ok && f->below_len >= 256 && f->totals_len >= 256 && f->lens_len == f->paths_len && rows > 0 && rows <= INT32_MAX && log_block >= 0 && log_block <= 30 &&
      dollar >= 0 && dollar < rows && rate >= 1 && rate <= (1 << 30) && width >= 1 && width <= 32;
  if (!ok) {
    free(f);
    napi_throw_type_error(env, NULL, "fmOpenRrr: expected the FM-index and sample arrays and 5 valid integers (see fm_locate.c)");
    return NULL;
  }
  f->rows = rows;
  f->dollar = dollar;
  f->log_block = (uint32_t)log_block;
  f->block_mask = (1u << log_block) - 1;
  f->rate = (uint32_t)rate;
  f->width = (uint32_t)width;
  f->value_mask = width == 32 ? 0xffffffffu : (1u << width) - 1;
  /* The arrays large enough to hold whole huge pages (the bits are ~0.3 B per text byte, their directory ~0.07). */
  news_huge_pages(f->stream, f->stream_len, 1);
  news_huge_pages(f->dir, f->dir_len * sizeof *f->dir, 1);
  news_huge_pages(f->nodes, f->nodes_len * sizeof *f->nodes, 1);
  news_huge_pages(f->occ, f->occ_len * sizeof *f->occ, 1);
  news_huge_pages(f->sample_chunks, f->sample_chunks_len * sizeof *f->sample_chunks, 1);
  news_huge_pages(f->sample_rows, f->sample_rows_len, 1);
  news_huge_pages(f->sample_values, f->sample_values_len * sizeof *f->sample_values, 1);
  news_huge_pages(f->paths, f->paths_len * sizeof *f->paths, 1);
  news_huge_pages(f->lens, f->lens_len, 1);
  for (int k = 0; k < ARRAYS; k++) {
    if (napi_create_reference(env, argv[k], 1, &f->refs[k]) != napi_ok) {
      finalize(env, f, NULL);
      napi_throw_error(env, NULL, "fmOpenRrr: could not keep the arrays alive");
      return NULL;
    }
  }
  if (napi_create_external(env, f, finalize, NULL, &handle) != napi_ok) {
    finalize(env, f, NULL);
    napi_throw_error(env, NULL, "fmOpenRrr: could not create the handle");
    return NULL;
  }
  return handle;
}

static const Fm *get_fm(napi_env env, napi_value v) {
  napi_valuetype type;
  void *data = NULL;
  if (napi_typeof(env, v, &type) != napi_ok || type != napi_external || napi_get_value_external(env, v, &data) != napi_ok) {
    napi_throw_type_error(env, NULL, "expected a handle from fmOpenRrr");
    return NULL;
  }
  return (const Fm *)data;
}

static napi_value fm_locate(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2], result;
  double row;
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  const Fm *f = argc == 2 ? get_fm(env, argv[0]) : NULL;
  if (f == NULL) {
    if (argc != 2) napi_throw_type_error(env, NULL, "fmLocate(handle, row)");
    return NULL;
  }
  if (napi_get_value_double(env, argv[1], &row) != napi_ok) {
    napi_throw_type_error(env, NULL, "fmLocate: row must be a number");
    return NULL;
  }
  /* Callers pass integer rows; anything else is a row no index has. */
  int64_t at = valid_row(f, row) ? locate(f, (int64_t)row) : -1;
  CHECK(env, napi_create_double(env, (double)at, &result));
  return result;
}

/* The (handle, input typed array, out Float64Array) arguments of the calls below; NULL after throwing `usage`. */
static const Fm *handle_in_out(napi_env env, napi_callback_info info, const char *usage, napi_typedarray_type in_type,
                               const void **in, size_t *n, double **out, size_t *out_n) {
  size_t argc = 3;
  napi_value argv[3];
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  const Fm *f = argc == 3 ? get_fm(env, argv[0]) : NULL;
  if (f == NULL) {
    if (argc != 3) napi_throw_type_error(env, NULL, usage);
    return NULL;
  }
  if (!typed(env, argv[1], in_type, in, n) || !typed(env, argv[2], napi_float64_array, (const void **)out, out_n)) {
    napi_throw_type_error(env, NULL, usage);
    return NULL;
  }
  return f;
}

static napi_value fm_locate_many(napi_env env, napi_callback_info info) {
  static const char usage[] = "fmLocateMany(handle, rows, out): rows and out must be Float64Arrays of one length";
  const double *rows;
  double *out;
  size_t n, out_n;
  const Fm *f = handle_in_out(env, info, usage, napi_float64_array, (const void **)&rows, &n, &out, &out_n);
  if (f == NULL) return NULL;
  if (out_n != n) return napi_throw_type_error(env, NULL, usage), NULL;
  locate_many(f, rows, out, n);
  return NULL;
}

static napi_value fm_search(napi_env env, napi_callback_info info) {
  static const char usage[] = "fmSearch(handle, query, out): query must be a Uint8Array and out a Float64Array of 2";
  const uint8_t *q;
  double *out;
  size_t n, out_n;
  const Fm *f = handle_in_out(env, info, usage, napi_uint8_array, (const void **)&q, &n, &out, &out_n);
  if (f == NULL) return NULL;
  if (out_n != 2) return napi_throw_type_error(env, NULL, usage), NULL;
  int64_t sp, ep;
  int ok = search(f, q, n, &sp, &ep, 0);
  out[0] = ok ? (double)sp : -1;
  out[1] = ok ? (double)ep : -1;
  return NULL;
}

static napi_value fm_count(napi_env env, napi_callback_info info) {
  static const char usage[] = "fmCount(handle, query): query must be a Uint8Array";
  size_t argc = 2;
  napi_value argv[2], result;
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  const Fm *f = argc == 2 ? get_fm(env, argv[0]) : NULL;
  if (f == NULL) {
    if (argc != 2) napi_throw_type_error(env, NULL, usage);
    return NULL;
  }
  const uint8_t *q;
  size_t n;
  if (!typed(env, argv[1], napi_uint8_array, (const void **)&q, &n)) return napi_throw_type_error(env, NULL, usage), NULL;
  int64_t sp, ep;
  int ok = search(f, q, n, &sp, &ep, 1);
  CHECK(env, napi_create_double(env, ok ? (double)(ep - sp) : -1, &result));
  return result;
}

napi_status news_fm_register(napi_env env, napi_value exports) {
  static const news_function fns[] = {
    {"fmOpenRrr", fm_open}, {"fmLocate", fm_locate}, {"fmLocateMany", fm_locate_many}, {"fmSearch", fm_search},
    {"fmCount", fm_count},
  };
  return news_register_functions(env, exports, fns, sizeof fns / sizeof fns[0]);
}
