/*
 * N-API binding to libdivsufsort (Debian libdivsufsort-dev).
 *
 *   sortSuffixes(text: Uint8Array, out: Uint8Array): Promise<void>
 *
 * Writes the suffix array of `text` into `out` as little-endian int32 (the host order on x86-64), so the
 * caller controls the memory (text + 4 x text in all). The sort runs on the libuv thread pool through
 * napi_create_async_work, so several shards sort in parallel while the main thread stays free.
 * The 32-bit libdivsufsort API takes n < 2^31; the caller refuses larger texts before calling.
 */
#include <divsufsort.h>
#include <node_api.h>
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
} SortJob;

#define CHECK(env, call)                                                  \
  do {                                                                    \
    if ((call) != napi_ok) {                                              \
      napi_throw_error((env), "ERR_DIVSUFSORT_NAPI", "N-API call failed: " #call); \
      return NULL;                                                        \
    }                                                                     \
  } while (0)

static void execute_sort(napi_env env, void *data) {
  (void)env;
  SortJob *job = (SortJob *)data;
  job->status = job->n == 0 ? 0 : divsufsort(job->text, job->sa, job->n);
}

static void complete_sort(napi_env env, napi_status status, void *data) {
  SortJob *job = (SortJob *)data;
  napi_value result;
  if (status != napi_ok || job->status != 0) {
    napi_value msg, err;
    const char *text = status != napi_ok ? "suffix sort was cancelled" : "libdivsufsort failed (out of memory?)";
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

static napi_value sort_suffixes(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2], promise, name;
  void *text, *out;
  size_t text_len, out_len;
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 2 || !get_bytes(env, argv[0], &text, &text_len) || !get_bytes(env, argv[1], &out, &out_len)) {
    napi_throw_type_error(env, NULL, "sortSuffixes(text: Uint8Array, out: Uint8Array) expects two Uint8Arrays");
    return NULL;
  }
  if (text_len > INT32_MAX) {
    napi_throw_range_error(env, NULL, "libdivsufsort's 32-bit API sorts at most 2^31 - 1 bytes");
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
  CHECK(env, napi_create_reference(env, argv[0], 1, &job->text_ref));
  CHECK(env, napi_create_reference(env, argv[1], 1, &job->out_ref));
  CHECK(env, napi_create_promise(env, &job->deferred, &promise));
  CHECK(env, napi_create_string_utf8(env, "divsufsort", NAPI_AUTO_LENGTH, &name));
  CHECK(env, napi_create_async_work(env, NULL, name, execute_sort, complete_sort, job, &job->work));
  CHECK(env, napi_queue_async_work(env, job->work));
  return promise;
}

static napi_value init(napi_env env, napi_value exports) {
  napi_value fn;
  CHECK(env, napi_create_function(env, "sortSuffixes", NAPI_AUTO_LENGTH, sort_suffixes, NULL, &fn));
  CHECK(env, napi_set_named_property(env, exports, "sortSuffixes", fn));
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
