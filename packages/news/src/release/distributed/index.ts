/**
 * Distributed builds: `news build --only-periods` writes a part (the shards of some crawl months, the whole stores of their years, a part manifest) on any
 * machine; `assembleRelease` checks that the parts agree and links them into one release. See ../DESIGN.md.
 */
export {
  assembleRelease,
  defaultAssembleOptions,
  type AssemblePhase,
  type AssembleProgress,
  type AssembleReleaseInput,
  type AssembleReleaseOptions,
  type AssembleSummary,
} from './assemble-release.ts';
export { parsePeriodSelection, type PeriodSelection } from './period-selection.ts';
export { PART_MANIFEST_FILE, PART_MANIFEST_FORMAT_VERSION, type PartManifest } from './part-manifest.ts';
