{
  "variables": {
    "with_divsufsort%": "<!(node -p \"process.env.NEWS_WITH_DIVSUFSORT === '1' ? 1 : 0\")"
  },
  "targets": [
    {
      "target_name": "zstd",
      "type": "static_library",
      "sources": [
        "zstd/common/debug.c", "zstd/common/entropy_common.c", "zstd/common/error_private.c", "zstd/common/fse_decompress.c",
        "zstd/common/pool.c", "zstd/common/threading.c", "zstd/common/xxhash.c", "zstd/common/zstd_common.c",
        "zstd/compress/fse_compress.c", "zstd/compress/hist.c", "zstd/compress/huf_compress.c", "zstd/compress/zstd_compress.c",
        "zstd/compress/zstd_compress_literals.c", "zstd/compress/zstd_compress_sequences.c",
        "zstd/compress/zstd_compress_superblock.c", "zstd/compress/zstd_double_fast.c", "zstd/compress/zstd_fast.c",
        "zstd/compress/zstd_lazy.c", "zstd/compress/zstd_ldm.c", "zstd/compress/zstd_opt.c", "zstd/compress/zstd_preSplit.c",
        "zstd/compress/zstdmt_compress.c",
        "zstd/decompress/huf_decompress.c", "zstd/decompress/zstd_ddict.c", "zstd/decompress/zstd_decompress.c",
        "zstd/decompress/zstd_decompress_block.c",
        "zstd/dictBuilder/cover.c", "zstd/dictBuilder/divsufsort.c", "zstd/dictBuilder/fastcover.c", "zstd/dictBuilder/zdict.c"
      ],
      "cflags": ["-O2", "-fvisibility=hidden", "-fPIC"],
      "defines": ["ZSTDLIB_VISIBLE=", "ZDICTLIB_VISIBLE=", "ZSTD_DISABLE_ASM=1", "ZSTD_LEGACY_SUPPORT=0", "divsufsort=news_zstd_divsufsort", "divbwt=news_zstd_divbwt"]
    },
    {
      "target_name": "divsufsort_addon",
      "dependencies": ["zstd"],
      "sources": ["divsufsort_addon.c", "sais.c", "fm_locate.c", "fm_build.c", "map_file.c", "zstd_codec.c"],
      "defines": ["ZSTDLIB_VISIBLE=", "ZDICTLIB_VISIBLE="],
      "cflags": ["-O2", "-Wall", "-Wextra"],
      "conditions": [
        ["with_divsufsort==1", { "defines": ["HAVE_DIVSUFSORT"], "libraries": ["-ldivsufsort"] }],
        ["target_arch=='x64'", { "cflags": ["-mpopcnt"] }]
      ]
    }
  ]
}
