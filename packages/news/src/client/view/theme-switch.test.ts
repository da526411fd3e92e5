import { describe, expect, it } from 'vitest';
import { parseThemeChoice } from './theme-switch.ts';

describe('parseThemeChoice', () => {
  it('keeps a remembered light or dark choice and reads anything else as the system setting', () => {
    expect(parseThemeChoice('light')).toBe('light');
    expect(parseThemeChoice('dark')).toBe('dark');
    expect(parseThemeChoice(null)).toBe('system');
    expect(parseThemeChoice('Dark')).toBe('system');
    expect(parseThemeChoice('')).toBe('system');
  });
});
