import { describe, expect, it } from 'vitest';
import { avatarUrls } from './gravatar.ts';
import { wordpressCapabilities } from './capabilities.ts';
import { ROLES } from '../user/index.ts';

describe('avatarUrls', () => {
  it('hashes the trimmed, lower-cased e-mail; no e-mail gives the hash-less URL', () => {
    expect(avatarUrls('  CASEY@example.com ')['96']).toBe(
      'https://secure.gravatar.com/avatar/b29f68227690dccb16d3e950f33fcd930aa704be4d7a4352121d84fd20d48020?s=96&d=mm&r=g',
    );
    expect(avatarUrls('')).toEqual({
      24: 'https://secure.gravatar.com/avatar/?s=24&d=mm&r=g',
      48: 'https://secure.gravatar.com/avatar/?s=48&d=mm&r=g',
      96: 'https://secure.gravatar.com/avatar/?s=96&d=mm&r=g',
    });
  });
});

describe('wordpressCapabilities', () => {
  it('grants each TEC capability exactly when the role has the core capability it comes from, without repeats', () => {
    for (const role of ROLES) {
      const caps = wordpressCapabilities(role);
      expect(new Set(caps).size, role).toBe(caps.length);
      expect(caps.includes('publish_tribe_events'), role).toBe(caps.includes('publish_posts'));
      expect(caps.includes('edit_others_tribe_venues'), role).toBe(caps.includes('edit_others_posts'));
      expect(caps.includes('read_private_aggregator-records'), role).toBe(caps.includes('read_private_posts'));
    }
    expect(wordpressCapabilities('subscriber')).toEqual(['read', 'level_0']);
    expect(wordpressCapabilities('administrator')).toContain('manage_options');
    expect(wordpressCapabilities('editor')).not.toContain('manage_options');
  });
});
