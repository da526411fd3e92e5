export {
  defaultWorkBudgetOptions,
  WorkBudget,
  WorkStopped,
  type WorkBudgetOptions,
  type WorkStop,
} from './work-budget.ts';
