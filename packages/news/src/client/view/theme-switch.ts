import { h } from './dom.ts';

/** The reader's colour choice: the system setting (the default), or light or dark whatever the system says. */
export type ThemeChoice = 'system' | 'light' | 'dark';

const CHOICES: Record<ThemeChoice, string> = { system: 'System setting', light: 'Light', dark: 'Dark' };
/** localStorage key of the remembered choice. */
export const THEME_KEY = 'news-theme';

/**
 * A stored choice, checked: anything else (absent, edited, from an older page) is the system setting.
 * @example parseThemeChoice('dark') // 'dark'
 * @example parseThemeChoice('purple') // 'system'
 */
export function parseThemeChoice(stored: string | null): ThemeChoice {
  return stored === 'light' || stored === 'dark' ? stored : 'system';
}

/** Storage may be refused (privacy settings, a sandboxed frame): the switch then works for this page only. */
function stored(): string | null {
  try {
    return localStorage.getItem(THEME_KEY);
  } catch {
    return null;
  }
}
function remember(choice: ThemeChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, choice);
  } catch {
    /* see stored() */
  }
}

/**
 * Applies the remembered choice to `<html data-theme>` (the stylesheet's dark rules key on it), follows the
 * system setting live while the choice is "system", and returns the labelled switch for the masthead.
 */
export function mountThemeSwitch(): HTMLElement {
  const system = matchMedia('(prefers-color-scheme: dark)');
  let choice = parseThemeChoice(stored());
  const apply = () => {
    document.documentElement.dataset['theme'] = choice === 'system' ? (system.matches ? 'dark' : 'light') : choice;
  };
  const select = h(
    'select',
    {
      id: 'theme',
      onchange: () => {
        choice = parseThemeChoice(select.value);
        remember(choice);
        apply();
      },
    },
    ...(Object.keys(CHOICES) as ThemeChoice[]).map((c) =>
      h('option', { value: c, selected: c === choice }, CHOICES[c]),
    ),
  );
  system.addEventListener('change', apply);
  apply();
  return h('div', { class: 'theme-switch' }, h('label', { for: 'theme' }, 'Colours'), select);
}
