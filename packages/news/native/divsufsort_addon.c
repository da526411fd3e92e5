/*
 * N-API binding of the suffix sorters: our own SA-IS (sais.c, always compiled) and, when build.mjs found its header,
 * libdivsufsort (Debian libdivsufsort-dev, HAVE_DIVSUFSORT), the faster default.
 *
 *   sortSuffixes(text: Uint8Array, out: Uint8Array, sorter?: "divsufsort" | "sais"): Promise<void>
 *   sorters: string[]   the sorters compiled in, the default first
 *   fmOpen, fmLocate, fmLocateMany: the compressed kind's locate walk (fm_locate.c)
 *   fmBwtRows, fmBlockCounts, fmFillBlock: the compressed kind's build passes (fm_build.c)
 *
 * Writes the suffix array of `text` into `out` as little-endian int32 (the host order on x86-64), so the
 * caller controls the memory (text + 4 x text in all). The sort runs on the libuv thread pool through
 * napi_create_async_work, so several shards sort in parallel while the main thread stays free.
 * Both take n < 2^31 (32-bit signed indices); the caller refuses larger texts before calling.
 */
#ifdef HAVE_DIVSUFSORT
#include <divsufsort.h>
#endif
#include "fm_build.h"
#include "fm_locate.h"
#include "huge_pages.h"
#include "map_file.h"
#include "zstd_codec.h"
#include "napi_check.h"
#include "sais.h"
#include <node_api.h>
#include <string.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct {
  napi_async_work work;
  napi_deferred deferred;
  napi_ref text_ref; /* keep both buffers alive (and their memory in place) while the worker thread uses them */
  napi_ref out_ref;
  const uint8_t *text;
  int32_t *sa;
  int32_t n;
  int32_t status;
  int use_sais;
} SortJob;

static void execute_sort(napi_env env, void *data) {
  (void)env;
  SortJob *job = (SortJob *)data;
  /* Here, on the pool thread: collapsing a 1 GB text takes a moment the main thread should not wait for. The suffix
     array is not written yet, so its pages only need the advice (they come huge as the sort touches them). */
  news_huge_pages(job->sa, (size_t)job->n * 4, 0);
  news_huge_pages(job->text, (size_t)job->n, 1);
#ifdef HAVE_DIVSUFSORT
  if (!job->use_sais) {
    job->status = job->n == 0 ? 0 : divsufsort(job->text, job->sa, job->n);
    return;
  }
#endif
  job->status = news_sais(job->text, job->sa, job->n);
}

static void complete_sort(napi_env env, napi_status status, void *data) {
  SortJob *job = (SortJob *)data;
  napi_value result;
  if (status != napi_ok || job->status != 0) {
    napi_value msg, err;
    const char *text = status != napi_ok ? "suffix sort was cancelled" : "suffix sort failed: out of memory";
    napi_create_string_utf8(env, text, NAPI_AUTO_LENGTH, &msg);
    napi_create_error(env, NULL, msg, &err);
    napi_reject_deferred(env, job->deferred, err);
  } else {
    napi_get_undefined(env, &result);
    napi_resolve_deferred(env, job->deferred, result);
  }
  napi_delete_reference(env, job->text_ref);
  napi_delete_reference(env, job->out_ref);
  napi_delete_async_work(env, job->work);
  free(job);
}

static int get_bytes(napi_env env, napi_value value, void **data, size_t *length) {
  bool is_typed = false;
  napi_typedarray_type type;
  napi_value ab;
  size_t offset;
  if (napi_is_typedarray(env, value, &is_typed) != napi_ok || !is_typed) return 0;
  if (napi_get_typedarray_info(env, value, &type, length, data, &ab, &offset) != napi_ok) return 0;
  return type == napi_uint8_array;
}

/* argv[2]: an optional sorter name; 1 = SA-IS, 0 = the default; -1 (after throwing) = unknown or not compiled in. */
static int pick_sorter(napi_env env, size_t argc, napi_value *argv) {
  napi_valuetype type = napi_undefined;
  if (argc < 3 || napi_typeof(env, argv[2], &type) != napi_ok || type == napi_undefined) return 0;
  char name[16] = {0};
  size_t len = 0;
  if (type == napi_string && napi_get_value_string_utf8(env, argv[2], name, sizeof name, &len) == napi_ok) {
    if (strcmp(name, "sais") == 0) return 1;
#ifdef HAVE_DIVSUFSORT
    if (strcmp(name, "divsufsort") == 0) return 0;
#endif
  }
  napi_throw_range_error(env, NULL, "sorter must be one of the names in sorters (divsufsort only when built with libdivsufsort)");
  return -1;
}

static napi_value sort_suffixes(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3], promise, name;
  void *text, *out;
  size_t text_len, out_len;
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 2 || !get_bytes(env, argv[0], &text, &text_len) || !get_bytes(env, argv[1], &out, &out_len)) {
    napi_throw_type_error(env, NULL, "sortSuffixes(text: Uint8Array, out: Uint8Array, sorter?) expects two Uint8Arrays");
    return NULL;
  }
  int use_sais = pick_sorter(env, argc, argv);
  if (use_sais < 0) return NULL;
  if (text_len > INT32_MAX) {
    napi_throw_range_error(env, NULL, "the 32-bit suffix sorters sort at most 2^31 - 1 bytes");
    return NULL;
  }
  if (out_len != text_len * 4 || ((uintptr_t)out % 4) != 0) {
    napi_throw_range_error(env, NULL, "out must be exactly 4 x text.length bytes and 4-byte aligned");
    return NULL;
  }
  SortJob *job = (SortJob *)calloc(1, sizeof(SortJob));
  if (job == NULL) {
    napi_throw_error(env, NULL, "out of memory");
    return NULL;
  }
  job->text = (const uint8_t *)text;
  job->sa = (int32_t *)out;
  job->n = (int32_t)text_len;
  job->use_sais = use_sais;
  CHECK(env, napi_create_reference(env, argv[0], 1, &job->text_ref));
  CHECK(env, napi_create_reference(env, argv[1], 1, &job->out_ref));
  CHECK(env, napi_create_promise(env, &job->deferred, &promise));
  CHECK(env, napi_create_string_utf8(env, use_sais ? "sais" : "divsufsort", NAPI_AUTO_LENGTH, &name));
  CHECK(env, napi_create_async_work(env, NULL, name, execute_sort, complete_sort, job, &job->work));
  CHECK(env, napi_queue_async_work(env, job->work));
  return promise;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_value fn, sorters, entry;
  CHECK(env, napi_create_function(env, "sortSuffixes", NAPI_AUTO_LENGTH, sort_suffixes, NULL, &fn));
  CHECK(env, napi_set_named_property(env, exports, "sortSuffixes", fn));
  const char *names[] = {
#ifdef HAVE_DIVSUFSORT
    "divsufsort",
#endif
    "sais",
  };
  CHECK(env, napi_create_array(env, &sorters));
  for (uint32_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    CHECK(env, napi_create_string_utf8(env, names[i], NAPI_AUTO_LENGTH, &entry));
    CHECK(env, napi_set_element(env, sorters, i, entry));
  }
  CHECK(env, napi_set_named_property(env, exports, "sorters", sorters));
  CHECK(env, news_fm_register(env, exports));
  CHECK(env, news_fm_build_register(env, exports));
  CHECK(env, news_map_file_register(env, exports));
  CHECK(env, news_zstd_register(env, exports));
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
