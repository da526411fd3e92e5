export { ERROR_STATUS, GatewayError, ValidationFailed, V2Refused, toErrorResponse } from './errors.ts';
export type { ErrorCode, ErrorResponse } from './errors.ts';
