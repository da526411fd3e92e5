/*
 * SA-IS suffix sorting (Nong, Zhang and Chan, "Two Efficient Algorithms for Linear Time Suffix Array
 * Construction", IEEE Trans. Computers 2011), written for this project from the paper's description.
 *
 * Why our own: the addon must build on a machine with only a C compiler (no libdivsufsort). Linear time; memory is
 * the caller's 4n-byte suffix array plus a type bitmap (n/8 bytes) and bucket counters per recursion level (the
 * reduced problem lives inside the suffix array's own space, as in the paper).
 *
 * Conventions: a virtual sentinel smaller than every symbol ends the string, so the last suffix is L-type and a
 * suffix that is a prefix of another sorts first (memcmp order, like libdivsufsort). -1 marks an empty slot.
 * Level 0 reads bytes, deeper levels read int32 names of LMS substrings: `sym()` hides the width.
 */
#include "sais.h"
#include <stdlib.h>
#include <string.h>

typedef struct {
  const void *s;
  int wide; /* 0: uint8_t symbols, 1: int32_t symbols */
} Str;

static inline int32_t sym(Str str, int32_t i) {
  return str.wide ? ((const int32_t *)str.s)[i] : (int32_t)((const uint8_t *)str.s)[i];
}

/* Bit i set: suffix i is S-type (smaller than the suffix after it). */
static inline int is_s(const uint8_t *t, int32_t i) { return (t[i >> 3] >> (i & 7)) & 1; }
static inline void set_s(uint8_t *t, int32_t i) { t[i >> 3] |= (uint8_t)(1u << (i & 7)); }
/* Leftmost S: an S-type position whose left neighbour is L-type. */
static inline int is_lms(const uint8_t *t, int32_t i) { return i > 0 && is_s(t, i) && !is_s(t, i - 1); }

/* Bucket boundaries per symbol: starts (end = 0) or one past the ends (end = 1). */
static void buckets(Str str, int32_t n, int32_t *bkt, int32_t k, int end) {
  memset(bkt, 0, (size_t)k * sizeof(int32_t));
  for (int32_t i = 0; i < n; i++) bkt[sym(str, i)]++;
  int32_t sum = 0;
  for (int32_t c = 0; c < k; c++) {
    sum += bkt[c];
    bkt[c] = end ? sum : sum - bkt[c];
  }
}

/* From LMS suffixes placed at their buckets' ends, induce the L-type then the S-type suffixes. */
static void induce(Str str, const uint8_t *t, int32_t *sa, int32_t n, int32_t *bkt, int32_t k) {
  buckets(str, n, bkt, k, 0);
  sa[bkt[sym(str, n - 1)]++] = n - 1; /* the suffix before the sentinel is L-type and comes first in its bucket */
  for (int32_t i = 0; i < n; i++) {
    int32_t j = sa[i] - 1;
    if (sa[i] > 0 && !is_s(t, j)) sa[bkt[sym(str, j)]++] = j;
  }
  buckets(str, n, bkt, k, 1);
  for (int32_t i = n - 1; i >= 0; i--) {
    int32_t j = sa[i] - 1;
    if (sa[i] > 0 && is_s(t, j)) sa[--bkt[sym(str, j)]] = j;
  }
}

/* Whether the LMS substrings at a and b (each up to and including the next LMS position) differ. */
static int lms_differ(Str str, const uint8_t *t, int32_t n, int32_t a, int32_t b) {
  for (int32_t d = 0;; d++) {
    if (a + d == n || b + d == n) return 1; /* one reached the unique sentinel */
    if (sym(str, a + d) != sym(str, b + d) || is_s(t, a + d) != is_s(t, b + d)) return 1;
    if (d > 0 && (is_lms(t, a + d) || is_lms(t, b + d))) return 0; /* same symbols and types: both end here */
  }
}

static int sais_level(Str str, int32_t *sa, int32_t n, int32_t k) {
  if (n == 1) {
    sa[0] = 0;
    return 0;
  }
  uint8_t *t = calloc((size_t)n / 8 + 1, 1);
  int32_t *bkt = malloc((size_t)k * sizeof(int32_t));
  if (t == NULL || bkt == NULL) {
    free(t);
    free(bkt);
    return -1;
  }
  /* Types, right to left; position n-1 is L-type (the sentinel is smaller). */
  for (int32_t i = n - 2; i >= 0; i--) {
    int32_t a = sym(str, i), b = sym(str, i + 1);
    if (a < b || (a == b && is_s(t, i + 1))) set_s(t, i);
  }

  /* Stage 1: sort the LMS substrings by inducing from LMS positions dropped at their buckets' ends. */
  for (int32_t i = 0; i < n; i++) sa[i] = -1;
  buckets(str, n, bkt, k, 1);
  for (int32_t i = 1; i < n; i++) if (is_lms(t, i)) sa[--bkt[sym(str, i)]] = i;
  induce(str, t, sa, n, bkt, k);

  /* Name them: equal LMS substrings get equal names, in sorted order. n1 <= n/2, so the names fit beside. */
  int32_t n1 = 0;
  for (int32_t i = 0; i < n; i++) if (is_lms(t, sa[i])) sa[n1++] = sa[i];
  for (int32_t i = n1; i < n; i++) sa[i] = -1;
  int32_t names = 0, prev = -1;
  for (int32_t i = 0; i < n1; i++) {
    int32_t pos = sa[i];
    if (prev == -1 || lms_differ(str, t, n, pos, prev)) {
      names++;
      prev = pos;
    }
    sa[n1 + pos / 2] = names - 1; /* LMS positions are >= 2 apart: distinct slots */
  }
  /* The reduced string (names in text order) goes to the top n1 slots. */
  for (int32_t i = n - 1, j = n - 1; i >= n1; i--) if (sa[i] >= 0) sa[j--] = sa[i];
  int32_t *s1 = sa + n - n1;

  /* Stage 2: sort the LMS suffixes, recursing while names repeat. */
  if (names < n1) {
    Str reduced = {s1, 1};
    if (sais_level(reduced, sa, n1, names) != 0) {
      free(t);
      free(bkt);
      return -1;
    }
  } else {
    for (int32_t i = 0; i < n1; i++) sa[s1[i]] = i;
  }
  /* Map ranks of the reduced string back to text positions (s1 becomes the list of LMS positions). */
  for (int32_t i = 1, j = 0; i < n; i++) if (is_lms(t, i)) s1[j++] = i;
  for (int32_t i = 0; i < n1; i++) sa[i] = s1[sa[i]];

  /* Stage 3: sorted LMS suffixes to their buckets' ends (right to left, so no slot is overwritten unread), induce. */
  for (int32_t i = n1; i < n; i++) sa[i] = -1;
  buckets(str, n, bkt, k, 1);
  for (int32_t i = n1 - 1; i >= 0; i--) {
    int32_t j = sa[i];
    sa[i] = -1;
    sa[--bkt[sym(str, j)]] = j;
  }
  induce(str, t, sa, n, bkt, k);
  free(t);
  free(bkt);
  return 0;
}

int news_sais(const uint8_t *text, int32_t *sa, int32_t n) {
  if (n <= 0) return 0;
  Str str = {text, 0};
  return sais_level(str, sa, n, 256);
}
