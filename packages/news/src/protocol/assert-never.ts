/** Exhaustiveness guard: a `switch` over a tagged union ends here, so adding a variant is a compile error. */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`unhandled ${what}: ${JSON.stringify(value)}`);
}
