/** The frequency-list tab: the most frequent words of one subcorpus (issue 29). */
export { FrequencyPanel, type FrequencyContext } from './frequency-panel.ts';
