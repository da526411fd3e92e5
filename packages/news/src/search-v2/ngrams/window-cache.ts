import { isAscii } from 'node:buffer';
import type { ShardReader } from '../../shard/types.ts';
import type { WindowWord } from './occurrence-words.ts';

/** Where an occurrence's article lies in the shard text, in bytes. */
export interface ArticleSpan {
  readonly doc: number;
  readonly docStart: number;
  readonly docEnd: number;
  /** The article's text (a byte a character) when it is all ASCII, null when not, from a scan that read it whole. */
  readonly ascii?: string | null;
}

/**
 * What the word windows of one shard's occurrences share (occurrence-words.ts): the segmentations of non-ASCII pieces
 * (syndicated copies and repeated phrases give equal pieces, and ICU segments Japanese slowly), and the last article
 * read whole as a string when it is ASCII. Occurrences come in text order, so the windows of one article follow each
 * other: one conversion of its bytes serves them all, where each window took its own view, ASCII test and string
 * ("the": 26,000 windows in the exact English shards).
 */
export class WindowCache {
  /** Words of a piece by `s` or `i` (case) + piece text. */
  readonly pieces = new Map<string, WindowWord[]>();
  private reader: ShardReader | undefined;
  private doc = -1;
  private text: string | null = null;

  /** The article's text (a byte a character) when it is all ASCII, else undefined. */
  asciiArticle(reader: ShardReader, article: ArticleSpan): string | undefined {
    if (article.ascii !== undefined) return article.ascii ?? undefined;
    if (reader !== this.reader || article.doc !== this.doc) {
      const bytes = reader.documentView(article.doc);
      this.reader = reader;
      this.doc = article.doc;
      this.text = isAscii(bytes) ? bytes.toString('latin1') : null;
    }
    return this.text ?? undefined;
  }
}
