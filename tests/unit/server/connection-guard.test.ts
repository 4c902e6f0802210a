import { createServer, connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { clientKeyOf, guardConnections, sweepPeriodOf, type ConnectionGuard } from '../../../src/server/connection-guard.ts';

describe('clientKeyOf', () => {
  it('counts IPv4 addresses as they are, IPv4-mapped ones as IPv4, and IPv6 by their /64', () => {
    expect(clientKeyOf('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKeyOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKeyOf('2001:db8:0:1::1')).toBe('2001:db8:0:1::/64');
    expect(clientKeyOf('2001:DB8:0:1:ffff:1:2:3')).toBe('2001:db8:0:1::/64');
    expect(clientKeyOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKeyOf('::1')).toBe('0:0:0:0::/64');
    expect(clientKeyOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKeyOf(undefined)).toBe('');
  });
});

describe('sweepPeriodOf', () => {
  it('checks deadlines ten times per deadline, between 50 ms and 1 s', () => {
    expect(sweepPeriodOf(10_000)).toBe(1000);
    expect(sweepPeriodOf(300)).toBe(50);
    expect(sweepPeriodOf(5000)).toBe(500);
  });
});

describe('guardConnections', () => {
  let guard: ConnectionGuard | undefined;
  const sockets: Socket[] = [];
  afterEach(() => {
    guard?.close();
    for (const s of sockets) s.destroy();
  });

  /** Opens `n` loopback connections; resolves with the server side of each. */
  async function open(n: number): Promise<Socket[]> {
    const accepted: Socket[] = [];
    const server = createServer((s) => accepted.push(s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    for (let i = 0; i < n; i++) sockets.push(connect(port, '127.0.0.1'));
    while (accepted.length < n) await new Promise((r) => setTimeout(r, 5));
    server.close();
    sockets.push(...accepted);
    return accepted;
  }

  it('admits up to perClient connections from one address, and one more once one closes', async () => {
    guard = guardConnections({ perClient: 2, headTimeoutMs: 60_000, onHeadTimeout: () => {} });
    const [a, b, c, d] = await open(4);
    expect([guard.admit(a!), guard.admit(b!), guard.admit(c!)]).toEqual([true, true, false]);
    a!.destroy();
    await new Promise((r) => setTimeout(r, 20));
    expect(guard.admit(d!)).toBe(true);
  });

  it('reports a head still unread after its deadline, once, and not one that ended', async () => {
    const late: Socket[] = [];
    guard = guardConnections({ perClient: 0, headTimeoutMs: 100, onHeadTimeout: (s) => late.push(s) });
    const [slow, done] = await open(2);
    guard.startHead(slow!, Date.now());
    guard.startHead(done!, Date.now());
    guard.endHead(done!);
    await new Promise((r) => setTimeout(r, 300));
    expect(late).toEqual([slow]);
  });
});
