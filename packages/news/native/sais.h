/* Our own suffix sorting (SA-IS), always compiled into the addon; see sais.c. */
#ifndef NEWS_SAIS_H
#define NEWS_SAIS_H
#include <stdint.h>

/* Writes the suffix array of text[0..n) into sa[0..n) (memcmp order, shorter prefix first). 0 on success, -1 when
 * out of memory. n must be below 2^31. */
int news_sais(const uint8_t *text, int32_t *sa, int32_t n);

#endif
