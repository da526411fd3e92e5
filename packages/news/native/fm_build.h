/* The compressed kind's build passes (fm_build.c), registered on the addon's exports beside the suffix sorters. */
#ifndef NEWS_FM_BUILD_H
#define NEWS_FM_BUILD_H
#include <node_api.h>

napi_status news_fm_build_register(napi_env env, napi_value exports);

#endif
