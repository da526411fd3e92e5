import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The repository's own eslint.config.js, applied to sources placed in src/ folders (nothing is written).
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const eslint = new ESLint({ cwd: REPO });

async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${REPO}packages/news/src/${file}` });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'boundaries/folders').map((m) => m.message);
}

describe('folder boundaries of packages/news/src (eslint.config.js)', () => {
  it('refuses an import the folder table does not allow, naming what is allowed', async () => {
    expect(await boundaryErrors('hub/x.ts', "export { PYTHON_GUARDS } from '../client/export/index.ts';\n")).toEqual([
      'src/hub/ may not import src/client/ (it may import: release, metadata, python-guards).',
    ]);
    expect(await boundaryErrors('gateway/v2/x.ts', "export { find } from '../../search-v2/index.ts';\n")).toHaveLength(
      1,
    );
    expect(
      await boundaryErrors('metadata/x.ts', "export type { OpenRelease } from '../release/types.ts';\n"),
    ).toHaveLength(1);
  });

  it('tells a folder of the gateway from the top-level folder of the same name', async () => {
    expect(await boundaryErrors('gateway/v2/x.ts', "export { registerClient } from '../client/index.ts';\n")).toEqual(
      [],
    );
    expect(
      await boundaryErrors('gateway/v2/x.ts', "export { ApiClient } from '../../client/api/index.ts';\n"),
    ).toHaveLength(1);
  });

  it("lets the browser client take the server's shapes as types only", async () => {
    expect(
      await boundaryErrors('client/api/x.ts', "export type { FindResult } from '../../search-v2/types.ts';\n"),
    ).toEqual([]);
    expect(
      await boundaryErrors(
        'client/api/x.ts',
        "import { type FindResult } from '../../search-v2/types.ts';\nexport type { FindResult };\n",
      ),
    ).toEqual([]);
    expect(
      await boundaryErrors('client/api/x.ts', "export { FILTER_NAMES } from '../../search-v2/filter-names.ts';\n"),
    ).toEqual([]);
    expect(await boundaryErrors('client/api/x.ts', "export { find } from '../../search-v2/index.ts';\n")).toHaveLength(
      1,
    );
  });

  it('asks a new folder to state its place', async () => {
    expect(await boundaryErrors('new-folder/x.ts', "export { V2_CALLS } from '../protocol/index.ts';\n")).toEqual([
      'src/new-folder/ is not in the folder table (eslint.config.js): add it with the folders it may import.',
    ]);
  });
});
