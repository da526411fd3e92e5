export { webhookRoutes } from './webhook.routes.ts';
export { startDeliveryRunner, defaultDeliveryOptions, RETRY_WINDOW_MS } from './delivery-runner.ts';
export { WEBHOOK_EVENT_TYPES } from './event-types.ts';
export { webhookRepository } from './webhook.repository.ts';
