/**
 * A body that is not JSON (an iCalendar feed): sent as it is with its own content type; `_fields`, `_envelope` and
 * `_jsonp` do not apply to it.
 */
export class TextBody {
  constructor(
    readonly text: string,
    readonly contentType: string,
  ) {}
}
