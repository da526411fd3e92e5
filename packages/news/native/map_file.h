/* mapFile (map_file.c): a shard file mapped into memory as an ArrayBuffer, registered beside the suffix sorters. */
#ifndef NEWS_MAP_FILE_H
#define NEWS_MAP_FILE_H
#include <node_api.h>

napi_status news_map_file_register(napi_env env, napi_value exports);

#endif
