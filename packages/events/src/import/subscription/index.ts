// iCalendar subscriptions: feeds kept in the store (`ical_subscriptions`) and imported by the service on schedule.
export { subscriptionRepository, type Subscription } from './subscription.repository.ts';
export { startSubscriptionRunner, runSubscription, runSummary, type RunnerDeps } from './subscription-runner.ts';
export { parseEvery, formatEvery, MIN_EVERY_SECONDS, MAX_EVERY_SECONDS } from './every.ts';
