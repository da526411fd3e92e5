/*
 * The compressed kind's `zstd-dict` text codec (DESIGN.md, "Text"): zstd blocks that share one dictionary trained
 * on the shard's own text. zstd is vendored in `zstd/` (lib of zstd 1.5.6+, BSD licence, see zstd/LICENSE) because
 * no npm package both builds it from bundled source without trying a prebuilt download first and exposes the
 * dictionary trainer, and Node 20's zlib has no zstd.
 *
 *   zstdTrain(samples: Uint8Array, sizes: Uint32Array, capacity: number, tuneStride?: number): Buffer
 *                                                                                  the trained dictionary
 *   zstdCompressor(dict: Uint8Array, level: number): external                      a prepared CDict
 *   zstdCompress(compressor, src: Uint8Array): Promise<Buffer>                     one frame, on the libuv pool
 *   zstdDecompressor(dict: Uint8Array): external                                    a prepared DDict + DCtx
 *   zstdDecompress(decompressor, src: Uint8Array, bytes: number): Buffer           exactly `bytes` bytes or a throw
 *   zstdDecompressInto(decompressor, src: Uint8Array, out: Uint8Array): undefined  fills `out` exactly or throws
 *
 * A decompressor keeps its own DCtx, so it must be used from the thread that made it (each reader opens its own).
 * Damaged input throws ERR_NEWS_ZSTD with zstd's reason; the reader turns it into a ShardFormatError.
 */
#include "zstd_codec.h"
#include "napi_check.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define ZSTD_STATIC_LINKING_ONLY
#define ZDICT_STATIC_LINKING_ONLY
#include "zstd/zdict.h"
#include "zstd/zstd_errors.h"
#include "zstd/zstd.h"

static napi_value throw_zstd(napi_env env, const char *what, size_t code) {
  char message[256];
  snprintf(message, sizeof message, "%s: %s", what, ZSTD_getErrorName(code));
  napi_throw_error(env, "ERR_NEWS_ZSTD", message);
  return NULL;
}

/*
 * ZDICT_trainFromBuffer's choice (fastCover, d = 8, 4 steps of k) with its parameter search on every `stride`-th
 * sample only, then one training on all of them with the parameters found. The search trains and scores five
 * dictionaries, ~80 % of the trainer's time at 64 MiB of samples; a 1/8 sample picks as good a k (DESIGN.md,
 * "Text codec"). `stride` 1 is ZDICT_trainFromBuffer itself.
 */
static size_t train_tuned(void *dict, size_t capacity, const uint8_t *samples, const size_t *lengths, unsigned n,
                          unsigned stride) {
  if (stride <= 1 || n / stride < 16) return ZDICT_trainFromBuffer(dict, capacity, samples, lengths, n);
  unsigned m = (n + stride - 1) / stride;
  size_t total = 0, at = 0;
  for (unsigned k = 0; k < n; k += stride) total += lengths[k];
  uint8_t *sub = malloc(total ? total : 1);
  size_t *sub_lengths = malloc(sizeof(size_t) * m);
  if (!sub || !sub_lengths) {
    free(sub), free(sub_lengths);
    return ZDICT_trainFromBuffer(dict, capacity, samples, lengths, n);
  }
  size_t from = 0;
  for (unsigned k = 0, j = 0; k < n; k++) {
    if (k % stride == 0) memcpy(sub + at, samples + from, lengths[k]), at += lengths[k], sub_lengths[j++] = lengths[k];
    from += lengths[k];
  }
  ZDICT_fastCover_params_t params;
  memset(&params, 0, sizeof params);
  params.d = 8;
  params.steps = 4;
  params.zParams.compressionLevel = ZSTD_CLEVEL_DEFAULT;
  size_t got = ZDICT_optimizeTrainFromBuffer_fastCover(dict, capacity, sub, sub_lengths, m, &params);
  free(sub), free(sub_lengths);
  if (ZDICT_isError(got)) return got;
  return ZDICT_trainFromBuffer_fastCover(dict, capacity, samples, lengths, n, params);
}

static napi_value zstd_train(napi_env env, napi_callback_info info) {
  size_t argc = 4, samples_len = 0, sizes_len = 0;
  napi_value argv[4], result;
  void *samples = NULL, *sizes = NULL, *out = NULL;
  uint32_t capacity = 0, stride = 1;
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 3 || !news_typed_array(env, argv[0], napi_uint8_array, &samples, &samples_len) ||
      !news_typed_array(env, argv[1], napi_uint32_array, &sizes, &sizes_len) ||
      napi_get_value_uint32(env, argv[2], &capacity) != napi_ok || capacity < 256 ||
      (argc > 3 && (napi_get_value_uint32(env, argv[3], &stride) != napi_ok || stride < 1))) {
    napi_throw_type_error(env, NULL,
                          "zstdTrain(samples: Uint8Array, sizes: Uint32Array, capacity >= 256, tuneStride >= 1)");
    return NULL;
  }
  uint64_t total = 0;
  for (size_t k = 0; k < sizes_len; k++) total += ((const uint32_t *)sizes)[k];
  if (total != samples_len) {
    napi_throw_range_error(env, NULL, "zstdTrain: the sample sizes do not add up to the samples' length");
    return NULL;
  }
  void *dict = malloc(capacity);
  if (!dict) {
    napi_throw_error(env, "ERR_NEWS_ZSTD", "zstdTrain: out of memory");
    return NULL;
  }
  /* size_t[] for zstd; the trainer copies nothing else */
  size_t *lengths = malloc(sizeof(size_t) * (sizes_len ? sizes_len : 1));
  if (!lengths) {
    free(dict);
    napi_throw_error(env, "ERR_NEWS_ZSTD", "zstdTrain: out of memory");
    return NULL;
  }
  for (size_t k = 0; k < sizes_len; k++) lengths[k] = ((const uint32_t *)sizes)[k];
  size_t got = train_tuned(dict, capacity, samples, lengths, (unsigned)sizes_len, stride);
  free(lengths);
  if (ZDICT_isError(got)) {
    free(dict);
    napi_throw_error(env, "ERR_NEWS_ZSTD_TRAIN", ZDICT_getErrorName(got));
    return NULL;
  }
  if (napi_create_buffer_copy(env, got, dict, &out, &result) != napi_ok) result = NULL;
  free(dict);
  if (!result) napi_throw_error(env, "ERR_NEWS_NAPI", "zstdTrain: cannot create the result buffer");
  return result;
}

static void free_cdict(napi_env env, void *data, void *hint) {
  (void)env, (void)hint;
  ZSTD_freeCDict((ZSTD_CDict *)data);
}

static napi_value zstd_compressor(napi_env env, napi_callback_info info) {
  size_t argc = 2, dict_len = 0;
  napi_value argv[2], result;
  void *dict = NULL;
  int32_t level = 0;
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 2 || !news_typed_array(env, argv[0], napi_uint8_array, &dict, &dict_len) ||
      napi_get_value_int32(env, argv[1], &level) != napi_ok || level < 1 || level > ZSTD_maxCLevel()) {
    napi_throw_type_error(env, NULL, "zstdCompressor(dict: Uint8Array, level: 1..22)");
    return NULL;
  }
  ZSTD_CDict *cdict = ZSTD_createCDict(dict, dict_len, level); /* copies the dictionary */
  if (!cdict) {
    napi_throw_error(env, "ERR_NEWS_ZSTD", "zstdCompressor: the dictionary cannot be loaded");
    return NULL;
  }
  if (napi_create_external(env, cdict, free_cdict, NULL, &result) != napi_ok) {
    ZSTD_freeCDict(cdict);
    napi_throw_error(env, "ERR_NEWS_NAPI", "zstdCompressor: cannot create the external");
    return NULL;
  }
  return result;
}

typedef struct {
  napi_async_work work;
  napi_deferred deferred;
  napi_ref src_ref, cdict_ref;
  const ZSTD_CDict *cdict;
  const void *src;
  size_t src_len, out_len;
  void *out;
} compress_job;

static void execute_compress(napi_env env, void *data) {
  (void)env;
  compress_job *job = data;
  size_t bound = ZSTD_compressBound(job->src_len);
  job->out = malloc(bound ? bound : 1);
  if (!job->out) {
    job->out_len = (size_t)-ZSTD_error_memory_allocation;
    return;
  }
  ZSTD_CCtx *cctx = ZSTD_createCCtx();
  if (!cctx) {
    job->out_len = (size_t)-ZSTD_error_memory_allocation;
    return;
  }
  /* no checksum: the header's SHA-256 covers the file, and the reader checks every block's decoded length */
  job->out_len = ZSTD_compress_usingCDict(cctx, job->out, bound, job->src, job->src_len, job->cdict);
  ZSTD_freeCCtx(cctx);
}

static void complete_compress(napi_env env, napi_status status, void *data) {
  compress_job *job = data;
  napi_value result = NULL, error, message;
  void *copy = NULL;
  if (status == napi_ok && job->out && !ZSTD_isError(job->out_len) &&
      napi_create_buffer_copy(env, job->out_len, job->out, &copy, &result) == napi_ok) {
    napi_resolve_deferred(env, job->deferred, result);
  } else {
    const char *why = job->out && ZSTD_isError(job->out_len) ? ZSTD_getErrorName(job->out_len) : "out of memory or cancelled";
    napi_create_string_utf8(env, why, NAPI_AUTO_LENGTH, &message);
    napi_create_error(env, NULL, message, &error);
    napi_reject_deferred(env, job->deferred, error);
  }
  napi_delete_reference(env, job->src_ref);
  napi_delete_reference(env, job->cdict_ref);
  napi_delete_async_work(env, job->work);
  free(job->out);
  free(job);
}

static napi_value zstd_compress(napi_env env, napi_callback_info info) {
  size_t argc = 2, src_len = 0;
  napi_value argv[2], promise, name;
  void *src = NULL, *cdict = NULL;
  napi_valuetype type;
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 2 || napi_typeof(env, argv[0], &type) != napi_ok || type != napi_external ||
      napi_get_value_external(env, argv[0], &cdict) != napi_ok ||
      !news_typed_array(env, argv[1], napi_uint8_array, &src, &src_len)) {
    napi_throw_type_error(env, NULL, "zstdCompress(compressor, src: Uint8Array)");
    return NULL;
  }
  compress_job *job = calloc(1, sizeof *job);
  if (!job) {
    napi_throw_error(env, "ERR_NEWS_ZSTD", "zstdCompress: out of memory");
    return NULL;
  }
  job->cdict = cdict;
  job->src = src;
  job->src_len = src_len;
  /* both stay alive until the job completes: the source bytes and the dictionary are read on the pool */
  CHECK(env, napi_create_reference(env, argv[0], 1, &job->cdict_ref));
  CHECK(env, napi_create_reference(env, argv[1], 1, &job->src_ref));
  CHECK(env, napi_create_promise(env, &job->deferred, &promise));
  CHECK(env, napi_create_string_utf8(env, "zstdCompress", NAPI_AUTO_LENGTH, &name));
  CHECK(env, napi_create_async_work(env, NULL, name, execute_compress, complete_compress, job, &job->work));
  CHECK(env, napi_queue_async_work(env, job->work));
  return promise;
}

typedef struct {
  ZSTD_DDict *ddict;
  ZSTD_DCtx *dctx;
} decompressor;

static void free_decompressor(napi_env env, void *data, void *hint) {
  (void)env, (void)hint;
  decompressor *d = data;
  ZSTD_freeDDict(d->ddict);
  ZSTD_freeDCtx(d->dctx);
  free(d);
}

static napi_value zstd_decompressor(napi_env env, napi_callback_info info) {
  size_t argc = 1, dict_len = 0;
  napi_value argv[1], result;
  void *dict = NULL;
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 1 || !news_typed_array(env, argv[0], napi_uint8_array, &dict, &dict_len)) {
    napi_throw_type_error(env, NULL, "zstdDecompressor(dict: Uint8Array)");
    return NULL;
  }
  decompressor *d = calloc(1, sizeof *d);
  if (d) d->ddict = ZSTD_createDDict(dict, dict_len); /* copies the dictionary */
  if (d) d->dctx = ZSTD_createDCtx();
  if (!d || !d->ddict || !d->dctx) {
    if (d) free_decompressor(env, d, NULL);
    napi_throw_error(env, "ERR_NEWS_ZSTD", "zstdDecompressor: the dictionary cannot be loaded");
    return NULL;
  }
  if (napi_create_external(env, d, free_decompressor, NULL, &result) != napi_ok) {
    free_decompressor(env, d, NULL);
    napi_throw_error(env, "ERR_NEWS_NAPI", "zstdDecompressor: cannot create the external");
    return NULL;
  }
  return result;
}

/* The frame records its content size; anything but exactly `bytes` means a damaged or foreign block. */
static int frame_holds(napi_env env, const void *src, size_t src_len, size_t bytes, const char *what) {
  char message[160];
  unsigned long long size = ZSTD_getFrameContentSize(src, src_len);
  if (size == bytes) return 1;
  snprintf(message, sizeof message, "%s: %s", what,
           size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN
               ? "not a zstd frame with a content size"
               : "the frame holds another number of bytes than expected");
  napi_throw_error(env, "ERR_NEWS_ZSTD", message);
  return 0;
}

/* Decodes the frame into exactly `bytes` bytes at `out`, or throws and returns 0. */
static int decode_exact(napi_env env, decompressor *dec, const void *src, size_t src_len, void *out, size_t bytes,
                        const char *what) {
  char message[160];
  size_t got = ZSTD_decompress_usingDDict(dec->dctx, out, bytes, src, src_len, dec->ddict);
  if (ZSTD_isError(got)) return throw_zstd(env, what, got), 0;
  if (got == bytes) return 1;
  snprintf(message, sizeof message, "%s: the frame decoded to another number of bytes than expected", what);
  napi_throw_error(env, "ERR_NEWS_ZSTD", message);
  return 0;
}

static napi_value zstd_decompress(napi_env env, napi_callback_info info) {
  size_t argc = 3, src_len = 0;
  napi_value argv[3], result;
  void *src = NULL, *d = NULL, *out = NULL;
  uint32_t bytes = 0;
  napi_valuetype type;
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 3 || napi_typeof(env, argv[0], &type) != napi_ok || type != napi_external ||
      napi_get_value_external(env, argv[0], &d) != napi_ok ||
      !news_typed_array(env, argv[1], napi_uint8_array, &src, &src_len) ||
      napi_get_value_uint32(env, argv[2], &bytes) != napi_ok) {
    napi_throw_type_error(env, NULL, "zstdDecompress(decompressor, src: Uint8Array, bytes: number)");
    return NULL;
  }
  if (!frame_holds(env, src, src_len, bytes, "zstdDecompress")) return NULL;
  CHECK(env, napi_create_buffer(env, bytes, &out, &result));
  if (!decode_exact(env, d, src, src_len, out, bytes, "zstdDecompress")) return NULL;
  return result;
}

/*
 * zstdDecompressInto(decompressor, src, out): the frame decoded into the caller's `out`, which it must fill exactly.
 * A reader decoding the same size of block again and again reuses its buffers: a new 128 KiB buffer a block was
 * about a sixth of ngrams "the"'s CPU in page faults and garbage collection (BENCHMARKS.md, issue 28).
 */
static napi_value zstd_decompress_into(napi_env env, napi_callback_info info) {
  size_t argc = 3, src_len = 0, out_len = 0;
  napi_value argv[3];
  void *src = NULL, *d = NULL, *out = NULL;
  napi_valuetype type;
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 3 || napi_typeof(env, argv[0], &type) != napi_ok || type != napi_external ||
      napi_get_value_external(env, argv[0], &d) != napi_ok ||
      !news_typed_array(env, argv[1], napi_uint8_array, &src, &src_len) ||
      !news_typed_array(env, argv[2], napi_uint8_array, &out, &out_len)) {
    napi_throw_type_error(env, NULL, "zstdDecompressInto(decompressor, src: Uint8Array, out: Uint8Array)");
    return NULL;
  }
  if (frame_holds(env, src, src_len, out_len, "zstdDecompressInto"))
    decode_exact(env, d, src, src_len, out, out_len, "zstdDecompressInto");
  return NULL; /* undefined, or the error thrown */
}

napi_status news_zstd_register(napi_env env, napi_value exports) {
  static const news_function fns[] = {
      {"zstdTrain", zstd_train},           {"zstdCompressor", zstd_compressor},
      {"zstdCompress", zstd_compress},     {"zstdDecompressor", zstd_decompressor},
      {"zstdDecompress", zstd_decompress}, {"zstdDecompressInto", zstd_decompress_into},
  };
  return news_register_functions(env, exports, fns, sizeof fns / sizeof fns[0]);
}
