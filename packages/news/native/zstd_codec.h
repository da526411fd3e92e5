/* zstd text codec (zstd_codec.c): dictionary training, compression on the pool, decompression with a DDict. */
#ifndef NEWS_ZSTD_CODEC_H
#define NEWS_ZSTD_CODEC_H
#include <node_api.h>

napi_status news_zstd_register(napi_env env, napi_value exports);

#endif
