// createSitePass (src/server/site-pass.ts): a short-lived pass signed with the deployment's secret,
// bound to the client's address, with a key rotated every hour; and the Cookie header that carries it.
import { describe, expect, it } from 'vitest';
import { cookieValue, createSitePass, SITE_PASS_COOKIE, SITE_PASS_SECONDS } from '../../../src/server/site-pass.ts';

const SECRET = 'x'.repeat(32);
const T0 = Date.UTC(2026, 2, 1, 11, 55, 0);

function passOf(secret = SECRET, secure = false) {
  const clock = { now: T0 };
  return { pass: createSitePass({ secret, secure, now: () => clock.now }), clock };
}

describe('createSitePass', () => {
  it('accepts its own pass for the address it was issued to, with the seconds it has left', () => {
    const { pass, clock } = passOf();
    const token = pass.issue('203.0.113.5');
    expect(token).toMatch(/^\d+\.[A-Za-z0-9_-]{22}$/);
    expect(pass.check(token, '203.0.113.5')).toBe(SITE_PASS_SECONDS);
    clock.now += 100_000;
    expect(pass.check(token, '203.0.113.5')).toBe(SITE_PASS_SECONDS - 100);
  });

  it('refuses it for another address, once expired, and with a changed expiry or signature', () => {
    const { pass, clock } = passOf();
    const token = pass.issue('203.0.113.5');
    expect(pass.check(token, '203.0.113.6')).toBe(0);
    const [expiry, mac] = token.split('.') as [string, string];
    expect(pass.check(`${Number(expiry) + 60}.${mac}`, '203.0.113.5')).toBe(0);
    expect(pass.check(`${expiry}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`, '203.0.113.5')).toBe(0);
    clock.now += SITE_PASS_SECONDS * 1000;
    expect(pass.check(token, '203.0.113.5')).toBe(0);
  });

  it('refuses a pass signed with another secret, and one that claims to last longer than a pass does', () => {
    const { pass } = passOf();
    const other = passOf('y'.repeat(32)).pass;
    expect(pass.check(other.issue('203.0.113.5'), '203.0.113.5')).toBe(0);
    const far = passOf();
    far.clock.now += 3_600_000;
    expect(pass.check(far.pass.issue('203.0.113.5'), '203.0.113.5')).toBe(0);
  });

  it('refuses what is not a pass', () => {
    const { pass } = passOf();
    for (const token of [undefined, '', 'x', '1.2', `${'9'.repeat(13)}.${'A'.repeat(22)}`, `1790000000.${'A'.repeat(23)}`, 'a.b.c']) {
      expect(pass.check(token, '203.0.113.5'), String(token)).toBe(0);
    }
  });

  it('keeps a pass good across the hour its key changes', () => {
    const { pass, clock } = passOf();
    const before = pass.issue('203.0.113.5'); // expires 12:05, signed with 12:00's key
    clock.now = Date.UTC(2026, 2, 1, 12, 1, 0);
    expect(pass.check(before, '203.0.113.5')).toBeGreaterThan(0);
    const after = pass.issue('203.0.113.5');
    expect(after.split('.')[1]).not.toBe(before.split('.')[1]);
    expect(pass.check(after, '203.0.113.5')).toBe(SITE_PASS_SECONDS);
  });

  it('makes an HttpOnly, SameSite=Strict cookie for the whole site, Secure over https', () => {
    expect(passOf(SECRET, false).pass.cookie('203.0.113.5')).toMatch(new RegExp(`^${SITE_PASS_COOKIE}=[^;]+; Path=/; Max-Age=${SITE_PASS_SECONDS}; HttpOnly; SameSite=Strict$`));
    expect(passOf(SECRET, true).pass.cookie('203.0.113.5')).toMatch(/; Secure$/);
  });
});

describe('cookieValue', () => {
  it('reads one cookie of a Cookie header', () => {
    expect(cookieValue('a=1; vp_site_pass=2.x; b=3', 'vp_site_pass')).toBe('2.x');
    expect(cookieValue('vp_site_pass=9', 'vp_site_pass')).toBe('9');
    expect(cookieValue('xvp_site_pass=9; vp_site_passx=8', 'vp_site_pass')).toBeUndefined();
    expect(cookieValue(undefined, 'vp_site_pass')).toBeUndefined();
    expect(cookieValue(`vp_site_pass=1; ${'a'.repeat(9000)}`, 'vp_site_pass')).toBeUndefined();
  });
});
