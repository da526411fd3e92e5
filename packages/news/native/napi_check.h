/*
 * Shared by the addon's C files: a failed N-API call throws (code ERR_NEWS_NAPI) and returns NULL to JavaScript;
 * typed-array arguments are checked by type; functions are registered on the exports from a table.
 */
#ifndef NEWS_NAPI_CHECK_H
#define NEWS_NAPI_CHECK_H
#include <node_api.h>

#define CHECK(env, call)                                                           \
  do {                                                                             \
    if ((call) != napi_ok) {                                                       \
      napi_throw_error((env), "ERR_NEWS_NAPI", "N-API call failed: " #call);       \
      return NULL;                                                                 \
    }                                                                              \
  } while (0)

/* The typed array's data and element count if `v` is a typed array of type `want`, else 0. */
static inline int news_typed_array(napi_env env, napi_value v, napi_typedarray_type want, void **data, size_t *len) {
  bool is_typed = false;
  napi_typedarray_type type;
  napi_value ab;
  size_t offset;
  if (napi_is_typedarray(env, v, &is_typed) != napi_ok || !is_typed) return 0;
  return napi_get_typedarray_info(env, v, &type, len, data, &ab, &offset) == napi_ok && type == want;
}

typedef struct {
  const char *name;
  napi_callback fn;
} news_function;

/* Sets each function of the table as a property of `exports`. */
static inline napi_status news_register_functions(napi_env env, napi_value exports, const news_function *fns, size_t count) {
  for (size_t k = 0; k < count; k++) {
    napi_value fn;
    napi_status s = napi_create_function(env, fns[k].name, NAPI_AUTO_LENGTH, fns[k].fn, NULL, &fn);
    if (s == napi_ok) s = napi_set_named_property(env, exports, fns[k].name, fn);
    if (s != napi_ok) return s;
  }
  return napi_ok;
}

#endif
