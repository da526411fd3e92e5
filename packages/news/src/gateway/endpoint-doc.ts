import type { TSchema } from '@sinclair/typebox';

/** One endpoint's API reference entry: the v1 and v2 route modules describe themselves, the pages render them. */
export interface EndpointDoc {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly summary: string;
  readonly request: TSchema | null;
  readonly response: TSchema;
  readonly errors: readonly { status: number; description: string; schema: TSchema }[];
}
