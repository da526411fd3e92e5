{
  "variables": {
    "with_divsufsort%": "<!(node -p \"process.env.NEWS_WITH_DIVSUFSORT === '1' ? 1 : 0\")"
  },
  "targets": [
    {
      "target_name": "divsufsort_addon",
      "sources": ["divsufsort_addon.c", "sais.c", "fm_locate.c", "fm_build.c", "map_file.c"],
      "cflags": ["-O2", "-Wall", "-Wextra"],
      "conditions": [
        ["with_divsufsort==1", { "defines": ["HAVE_DIVSUFSORT"], "libraries": ["-ldivsufsort"] }],
        ["target_arch=='x64'", { "cflags": ["-mpopcnt"] }]
      ]
    }
  ]
}
