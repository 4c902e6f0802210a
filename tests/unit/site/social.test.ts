// TWITTER_SITE (src/config.ts, src/site/social.ts): a handle or nothing; a bad value stops the
// process at start with a message naming the variable.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { twitterSite } from '../../../src/site/social.ts';

describe('TWITTER_SITE', () => {
  it('accepts an X handle, and nothing', () => {
    expect(loadConfig({ TWITTER_SITE: '@video_platform' }).twitterSite).toBe('@video_platform');
    expect(loadConfig({}).twitterSite).toBeUndefined();
    expect(twitterSite({ TWITTER_SITE: '@vp' })).toBe('@vp');
    expect(twitterSite({})).toBeUndefined();
  });

  it('refuses anything else, naming the variable', () => {
    for (const value of ['videoplatform', '@', '@has space', '@sixteen_letters_', '@"><script>']) {
      expect(() => loadConfig({ TWITTER_SITE: value }), value).toThrow(ConfigError);
      expect(() => loadConfig({ TWITTER_SITE: value }), value).toThrow(/TWITTER_SITE/);
      expect(twitterSite({ TWITTER_SITE: value }), value).toBeUndefined();
    }
  });
});
