import type { Static, TSchema } from '@sinclair/typebox';
import type { EventColumnName, EventColumns, EventColumnsPatch, OccurrenceColumns } from '../db/index.ts';
import type { Validator } from '../http/args.ts';
import { blankEvent, type WriteFilters } from '../post/index.ts';
import type { EventRow } from './event.repository.ts';
import { EVENT_FIELDS, type EventField, type RestField, type TecField } from './fields.ts';

// What the code around events derives from the field table (fields.ts). Each function takes the table as a
// parameter (the service's by default) so the test can run them over a table with a field the service lacks.

/** A field table: one descriptor per column name (the service's is `EVENT_FIELDS`). */
export type FieldTable = Readonly<Record<string, EventField<EventColumnName>>>;
type Rest = RestField<EventColumnName>;

const table = EVENT_FIELDS as unknown as FieldTable;

type Service = typeof EVENT_FIELDS;
type RestColumn = { [C in keyof Service]: Service[C] extends { rest: object } ? C : never }[keyof Service];
/** The write parameters of the fields of their own, typed by their argument schemas. */
export type EventFieldParams = {
  [C in RestColumn]?: Service[C] extends { rest: { arg: infer S extends TSchema } } ? Static<S> : never;
};

/** The fields that have a REST argument, in table order. */
export const restFields = (fields: FieldTable = table): [string, Rest][] =>
  Object.entries(fields).flatMap(([name, f]) => (f.rest ? [[name, f.rest] as [string, Rest]] : []));

/** `events.start_local`, … every column in table order, for the event select list. */
export const eventSelect = (fields: FieldTable = table) => Object.keys(fields).map((c) => `events.${c}` as const);

/** The columns an occurrence copies from its series' first event (the `copy` ones). */
export function occurrenceCopier(fields: FieldTable = table): (first: EventColumns) => OccurrenceColumns {
  const copied = Object.keys(fields).filter((c) => fields[c]!.occurrence === 'copy');
  return (first) => {
    const out: Record<string, unknown> = {};
    for (const c of copied) out[c] = (first as unknown as Record<string, unknown>)[c];
    return out as OccurrenceColumns;
  };
}

/** The value of every column a create may leave unset; a create names them all, so creates share one statement. */
export const insertDefaults = (fields: FieldTable = table): EventColumnsPatch =>
  Object.fromEntries(Object.entries(fields).flatMap(([c, f]) => ('insert' in f ? [[c, f.insert]] : [])));

/**
 * Inserts the fields' keys into `base` before the keys they name; fields before the same key keep table order. A
 * field naming a key `base` lacks is a mistake in the table: it throws, so the first test of that answer fails.
 */
export function placeBefore<V>(
  base: Readonly<Record<string, V>>,
  placed: readonly (readonly [key: string, before: string])[],
  value: (key: string) => V,
): Record<string, V> {
  const out: Record<string, V> = {};
  for (const [k, v] of Object.entries(base)) {
    for (const [key, before] of placed) if (before === k) out[key] = value(key);
    out[k] = v;
  }
  for (const [key, before] of placed) if (!(key in out)) throw new Error(`event field ${key}: no key ${before}`);
  return out;
}

/** The `tribe/events/v1` write arguments of the fields, placed among `base`'s, and their validators. */
export function fieldArgs(base: Record<string, TSchema>, fields: FieldTable = table) {
  const rest = new Map(restFields(fields));
  const validators: Record<string, Validator> = {};
  for (const [name, r] of rest) if (r.validate) validators[name] = r.validate;
  const order = [...rest].map(([name, r]) => [name, r.before] as const);
  return { properties: placeBefore(base, order, (k) => rest.get(k)!.arg), validators };
}

/** The columns a write sets from the fields it sent. */
export function fieldColumns(
  p: object,
  sent: ReadonlySet<string>,
  kses: WriteFilters,
  fields: FieldTable = table,
): EventColumnsPatch {
  const out: Record<string, unknown> = {};
  const params = p as Readonly<Record<string, unknown>>;
  for (const [name, r] of restFields(fields)) if (sent.has(name)) out[name] = r.write(params[name], kses);
  return out;
}

/** The sent fields a create acts on: those a create drops when empty are left out (`createDrops`). */
export function createdFieldNames(
  p: Readonly<Record<string, unknown>>,
  sent: ReadonlySet<string>,
  fields: FieldTable = table,
): ReadonlySet<string> {
  const dropped = restFields(fields).filter(([name, r]) => sent.has(name) && r.createDrops?.(p[name]) === true);
  return dropped.length === 0 ? sent : new Set([...sent].filter((k) => !dropped.some(([name]) => name === k)));
}

/** Builds the answers' field placement once per table: `tribe/events/v1` bodies, blanked bodies, /doc, `tec/v1`. */
export function fieldShapes(fields: FieldTable = table) {
  const rest = restFields(fields);
  const byName = new Map(rest);
  const tribeOrder = rest.map(([name, r]) => [name, r.before] as const);
  const tec = rest.flatMap(([name, r]) => (r.tec ? [[name, r.tec] as [string, TecField]] : []));
  const tecByName = new Map(tec);
  return {
    /** A `tribe/events/v1` event body with the fields' values placed among `base`'s keys. */
    tribeBody: (base: Record<string, unknown>, e: EventRow, url: string) =>
      placeBefore(base, tribeOrder, (k) => byName.get(k)!.show(e, url)),
    /** The fields' values while a list shows the event password-protected. */
    blanked: Object.fromEntries(rest.map(([name, r]) => [name, r.blanked])),
    /** The `/doc` Event properties with the fields' placed among `base`'s. */
    docs: (base: Record<string, unknown>) => placeBefore<unknown>(base, tribeOrder, (k) => byName.get(k)!.doc),
    /** The `tec/v1` arguments with the fields' placed among `base`'s, and their validators. */
    tecArgs: (base: Record<string, TSchema>) => ({
      properties: placeBefore(
        base,
        tec.map(([name, t]) => [name, t.argBefore] as const),
        (k) => tecByName.get(k)!.arg,
      ),
      validators: Object.fromEntries(tec.flatMap(([name, t]) => (t.validate ? [[name, t.validate]] : []))),
    }),
    /** The `tribe/events/v1` parameters of the fields a `tec/v1` write sent. */
    tecParams: (p: Readonly<Record<string, unknown>>, has: (k: string) => boolean) =>
      tec.filter(([name]) => has(name)).map(([name, t]) => [name, t.toParam(p[name])] as const),
    /** A `tec/v1` event body with the fields' values placed among `base`'s keys. */
    tecBody: (base: Record<string, unknown>, e: EventRow, url: string) =>
      placeBefore(
        base,
        tec.map(([name, t]) => [name, t.before] as const),
        (k) => byName.get(k)!.show(e, url),
      ),
  };
}

/** The service's field shapes. */
export const EVENT_FIELD_SHAPES = fieldShapes();

/** An event body as lists and feeds show it while the event is password-protected. */
export const blankEventBody = (body: Record<string, unknown>): Record<string, unknown> =>
  blankEvent(body, EVENT_FIELD_SHAPES.blanked);
