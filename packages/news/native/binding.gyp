{
  "targets": [
    {
      "target_name": "divsufsort_addon",
      "sources": ["divsufsort_addon.c"],
      "cflags": ["-O2", "-Wall", "-Wextra"],
      "libraries": ["-ldivsufsort"]
    }
  ]
}
