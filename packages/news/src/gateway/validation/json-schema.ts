/**
 * The JSON Schema keywords our request and response models use, as TypeBox emits them: read by the validator
 * (to check bodies) and by the API reference page (to describe them), so both see one shape.
 */
export interface JsonSchema {
  readonly type?: string;
  readonly anyOf?: readonly JsonSchema[];
  readonly items?: JsonSchema;
  readonly maxItems?: number;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  /** Allowed string values (pydantic's Literal): anything else is a literal_error. */
  readonly enum?: readonly string[];
  /** The one allowed string value (TypeBox's Literal). */
  readonly const?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly default?: unknown;
  readonly title?: string;
  readonly description?: string;
}
