import { describe, expect, it } from 'vitest';
import { ksesData, ksesPost, ksesUrl, writeFilters } from './kses.ts';

describe('kses', () => {
  it('decodes entities before the protocol check', () => {
    for (const href of [
      'jav&#x61;script:alert(1)',
      'javascript&colon;alert(1)',
      'java&Tab;script:x',
      ' &#14; javascript:x',
      'data:text/html,x',
    ]) {
      expect(ksesPost(`<a href="${href}">x</a>`), href).toBe('<a>x</a>');
    }
    expect(ksesPost('<a href="mailto:a@example.org">m</a><a href="/rel">r</a>')).toBe(
      '<a href="mailto:a@example.org">m</a><a href="/rel">r</a>',
    );
  });
  it('keeps the post tag set in content and only the small set in titles', () => {
    const html = '<h2 class="x">T</h2><p><strong>b</strong> <img src="https://example.org/a.png" alt="a" /></p>';
    expect(ksesPost(html)).toBe(html);
    expect(ksesData(html)).toBe('T<strong>b</strong> ');
    expect(ksesData('<a href="https://example.org" title="t" target="_blank">x</a>')).toBe(
      '<a href="https://example.org" title="t">x</a>',
    );
  });
  it('drops event handlers, script-capable elements and CSS that loads anything', () => {
    expect(ksesPost('<details open ontoggle=alert(1)><summary>s</summary></details>')).toBe(
      '<details open><summary>s</summary></details>',
    );
    expect(
      ksesPost(
        '<svg onload=alert(1)><p>x</p></svg><meta http-equiv=refresh content="0;url=javascript:x"><base href="https://e.example">',
      ),
    ).toBe('<p>x</p>');
    expect(ksesPost('<p style="color: red; background-image: url(x)">c</p>')).toBe('<p style="color:red">c</p>');
  });
  it('escapes stray markup characters as kses normalises them', () => {
    expect(ksesData('Rock & Roll <3')).toBe('Rock &amp; Roll &lt;3');
  });
  it('empties website URLs with a protocol outside the list', () => {
    expect(ksesUrl('javascript://example.org/%0aalert(1)')).toBe('');
    expect(ksesUrl(' java\tscript:x')).toBe('');
    expect(ksesUrl('https://example.org/a')).toBe('https://example.org/a');
  });
  it('leaves writers with unfiltered_html alone', () => {
    const admin = writeFilters({ can: (c) => c === 'unfiltered_html' });
    const author = writeFilters({ can: () => false });
    expect(admin.post('<script>x</script>')).toBe('<script>x</script>');
    expect(author.post('<script>x</script>')).toBe('');
  });
});
