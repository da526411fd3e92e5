import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readZoneFile, useZoneinfoDir, zoneNames } from './tzif.ts';

describe('useZoneinfoDir', () => {
  const made: string[] = [];
  afterEach(() => {
    useZoneinfoDir('/usr/share/zoneinfo');
    for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('reads zones from the folder start-up names, not from the environment', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zoneinfo-'));
    made.push(dir);
    mkdirSync(join(dir, 'Test'));
    copyFileSync('/usr/share/zoneinfo/Europe/Rome', join(dir, 'Test', 'Rome'));
    expect(readZoneFile('Test/Rome')).toBeNull();
    useZoneinfoDir(dir);
    expect(readZoneFile('Test/Rome')).not.toBeNull();
    expect(zoneNames('Test/Rome')?.map(([, abbr]) => abbr)).toEqual(expect.arrayContaining(['CET', 'CEST']));
    expect(readZoneFile('Europe/Rome')).toBeNull();
  });
});
