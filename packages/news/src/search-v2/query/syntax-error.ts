import { V2Error } from '../errors.ts';

/**
 * A syntax error of the text form: 422 `invalid_query` with the 1-based character `position` it concerns and a
 * plain message that says it (e.g. "missing closing parenthesis for the one at position 23").
 */
export function syntaxError(message: string, position: number): V2Error {
  return new V2Error('invalid_query', message, { position });
}
