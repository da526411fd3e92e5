import type { ArticleMetadata } from '../api/types.ts';
import { citationText } from '../search/citation.ts';
import { h, replaceChildren } from './dom.ts';

/**
 * "Copy citation": copies the article's citation (citation.ts) to the clipboard and says so; where the browser
 * refuses the clipboard (an insecure origin, a denied permission) it shows the citation to select instead.
 * `lead` is read when clicked, so an untitled card cites the lead its heading shows by then.
 */
export function citationButton(
  metadata: ArticleMetadata,
  release: string,
  lead: () => string | null,
  box: HTMLElement,
): HTMLButtonElement {
  const button = h('button', { type: 'button', class: 'link-button' }, 'Copy citation');
  button.addEventListener('click', () => {
    const text = citationText({ metadata, lead: lead(), release });
    const copied = navigator.clipboard?.writeText(text) ?? Promise.reject(new Error('no clipboard'));
    copied.then(
      () => {
        button.textContent = 'Citation copied';
        replaceChildren(
          box,
          h('span', { class: 'visually-hidden', role: 'status' }, 'Citation copied to the clipboard.'),
        );
        setTimeout(() => {
          button.textContent = 'Copy citation';
        }, 2500);
      },
      () => {
        replaceChildren(
          box,
          h(
            'p',
            { class: 'citation' },
            h('span', { class: 'muted' }, 'Select and copy this citation: '),
            h('span', { class: 'citation-text' }, text),
          ),
        );
      },
    );
  });
  return button;
}
