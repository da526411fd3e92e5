/**
 * ESLint rule `boundaries/folders`: which top-level folders of a source root a file may import from, by resolved
 * path. `no-restricted-imports` matches the import text only, so it cannot tell `src/client/` from
 * `src/gateway/client/` (both `../client/…` from somewhere); a dependency-boundaries plugin would bring a resolver
 * and a configuration language for one table. Options:
 *   root: the source root (relative to the working directory, e.g. 'packages/news/src');
 *   mayImport: { folder: [folders its files may import from] } — every folder under root must be listed;
 *   mayImportTypes: { folder: [folders it may import types from, erased at build] } (optional);
 *   files: { folder: [single files, root-relative, it may import values from] } (optional).
 */
import path from 'node:path';

const isTypeOnly = (node) =>
  node.importKind === 'type' ||
  node.exportKind === 'type' ||
  (node.specifiers?.length > 0 && node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type'));

/** @type {import('eslint').Rule.RuleModule} */
const folders = {
  meta: {
    type: 'problem',
    docs: { description: 'Enforce the allowed dependencies between the top-level folders of a source root.' },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          mayImport: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
          mayImportTypes: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
          files: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
        },
        required: ['root', 'mayImport'],
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const { root, mayImport, mayImportTypes = {}, files = {} } = context.options[0];
    const rootDir = path.resolve(context.cwd, root);
    const folderOf = (file) => {
      const rel = path.relative(rootDir, file);
      if (rel.startsWith('..') || path.isAbsolute(rel) || !rel.includes(path.sep)) return null;
      return rel.split(path.sep)[0];
    };
    const from = folderOf(context.filename);
    if (from === null) return {};
    const allowed = mayImport[from];
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      if (allowed === undefined) {
        context.report({
          node,
          message: `src/${from}/ is not in the folder table (eslint.config.js): add it with the folders it may import.`,
        });
        return;
      }
      const target = path.resolve(path.dirname(context.filename), source);
      const to = folderOf(target);
      if (to === null || to === from || allowed.includes(to)) return;
      if (isTypeOnly(node) && (mayImportTypes[from] ?? []).includes(to)) return;
      if ((files[from] ?? []).includes(path.relative(rootDir, target).split(path.sep).join('/'))) return;
      const may = [...allowed, ...(mayImportTypes[from] ?? []).map((f) => `${f} (types only)`)];
      context.report({
        node,
        message: `src/${from}/ may not import src/${to}/ (it may import: ${may.join(', ') || 'nothing'}).`,
      });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

export default { rules: { folders } };
