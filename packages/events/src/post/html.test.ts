import { describe, expect, it } from 'vitest';
import { renderContent, renderTitle } from './html.ts';

describe('content rendering', () => {
  it('wraps descriptions in paragraphs', () => {
    expect(renderContent('Event 01 description')).toBe('<p>Event 01 description</p>');
    expect(renderContent('a\n\nb')).toBe('<p>a</p>\n<p>b</p>');
    expect(renderContent('')).toBe('');
  });
  it('gives titles typographic quotes and dashes', () => {
    expect(renderTitle(`Bob's "party" -- now`)).toBe('Bob&#8217;s &#8220;party&#8221; &#8212; now');
  });
});
