import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The rule that keeps index kinds in their registry (eslint.config.js, shardKindRules; src/shard/DESIGN.md).
const root = fileURLToPath(new URL('../../..', import.meta.url));
const eslint = new ESLint({ cwd: root });

async function refusals(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}/packages/news/src/${file}` });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-syntax')
    .map((m) => `${m.line}: ${m.message}`);
}

describe('lint keeps index kinds inside the registry', () => {
  it('refuses a test of a kind name, of any `kind` against a literal, and a switch over kinds, in the release builder', async () => {
    const code = [
      "export const a = (kind: string): boolean => kind === 'compressed';",
      "export const b = (o: { kind: string }): boolean => 'new-kind' !== o.kind;",
      "export const c = (name: string): boolean => name === 'sa';",
      "export function d(kind: string): number { switch (kind) { case 'xyz': return 1; default: return 0; } }",
      '',
    ].join('\n');
    const lines = (await refusals('release/probe.ts', code)).map((m) => m.split(':')[0]);
    expect(new Set(lines)).toEqual(new Set(['1', '2', '3', '4']));
  });

  it('refuses importing a kind folder from outside src/shard, and from shared shard code', async () => {
    expect(
      await refusals(
        'release/probe.ts',
        "export { saKind } from '../shard/index.ts';\nimport { compressedKind } from '../shard/compressed/kind.ts';\nexport const k = compressedKind;\n",
      ),
    ).toEqual([expect.stringMatching(/^2: Import a shard kind through src\/shard\/index.ts/)]);
    expect(
      await refusals('shard/probe.ts', "import { saKind } from './sa/kind.ts';\nexport const k = saKind;\n"),
    ).toEqual([expect.stringMatching(/^1: Shared shard code knows no kind/)]);
  });

  it('refuses one kind importing another, and allows the registry and a kind its own name', async () => {
    expect(
      await refusals(
        'shard/compressed/probe.ts',
        "import { saKind } from '../sa/kind.ts';\nimport { FILES } from '../format.ts';\nexport const k = [saKind, FILES];\n",
      ),
    ).toEqual([expect.stringMatching(/^1: A kind knows no other kind/)]);
    expect(await refusals('shard/kinds.ts', "export const isSa = (kind: string): boolean => kind === 'sa';\n")).toEqual(
      [],
    );
    expect(
      await refusals(
        'shard/compressed/probe.ts',
        "export const mine = (kind: string): boolean => kind === 'compressed';\n",
      ),
    ).toEqual([]);
  });
});
