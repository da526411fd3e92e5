import type { Static } from '@sinclair/typebox';
import type { InfoResponse } from './schemas.ts';

export type InfoResponseBody = Static<typeof InfoResponse>;
