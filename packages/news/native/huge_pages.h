/* Transparent huge pages for the addon's large arrays (shared by the sorter and the locate walk). */
#ifndef NEWS_HUGE_PAGES_H
#define NEWS_HUGE_PAGES_H
#include <stddef.h>
#include <stdint.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

/*
 * Asks Linux to back the whole 2 MiB pages inside [p, p + bytes) with huge pages, in place (same addresses, nothing
 * copied as far as JavaScript can tell). Both users read at random over hundreds of MB: the locate walk, and the
 * suffix sort (1 GB part alone, libdivsufsort: 114 s with 4 KiB pages, 96.7 s with huge pages), where with 4 KiB
 * pages nearly every read also misses the TLB. MADV_HUGEPAGE makes pages faulted in later huge (the machine's THP
 * mode is usually "madvise", so without it none are); `collapse` also converts the pages already there, now
 * (MADV_COLLAPSE, Linux 6.1+) rather than whenever khugepaged gets to them. Only a hint: any failure (older kernel,
 * THP "never", another system) leaves the pages as they were.
 */
static inline void news_huge_pages(const void *p, size_t bytes, int collapse) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  const uintptr_t huge = (uintptr_t)2 << 20;
  uintptr_t start = ((uintptr_t)p + huge - 1) & ~(huge - 1);
  uintptr_t end = ((uintptr_t)p + bytes) & ~(huge - 1);
  if (end <= start) return;
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif
  madvise((void *)start, end - start, MADV_HUGEPAGE);
  if (collapse) madvise((void *)start, end - start, MADV_COLLAPSE);
#else
  (void)p;
  (void)bytes;
  (void)collapse;
#endif
}

#endif
