import { Type, type TSchema } from '@sinclair/typebox';
import { invalid, invalidWith, type ArgSet, type Validator } from '../http/args.ts';
import { toRowId } from '../http/row-id.ts';
import { formatWall, parseDateTime, utcToWall } from '../time/index.ts';

// `tec/v1` argument declarations and checks (NOTES §3). Two kinds of refusal, as on the reference: WordPress' own
// schema checks (wrong JSON type, enum) give `details: []`; TEC's validators give a `details` entry with their code.

export const POST_STATUSES = ['publish', 'pending', 'draft', 'future', 'private'] as const;
const BODY_DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$/;
const POST_DATE = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}(?::\d{2})?)?$/;

const tec = (code: string, argument: string, message: string) =>
  invalidWith(`tec_rest_invalid_${code}_argument`, `Argument \`{${argument}}\` ${message}`);

/** A positive integer (a number or its digits): what TEC's positive-integer validator accepts. */
export const asPositiveInt = (v: unknown): number | undefined => {
  const id =
    typeof v === 'string' && !/^\d+$/.test(v.trim()) ? undefined : toRowId(typeof v === 'string' ? v.trim() : v);
  return id !== undefined && id >= 1 ? id : undefined;
};

export const positiveInteger: Validator = (v, name) =>
  asPositiveInt(v) !== undefined ? true : tec('positive_integer', name, 'must be a positive integer.');

/** A list of positive integers; an item that is not one names the argument `example`, as the plugin's schema does. */
export const positiveIntegerList: Validator = (v) => {
  if (!Array.isArray(v)) return invalid();
  return v.every((x) => asPositiveInt(x) !== undefined)
    ? true
    : tec('positive_integer', 'example', 'must be a positive integer.');
};

/** Event dates: the strict `Y-m-d H:i:s` pattern, then a real calendar date. */
export const eventDate: Validator = (v, name) => {
  if (typeof v !== 'string' || !BODY_DATE.test(v)) return tec('date_time', name, 'must match the pattern.');
  const [y, mo, d, h, mi, s] = v.split(/[- :]/).map(Number) as [number, number, number, number, number, number];
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  const real = t.getUTCMonth() === mo - 1 && t.getUTCDate() === d && h < 24 && mi < 60 && s < 60;
  return real ? true : tec('date_time', name, 'must be a date-time.');
};

export const postDate: Validator = (v, name) =>
  typeof v === 'string' && POST_DATE.test(v) ? true : tec('date_time', name, 'must match the pattern.');

/** PHP's FILTER_VALIDATE_URL in short: a scheme and a host. An empty value clears the field. */
export const uri: Validator = (v, name) => {
  if (v === '') return true;
  try {
    const u = new URL(String(v));
    if (u.host !== '' && /^[a-z][a-z0-9+.-]*:\/\//i.test(String(v))) return true;
  } catch {
    /* refused below */
  }
  return tec('uri', name, 'must be a valid URL.');
};

export const email: Validator = (v, name) =>
  v === '' || (typeof v === 'string' && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v))
    ? true
    : tec('email', name, 'must be a valid email address.');

export const oneOf =
  (values: readonly string[]): Validator =>
  (v) =>
    typeof v === 'string' && values.includes(v) ? true : invalid();

export { phpTruthy } from '../event/index.ts';

export const S = (description: string): TSchema => Type.Optional(Type.String({ description }));
export const U = (description: string, extra: Record<string, unknown> = {}): TSchema =>
  Type.Optional(Type.Unknown({ description, ...extra }));

/**
 * The common post fields of every request body (`TEC_Post_Entity_Request_Body`). `author` must name a user (the
 * plugin checks only that it is a positive integer, and would store a post owned by nobody).
 */
export function postBodyArgs(userExists: (id: number) => Promise<boolean>): ArgSet {
  const author: Validator = async (v, name, caller) => {
    const checked = await positiveInteger(v, name, caller);
    if (checked !== true) return checked;
    return (await userExists(asPositiveInt(v)!)) ? true : invalid('Invalid author ID.');
  };
  return {
    schema: Type.Object({
      date: U("The date the post was published, in the site's timezone.", { format: 'date-time' }),
      date_gmt: U('The date the post was published, as GMT.', { format: 'date-time' }),
      slug: S('An alphanumeric identifier for the post unique to its type.'),
      status: U('A named status for the post.', { enum: POST_STATUSES }),
      title: S('The title for the post.'),
      content: S('The content for the post.'),
      excerpt: S('The excerpt for the post.'),
      author: U('The ID for the author of the post.'),
      featured_media: U('The ID of the featured media for the post.'),
      comment_status: U('Whether or not comments are open on the post.', { enum: ['open', 'closed'] }),
      ping_status: U('Whether or not the post can be pinged.', { enum: ['open', 'closed'] }),
      format: U('The format for the post.', {
        enum: ['standard', 'aside', 'chat', 'gallery', 'link', 'image', 'quote', 'status', 'video', 'audio'],
      }),
      sticky: U('Whether or not the post should be treated as sticky.'),
      template: S('The theme file to use to display the post.'),
      tags: U('The terms assigned to the post in the post_tag taxonomy.'),
    }),
    validators: {
      date: postDate,
      date_gmt: postDate,
      status: oneOf(POST_STATUSES),
      author,
      featured_media: positiveInteger,
      comment_status: oneOf(['open', 'closed']),
      ping_status: oneOf(['open', 'closed']),
      format: oneOf(['standard', 'aside', 'chat', 'gallery', 'link', 'image', 'quote', 'status', 'video', 'audio']),
      tags: positiveIntegerList,
    },
  };
}

/** Joins argument sets (later ones win). */
export const mergeArgs = (...sets: ArgSet[]): ArgSet => ({
  schema: Type.Object(Object.assign({}, ...sets.map((s) => s.schema.properties)) as Record<string, TSchema>),
  validators: Object.assign({}, ...sets.map((s) => s.validators ?? {})) as Record<string, Validator>,
});

/** `page` and `per_page` of every list (the 100 maximum is declared, not applied, as on the reference). */
export const pagingArgs = (): ArgSet => ({
  schema: Type.Object({
    page: U('The collection page number.', { default: 1 }),
    per_page: U('The number of items to return per page.', { default: 10 }),
  }),
  validators: { page: positiveInteger, per_page: positiveInteger },
});

/**
 * The GMT publication date TEC stores with a sent `date` (site time): a draft sent a date keeps it when published,
 * rather than floating as a draft created without one does.
 */
export function gmtOfSiteDate(siteZone: string, date: unknown, now: number): string | undefined {
  const ms = typeof date === 'string' ? parseDateTime(date, siteZone, now) : undefined;
  return ms === undefined ? undefined : formatWall(utcToWall(ms, 'UTC'));
}
