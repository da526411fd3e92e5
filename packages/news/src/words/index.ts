export { foldWord, wordList, wordsOf, type WordCase, type WordSpan } from './segment.ts';
export { hashWords } from './word-hashes.ts';
export { countWords } from './count-words.ts';
