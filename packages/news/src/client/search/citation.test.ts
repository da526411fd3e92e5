import { describe, expect, it } from 'vitest';
import { citationText } from './citation.ts';

const full = {
  title: 'Brücke eröffnet',
  sitename: 'Kanal Kurier',
  hostname: 'kanal.example.org',
  author: 'Erika Mustermann',
  publish_date: '2025-03-03T08:00:00',
  warc_date: '2025-03-04T10:00:00',
  url: 'https://kanal.example.org/zeta',
  text_xxhash64: '14196768045643192942',
};

describe('citation', () => {
  it('names author, outlet, title, both dates, URL, release and text hash in that order', () => {
    expect(citationText({ metadata: full, lead: null, release: 'news-2026-11' })).toBe(
      'Erika Mustermann, Kanal Kurier. “Brücke eröffnet.” Published 2025-03-03; crawled 2025-03-04. https://kanal.example.org/zeta. ' +
        'News corpus release news-2026-11, text_xxhash64 14196768045643192942.',
    );
  });

  it('cites an untitled article by its lead and leaves out what the record lacks', () => {
    const bare = {
      hostname: 'www.derstandard.at',
      warc_date: '2016-05-31',
      text_xxhash64: '42',
      title: null,
      url: null,
      author: '  ',
    };
    expect(citationText({ metadata: bare, lead: 'Die Regierung hat am Montag beschlossen …', release: 'r1' })).toBe(
      'www.derstandard.at. [Untitled; begins “Die Regierung hat am Montag beschlossen …”] Crawled 2016-05-31. News corpus release r1, text_xxhash64 42.',
    );
    expect(citationText({ metadata: {}, lead: null, release: 'r1' })).toBe(
      'Unknown outlet. [Untitled] News corpus release r1.',
    );
  });

  it('ends a title with its own question or exclamation mark, not a second full stop', () => {
    expect(
      citationText({ metadata: { ...full, title: 'Wer zahlt die Brücke?' }, lead: null, release: 'r1' }),
    ).toContain('“Wer zahlt die Brücke?”');
    expect(citationText({ metadata: { ...full, title: 'Endlich offen! ' }, lead: null, release: 'r1' })).toContain(
      '“Endlich offen!”',
    );
    expect(citationText({ metadata: { ...full, title: 'Brücke eröffnet …' }, lead: null, release: 'r1' })).toContain(
      '“Brücke eröffnet …”',
    );
  });

  it('names the outlet once when the author field already ends with it', () => {
    const reuters = { ...full, author: "TED D'AFFLISIO, Reuters", sitename: 'Reuters' };
    expect(citationText({ metadata: reuters, lead: null, release: 'r1' })).toMatch(/^TED D'AFFLISIO, Reuters\. “/);
    const byline = { ...full, author: 'Erika Mustermann (kanal kurier)', sitename: 'Kanal Kurier' };
    expect(citationText({ metadata: byline, lead: null, release: 'r1' })).toMatch(
      /^Erika Mustermann \(kanal kurier\)\. “/,
    );
    expect(
      citationText({ metadata: { ...full, author: 'Reuters', sitename: 'Reuters' }, lead: null, release: 'r1' }),
    ).toMatch(/^Reuters\. “/);
  });
});
