/**
 * A response body already encoded as JSON. Cached items are kept as text (a third of the memory of the object
 * graph, and no re-encoding per request); `_fields`, `_envelope` and `_jsonp` need the value and parse it back.
 */
export class JsonText {
  constructor(readonly text: string) {}

  static of(value: unknown): JsonText {
    return new JsonText(JSON.stringify(value));
  }

  value(): unknown {
    return JSON.parse(this.text);
  }
}
