/*
 * The compressed shard kind's build passes in C: the three loops of buildFm (src/shard/compressed/fm-build.ts) that
 * touch every row. Why: in TypeScript they cost about as much CPU as the suffix sort itself (25 s for 268 MB), and
 * a 20 GB month has 19 parts of 1 GiB. They write the very arrays the TypeScript passes write, byte for byte (the
 * TypeScript passes stay the reference a property test compares these against); the Huffman shapes per block are
 * still computed in TypeScript (a few hundred operations per 32,768 rows).
 *
 *   fmBwtRows(text: Uint8Array, sa: Int32Array, bwt: Uint8Array, from, to, rate, width,
 *             chunkStart: Uint32Array, rowLow: Uint8Array, values: Uint32Array, state: Float64Array)
 *       rows [from, to) of the BWT (bwt[r + 1] = text[SA[r] - 1], FILL where SA[r] = 0) and their SA samples.
 *       state = [next sample, current 256-row chunk, dollar row]; when `to` is the last row the chunk table is closed.
 *   fmBlockCounts(bwt: Uint8Array, rows, blockSymbols, fromBlock, toBlock, counts: Uint16Array)
 *       per block, the 256 symbol counts.
 *   fmFillBlock(bwt: Uint8Array, from, to, lengths: Uint8Array, path: Uint32Array, child0: Int32Array,
 *               child1: Int32Array, cursor: Uint32Array, words: Uint32Array, base)
 *       one block's wavelet bits: each symbol walks its Huffman path, setting a 1 bit at the cursor of every node
 *       where the path goes right.
 *
 * Every index is bounds-checked before the loop or in it: a bad argument throws a TypeError, never writes wild.
 */
#include "fm_build.h"
#include "napi_check.h"
#include <stdint.h>

enum { ALPHABET = 256, FILL = 0, PREFETCH_ROWS = 64 };

/* A non-negative integer argument (JavaScript numbers up to 2^53). */
static int index_arg(napi_env env, napi_value v, int64_t *out) {
  double d;
  if (napi_get_value_double(env, v, &d) != napi_ok || !(d >= 0 && d <= 9007199254740992.0) || d != (double)(int64_t)d) return 0;
  *out = (int64_t)d;
  return 1;
}

static napi_value fail(napi_env env, const char *message) {
  napi_throw_type_error(env, NULL, message);
  return NULL;
}

static napi_value fm_bwt_rows(napi_env env, napi_callback_info info) {
  size_t argc = 11;
  napi_value argv[11];
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  uint8_t *text, *bwt, *row_low;
  int32_t *sa;
  uint32_t *chunk_start, *values;
  double *state;
  size_t n, sa_len, bwt_len, row_low_len, chunk_len, values_len, state_len;
  int64_t from, to, rate, width;
  int ok = argc == 11 && news_typed_array(env, argv[0], napi_uint8_array, (void **)&text, &n) &&
      news_typed_array(env, argv[1], napi_int32_array, (void **)&sa, &sa_len) &&
      news_typed_array(env, argv[2], napi_uint8_array, (void **)&bwt, &bwt_len) &&
      index_arg(env, argv[3], &from) && index_arg(env, argv[4], &to) && index_arg(env, argv[5], &rate) &&
      index_arg(env, argv[6], &width) &&
      news_typed_array(env, argv[7], napi_uint32_array, (void **)&chunk_start, &chunk_len) &&
      news_typed_array(env, argv[8], napi_uint8_array, (void **)&row_low, &row_low_len) &&
      news_typed_array(env, argv[9], napi_uint32_array, (void **)&values, &values_len) &&
      news_typed_array(env, argv[10], napi_float64_array, (void **)&state, &state_len);
  ok = ok && sa_len == n && bwt_len >= n + 1 && from <= to && (size_t)to <= n && rate >= 1 && rate <= INT32_MAX && width >= 1 && width <= 32 &&
      state_len == 3 && chunk_len == (n + 1 + 255) / 256 + 1;
  if (!ok) return fail(env, "fmBwtRows: expected text, SA, BWT, row range, rate, width, sample arrays and state (see fm_build.c)");
  uint64_t next = (uint64_t)state[0], chunk = (uint64_t)state[1], dollar = (uint64_t)state[2];
  const uint32_t mask = width == 32 ? 0xffffffffu : (1u << width) - 1;
  /*
   * "p divisible by rate" without a division per row (a division costs as much as the rest of the row):
   * rate = 2^k · d with d odd; p is divisible iff its low k bits are 0 and (p >> k) · d⁻¹ mod 2^32 ≤ (2^32 − 1) / d,
   * d⁻¹ the inverse of d modulo 2^32 (Granlund & Montgomery). d = 1 (a power of two) leaves the mask alone.
   */
  const uint32_t low_mask = ((uint32_t)rate & (uint32_t)-rate) - 1;
  const uint32_t shift = (uint32_t)__builtin_ctz((uint32_t)rate);
  const uint32_t odd = (uint32_t)rate >> shift;
  uint32_t inverse = odd; /* Newton's iteration: each step doubles the correct low bits (3 → 6 → 12 → 24 → 48) */
  for (int k = 0; k < 4; k++) inverse *= 2u - odd * inverse;
  const uint32_t limit = 0xffffffffu / odd;
  for (int64_t r = from; r < to; r++) {
    /* SA order is random text order: fetch a later row's byte early, so the cache misses overlap. */
    if (r + PREFETCH_ROWS < to) {
      int32_t ahead = sa[r + PREFETCH_ROWS];
      if (ahead > 0 && (size_t)ahead <= n) __builtin_prefetch(text + ahead - 1);
    }
    /* BWT byte r + 1 lies in SA[(r + 1) / 4] or before it: already read when bwt aliases the SA (see buildFm). */
    int32_t p = sa[r];
    if (p < 0 || (size_t)p >= n) return fail(env, "fmBwtRows: a suffix array entry lies outside the text");
    if (p == 0) {
      bwt[r + 1] = FILL;
      dollar = (uint64_t)r + 1;
    } else {
      bwt[r + 1] = text[p - 1];
    }
    if (((uint32_t)p & low_mask) != 0 || ((uint32_t)p >> shift) * inverse > limit) continue;
    uint64_t i = (uint64_t)r + 1, c = i >> 8;
    if (next >= row_low_len || c >= chunk_len) return fail(env, "fmBwtRows: the sample arrays are too small");
    while (chunk < c) chunk_start[++chunk] = (uint32_t)next;
    row_low[next] = (uint8_t)(i & 255);
    uint32_t v = (uint32_t)(p / rate) & mask;
    uint64_t bit = next * (uint64_t)width, w = bit >> 5;
    uint32_t off = (uint32_t)(bit & 31);
    if (w >= values_len || (off + width > 32 && w + 1 >= values_len)) return fail(env, "fmBwtRows: the sample values are too small");
    values[w] |= v << off;
    if (off + width > 32) values[w + 1] |= v >> (32 - off);
    next++;
  }
  if ((size_t)to == n) {
    while (chunk + 1 < chunk_len) chunk_start[++chunk] = (uint32_t)next;
  }
  state[0] = (double)next;
  state[1] = (double)chunk;
  state[2] = (double)dollar;
  return NULL;
}

static napi_value fm_block_counts(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  uint8_t *bwt;
  uint16_t *counts;
  size_t bwt_len, counts_len;
  int64_t rows, block, from, to;
  int ok = argc == 6 && news_typed_array(env, argv[0], napi_uint8_array, (void **)&bwt, &bwt_len) &&
      index_arg(env, argv[1], &rows) && index_arg(env, argv[2], &block) && index_arg(env, argv[3], &from) &&
      index_arg(env, argv[4], &to) && news_typed_array(env, argv[5], napi_uint16_array, (void **)&counts, &counts_len);
  /* Counts are u16: a block holds at most 65,535 symbols. */
  ok = ok && (size_t)rows <= bwt_len && block >= 1 && block <= 65535 && from <= to && (size_t)to * ALPHABET <= counts_len &&
      (to == 0 || (to - 1) * block < rows);
  if (!ok) return fail(env, "fmBlockCounts: expected the BWT, rows, block size, block range and counts (see fm_build.c)");
  for (int64_t b = from; b < to; b++) {
    uint16_t *cnt = counts + b * ALPHABET;
    int64_t end = (b + 1) * block < rows ? (b + 1) * block : rows;
    for (int64_t i = b * block; i < end; i++) cnt[bwt[i]]++;
  }
  return NULL;
}

static napi_value fm_fill_block(napi_env env, napi_callback_info info) {
  size_t argc = 10;
  napi_value argv[10];
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  uint8_t *bwt, *lengths;
  uint32_t *path, *cursor, *words;
  int32_t *child0, *child1;
  size_t bwt_len, lengths_len, path_len, child0_len, child1_len, cursor_len, words_len;
  int64_t from, to, base;
  int ok = argc == 10 && news_typed_array(env, argv[0], napi_uint8_array, (void **)&bwt, &bwt_len) &&
      index_arg(env, argv[1], &from) && index_arg(env, argv[2], &to) &&
      news_typed_array(env, argv[3], napi_uint8_array, (void **)&lengths, &lengths_len) &&
      news_typed_array(env, argv[4], napi_uint32_array, (void **)&path, &path_len) &&
      news_typed_array(env, argv[5], napi_int32_array, (void **)&child0, &child0_len) &&
      news_typed_array(env, argv[6], napi_int32_array, (void **)&child1, &child1_len) &&
      news_typed_array(env, argv[7], napi_uint32_array, (void **)&cursor, &cursor_len) &&
      news_typed_array(env, argv[8], napi_uint32_array, (void **)&words, &words_len) && index_arg(env, argv[9], &base);
  ok = ok && from <= to && (size_t)to <= bwt_len && lengths_len == ALPHABET && path_len == ALPHABET &&
      child0_len == cursor_len && child1_len == cursor_len && (size_t)base <= words_len;
  if (!ok) return fail(env, "fmFillBlock: expected the BWT, row range, block tree arrays, words and base (see fm_build.c)");
  const uint64_t room = words_len - (size_t)base;
  uint32_t *out = words + base;
  for (int64_t i = from; i < to; i++) {
    uint8_t c = bwt[i];
    uint32_t len = lengths[c], bits = path[c];
    int32_t node = 0;
    for (uint32_t d = 0; d < len; d++) {
      if (node < 0 || (size_t)node >= cursor_len) return fail(env, "fmFillBlock: a symbol's path leaves its block tree");
      uint32_t at = cursor[node]++;
      if ((at >> 5) >= room) return fail(env, "fmFillBlock: a node's bits run past the block's words");
      if ((bits >> d) & 1) {
        out[at >> 5] |= 1u << (at & 31);
        node = child1[node];
      } else {
        node = child0[node];
      }
    }
  }
  return NULL;
}

napi_status news_fm_build_register(napi_env env, napi_value exports) {
  static const news_function fns[] = {
    {"fmBwtRows", fm_bwt_rows}, {"fmBlockCounts", fm_block_counts}, {"fmFillBlock", fm_fill_block},
  };
  return news_register_functions(env, exports, fns, sizeof fns / sizeof fns[0]);
}
