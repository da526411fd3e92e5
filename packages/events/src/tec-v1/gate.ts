import { ApiError } from '../http/errors.ts';
import type { Endpoint, RequestContext, Reply } from '../http/route.ts';

// `tec/v1`'s experimental-endpoint gate and the plugin's non-WP_Error answers (NOTES §1, §5).

/** The acknowledgement every experimental endpoint wants in `X-TEC-EEA`, compared trimmed and case-insensitively. */
export const EEA_SENTENCE =
  'I understand that this endpoint is experimental and may change in a future release without maintaining ' +
  'backward compatibility. I also understand that I am using this endpoint at my own risk, while support is not provided for it.';
const EXPECTED = EEA_SENTENCE.toLowerCase();

/** Whether a request carries the acknowledgement (the response cache keys on the header for this reason). */
export const acknowledges = (value: string | undefined): boolean =>
  value !== undefined && (value === EEA_SENTENCE || value.trim().toLowerCase() === EXPECTED); // the sentence as written: no copy

/** Runs inside the handler as on the reference: after argument validation and the permission check. */
export function checkGate(ctx: RequestContext): void {
  const value = ctx.header('x-tec-eea');
  if (acknowledges(value)) return;
  const missing = value === undefined || value.trim() === '';
  throw new ApiError(
    'missing_experimental_endpoint_acknowledgement',
    missing
      ? 'Experimental endpoint requires acknowledgement header.'
      : 'Experimental endpoint requires appropriate acknowledgement header.',
  );
}

/**
 * The plugin's answers that are not WordPress errors: `{"error": …}` for entity failures, and a page past the end
 * (`{code, message}` without `data`, with the organizers' code on every list, as recorded).
 */
const FAILURES = {
  create: [500, { error: 'Failed to create entity.' }],
  update: [500, { error: 'Failed to update entity.' }],
  unreadable: [404, { error: 'The entity could not be read.' }],
  notUpdated: [404, { error: 'The entity could not be updated.' }],
  notDeleted: [404, { error: 'The entity could not be deleted.' }],
  trashed: [410, { error: 'The entity has already been trashed.' }],
  pageNotFound: [404, { code: 'tec_rest_organizers_page_not_found', message: 'The requested page was not found.' }],
} as const;

export type FailureKind = keyof typeof FAILURES;

export class EntityFailure extends Error {
  constructor(readonly kind: FailureKind) {
    super(kind);
  }
}

export const failureReply = (kind: FailureKind): Reply => ({
  status: FAILURES[kind][0],
  body: { ...FAILURES[kind][1] },
});

/** An experimental endpoint: the gate before the handler, entity failures turned into their answers. */
export function experimental(ep: Endpoint): Endpoint {
  const handler = ep.handler as (ctx: RequestContext, params: unknown) => Promise<Reply> | Reply;
  return {
    ...ep,
    handler: (async (ctx: RequestContext, params: unknown) => {
      checkGate(ctx);
      try {
        return await handler(ctx, params);
      } catch (err) {
        if (err instanceof EntityFailure) return failureReply(err.kind);
        throw err;
      }
    }) as Endpoint['handler'],
  };
}
