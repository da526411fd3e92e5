/**
 * WAI-ARIA tabs over existing markup (`role=tablist` with `role=tab` buttons whose `aria-controls` name their
 * panels): click or arrow keys switch, only the selected tab is in the tab order.
 * @example const tabs = setupTabs(byId('result-tabs'), (id) => { if (id === 'tab-concordance') panel.open(); });
 */
export function setupTabs(list: HTMLElement, onSelect: (tabId: string) => void): { select(tabId: string): void } {
  const tabs = [...list.querySelectorAll<HTMLElement>('[role=tab]')];
  const select = (id: string, focus = false) => {
    for (const t of tabs) {
      const on = t.id === id;
      t.setAttribute('aria-selected', String(on));
      t.tabIndex = on ? 0 : -1;
      const panel = document.getElementById(t.getAttribute('aria-controls') ?? '');
      if (panel !== null) panel.hidden = !on;
      if (on && focus) t.focus();
    }
    onSelect(id);
  };
  for (const [i, t] of tabs.entries()) {
    t.addEventListener('click', () => select(t.id));
    t.addEventListener('keydown', (ev) => {
      const step = ({ ArrowRight: 1, ArrowLeft: -1 } as Record<string, number>)[ev.key];
      const target =
        ev.key === 'Home'
          ? tabs[0]
          : ev.key === 'End'
            ? tabs.at(-1)
            : step === undefined
              ? undefined
              : tabs[(i + step + tabs.length) % tabs.length];
      if (target === undefined) return;
      ev.preventDefault();
      select(target.id, true);
    });
  }
  return { select: (id) => select(id) };
}
