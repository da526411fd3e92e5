import { createHmac, randomBytes } from 'node:crypto';

/** A new subscription secret as Standard Webhooks writes it: `whsec_` and 32 random bytes in base64. */
export const newSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * The `webhook-signature` value of one message (Standard Webhooks): HMAC-SHA256 of `${id}.${timestamp}.${body}`
 * keyed with the secret's decoded bytes.
 * @example signMessage('whsec_…', 'msg_1', 1700000000, '{}') // 'v1,…'
 */
export function signMessage(secret: string, msgId: string, timestampS: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${msgId}.${timestampS}.${body}`).digest('base64')}`;
}
