import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`expected a ConfigError for ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('counts rate limits in memory unless RATE_LIMIT_STORE names a redis:// URL; anything else is refused without echoing a password', () => {
    expect(loadConfig({}).sharedStore).toBeUndefined();
    expect(loadConfig({ RATE_LIMIT_STORE: 'memory' }).sharedStore).toBeUndefined();
    expect(loadConfig({ RATE_LIMIT_STORE: 'redis://127.0.0.1:6379/2' }).sharedStore).toBe('redis://127.0.0.1:6379/2');
    expect(loadConfig({ RATE_LIMIT_STORE: 'rediss://user:pw@cache.internal:6380' }).sharedStore).toBe('rediss://user:pw@cache.internal:6380');
    expect(configError({ RATE_LIMIT_STORE: 'http://127.0.0.1:6379' }).message).toMatch(/RATE_LIMIT_STORE must be memory or a redis:\/\//);
    expect(configError({ RATE_LIMIT_STORE: '127.0.0.1:6379' }).message).toMatch(/RATE_LIMIT_STORE/);
    expect(configError({ RATE_LIMIT_STORE: 'https://u:secret@x' }).message).not.toContain('secret');
    expect(loadConfig({}).origins).toBe(1);
    expect(loadConfig({ RATE_LIMIT_ORIGINS: '3' }).origins).toBe(3);
    expect(configError({ RATE_LIMIT_ORIGINS: '0' }).message).toMatch(/RATE_LIMIT_ORIGINS must be an integer from 1/);
  });

  it('shares state through SHARED_STATE_STORE, or RATE_LIMIT_STORE (its older name); two different stores are refused', () => {
    expect(loadConfig({ SHARED_STATE_STORE: 'redis://127.0.0.1:6379' }).sharedStore).toBe('redis://127.0.0.1:6379');
    expect(loadConfig({ SHARED_STATE_STORE: 'redis://127.0.0.1:6379', RATE_LIMIT_STORE: 'redis://127.0.0.1:6379' }).sharedStore).toBe('redis://127.0.0.1:6379');
    expect(loadConfig({ SHARED_STATE_STORE: 'memory' }).sharedStore).toBeUndefined();
    expect(configError({ SHARED_STATE_STORE: 'redis://a:6379', RATE_LIMIT_STORE: 'redis://b:6379' }).message).toMatch(/SHARED_STATE_STORE and RATE_LIMIT_STORE name different stores/);
    expect(configError({ SHARED_STATE_STORE: 'http://u:secret@x' }).message).toMatch(/SHARED_STATE_STORE must be memory or a redis:\/\//);
    expect(configError({ SHARED_STATE_STORE: 'http://u:secret@x' }).message).not.toContain('secret');
  });

  it('fills the documented defaults from an empty environment', () => {
    const config = loadConfig({});
    expect(config.port).toBe(4321);
    expect(config.publicBaseUrl).toBe('http://localhost:4321');
    expect(config.catalogueDb).toBe('data/catalogue.db');
    expect(config.trustProxy).toBe(false);
    expect(config.rateLimits.public).toBe(600);
    expect(config.host).toBeUndefined();
    expect(config.siteOrigin).toBe('http://localhost:4321');
  });

  it('takes the site origin from PUBLIC_BASE_URL unless SITE_ORIGIN names another, as scheme, host and port only', () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://videos.example:8443' }).siteOrigin).toBe('https://videos.example:8443');
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://api.example', SITE_ORIGIN: 'https://www.example:8443/' }).siteOrigin).toBe('https://www.example:8443');
  });

  it('gives the site lane a larger bucket than the public lane by default', () => {
    const { rateLimits } = loadConfig({});
    expect(rateLimits.site).toBeGreaterThan(rateLimits.public);
    expect(rateLimits.key).toBeGreaterThan(0);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', PUBLIC_BASE_URL: '', TRUST_PROXY: '', CATALOGUE_DB: '' })).toEqual(loadConfig({}));
  });

  it('reads PORT and derives the default base URL from it', () => {
    const config = loadConfig({ PORT: '8080' });
    expect(config.port).toBe(8080);
    expect(config.publicBaseUrl).toBe('http://localhost:8080');
  });

  it.each(['abc', '-1', '65536', '80.5', '8080 ', '0x50', '1e3'])('stops with a message naming PORT for %j', (port) => {
    expect(configError({ PORT: port }).message).toContain('PORT');
  });

  it('reads PUBLIC_BASE_URL without a trailing slash', () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://videos.example.com/' }).publicBaseUrl).toBe('https://videos.example.com');
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://videos.example.com' }).publicBaseUrl).toBe('https://videos.example.com');
  });

  it('refuses a base path in PUBLIC_BASE_URL (and SITE_ORIGIN): the service is served at the root of its origin', () => {
    for (const value of ['https://example.com/videos', 'https://example.com/videos/', 'http://127.0.0.1:4700/a/b', 'https://example.com//']) {
      const message = configError({ PUBLIC_BASE_URL: value }).message;
      expect(message, value).toContain(`PUBLIC_BASE_URL must be an origin without a path (got "${value}"`);
      expect(message, value).toContain('the service must be served at the root of its origin');
    }
    expect(configError({ PUBLIC_BASE_URL: 'https://example.com/videos' }).message).toContain('whose path is /videos');
    expect(configError({ SITE_ORIGIN: 'https://www.example.com/site' }).message).toContain('SITE_ORIGIN must be an origin without a path');
  });

  it.each(['not a url', 'videos.example.com', 'ftp://videos.example.com', 'https://videos.example.com/?a=1', 'https://videos.example.com/#top', 'https://user:pass@videos.example.com'])(
    'stops with a message naming PUBLIC_BASE_URL for %j', (value) => {
      const error = configError({ PUBLIC_BASE_URL: value });
      expect(error.message).toContain('PUBLIC_BASE_URL');
    });

  it('reads SITE_ORIGIN without a trailing slash, and refuses one that is not a URL', () => {
    expect(loadConfig({ SITE_ORIGIN: 'https://site.example.com/' }).siteOrigin).toBe('https://site.example.com');
    expect(configError({ SITE_ORIGIN: 'site.example.com' }).message).toContain('SITE_ORIGIN');
  });

  it.each([['true', true], ['1', true], ['yes', true], ['false', false], ['0', false], ['off', false]] as const)(
    'reads TRUST_PROXY=%s as %s', (value, expected) => {
      expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toBe(expected);
    });

  it.each(['maybe', '2', 'truthy'])('stops with a message naming TRUST_PROXY for %j', (value) => {
    expect(configError({ TRUST_PROXY: value }).message).toContain('TRUST_PROXY');
  });

  it('stops with a message naming a rate limit of 0', () => {
    expect(configError({ RATE_LIMIT_PUBLIC: '0' }).message).toContain('RATE_LIMIT_PUBLIC');
  });

  it('names every bad variable at once', () => {
    const message = configError({ PORT: 'x', PUBLIC_BASE_URL: 'nope', TRUST_PROXY: 'perhaps' }).message;
    for (const name of ['PORT', 'PUBLIC_BASE_URL', 'TRUST_PROXY']) expect(message).toContain(name);
  });

  it('reads SITE_PASS_SECRET, and refuses one shorter than 32 characters', () => {
    expect(loadConfig({}).sitePassSecret).toBeUndefined();
    expect(loadConfig({ SITE_PASS_SECRET: 's'.repeat(32) }).sitePassSecret).toBe('s'.repeat(32));
    expect(configError({ SITE_PASS_SECRET: 'short' }).message).toMatch(/SITE_PASS_SECRET must be at least 32 characters \(got 5\)/);
  });

  it('reads the rate limits of each lane', () => {
    expect(loadConfig({ RATE_LIMIT_PUBLIC: '10', RATE_LIMIT_SITE: '20', RATE_LIMIT_KEY: '30' }).rateLimits).toEqual({ public: 10, site: 20, key: 30 });
  });

  it('ignores unrelated variables', () => {
    expect(loadConfig({ HOME: '/root', PATH: '/bin' })).toEqual(loadConfig({}));
  });

  it('reads the HTTP front\'s deadlines and connection limit, with the documented defaults', () => {
    expect(loadConfig({})).toMatchObject({ headTimeoutMs: 10_000, requestTimeoutMs: 20_000, connectionsPerClient: 256 });
    expect(loadConfig({ HEAD_TIMEOUT_MS: '500', REQUEST_TIMEOUT_MS: '900', CONNECTIONS_PER_CLIENT: '0' })).toMatchObject({ headTimeoutMs: 500, requestTimeoutMs: 900, connectionsPerClient: 0 });
  });

  it('sets no connection limit per address behind a trusted proxy, unless one is given', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).connectionsPerClient).toBe(0);
    expect(loadConfig({ TRUST_PROXY: 'true', CONNECTIONS_PER_CLIENT: '1000' }).connectionsPerClient).toBe(1000);
  });

  it('refuses a request deadline shorter than the head deadline, and deadlines out of bounds', () => {
    expect(configError({ HEAD_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '1000' }).message).toMatch(/REQUEST_TIMEOUT_MS \(1000\) must be at least HEAD_TIMEOUT_MS \(5000\)/);
    expect(configError({ HEAD_TIMEOUT_MS: '10' }).message).toMatch(/HEAD_TIMEOUT_MS must be an integer from 100/);
    expect(configError({ CONNECTIONS_PER_CLIENT: '-1' }).message).toMatch(/CONNECTIONS_PER_CLIENT must be an integer from 0/);
  });
});
