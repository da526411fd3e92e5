export { foldWord, wordList, wordsOf, type WordCase, type WordSpan } from './segment.ts';
export { asciiWordRanges, asciiWords, isAsciiText } from './ascii-words.ts';
export { hashWords } from './word-hashes.ts';
export { countWords } from './count-words.ts';
