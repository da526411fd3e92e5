/* Shared by the addon's C files: a failed N-API call throws (code ERR_NEWS_NAPI) and returns NULL to JavaScript. */
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

#endif
