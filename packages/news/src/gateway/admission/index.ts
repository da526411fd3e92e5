export { registerAdmission, MissingRouteCost, RETRY_AFTER_SECONDS } from './admission-control.ts';
export type { AdmissionSettings, AdmissionState } from './admission-control.ts';
export { costClass, type RouteCost, type CostClass } from './cost.ts';
export { createClientBudget, type ClientBudget } from './client-budget.ts';
