export { registerV1Routes } from './routes.ts';
export * as v1Schemas from './schemas.ts';
export { toMetadataV1, cutToCharacters, V1_METADATA_BOUNDS } from './metadata-v1.ts';
