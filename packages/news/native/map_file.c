/*
 * mapFile(path: string): ArrayBuffer — the whole file mapped read-only (MAP_PRIVATE, pre-faulted with MAP_POPULATE
 * on Linux) as an external ArrayBuffer, unmapped when JavaScript collects it. Why (issue 24): copying a 2.8 GB
 * suffix array out of the page cache into fresh memory took 3–6 s on our VM, nearly all of it the kernel faulting in
 * and filling 700,000 new pages; mapping the cached file takes ~10 ms, copies nothing, and the pages still count in
 * the worker's RSS. The memory is read-only: a write from JavaScript would crash the process (the readers never write).
 */
#include "map_file.h"
#include "napi_check.h"
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef MAP_POPULATE
#define MAP_POPULATE 0 /* elsewhere: pages fault in on first use */
#endif

static void unmap(napi_env env, void *data, void *hint) {
  (void)env;
  munmap(data, (size_t)(uintptr_t)hint);
}

static napi_value fail(napi_env env, const char *what, const char *path, int err) {
  char message[4200];
  snprintf(message, sizeof message, "%s %s: %s", what, path, strerror(err));
  napi_throw_error(env, "ERR_NEWS_MAP_FILE", message);
  return NULL;
}

static napi_value map_file(napi_env env, napi_callback_info info) {
  size_t argc = 1, path_len = 0;
  napi_value argv[1], result;
  char path[4096];
  CHECK(env, napi_get_cb_info(env, info, &argc, argv, NULL, NULL));
  if (argc < 1 || napi_get_value_string_utf8(env, argv[0], path, sizeof path, &path_len) != napi_ok || path_len >= sizeof path - 1) {
    napi_throw_type_error(env, NULL, "mapFile(path: string) expects a path shorter than 4095 bytes");
    return NULL;
  }
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fail(env, "cannot open", path, errno);
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int err = errno;
    close(fd);
    return fail(env, "cannot stat", path, err);
  }
  size_t bytes = (size_t)st.st_size;
  if (bytes == 0) {
    close(fd);
    void *none = NULL;
    CHECK(env, napi_create_arraybuffer(env, 0, &none, &result)); /* mmap refuses length 0 */
    return result;
  }
  void *p = mmap(NULL, bytes, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  int err = errno;
  close(fd); /* the mapping keeps the file */
  if (p == MAP_FAILED) return fail(env, "cannot map", path, err);
  if (napi_create_external_arraybuffer(env, p, bytes, unmap, (void *)(uintptr_t)bytes, &result) != napi_ok) {
    munmap(p, bytes);
    napi_throw_error(env, "ERR_NEWS_MAP_FILE", "this Node.js does not allow external ArrayBuffers");
    return NULL;
  }
  return result;
}

napi_status news_map_file_register(napi_env env, napi_value exports) {
  static const news_function fns[] = {{"mapFile", map_file}};
  return news_register_functions(env, exports, fns, sizeof fns / sizeof fns[0]);
}
