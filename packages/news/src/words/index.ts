export { foldWord, wordList, wordsOf, type WordCase, type WordSpan } from './segment.ts';
