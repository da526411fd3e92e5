/**
 * The dataset-hub copy: its layout (shared by the publisher and the recipe) and the retrieval recipe that info
 * returns. Pure: safe for the gateway to import. The publisher, which reads releases, is `hub/publish/`.
 */
export * from './layout.ts';
export { pythonRecipe, type RecipeSettings } from './recipe.ts';
