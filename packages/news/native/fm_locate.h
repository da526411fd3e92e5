/* The compressed kind's locate walk (fm_locate.c), registered on the addon's exports beside the suffix sorters. */
#ifndef NEWS_FM_LOCATE_H
#define NEWS_FM_LOCATE_H
#include <node_api.h>

napi_status news_fm_register(napi_env env, napi_value exports);

#endif
