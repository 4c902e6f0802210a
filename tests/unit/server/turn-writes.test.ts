import type { Socket } from 'node:net';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createTurnWrites, HOLD_MS } from '../../../src/server/turn-writes.ts';

/** A writable that records each write call it gets (writev: one call, several chunks). */
function recorder() {
  const calls: string[][] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) { calls.push([chunk.toString()]); done(); },
    writev(chunks, done) { calls.push(chunks.map((c) => (c.chunk as Buffer).toString())); done(); },
  });
  return { socket: stream as unknown as Socket, calls };
}

const turnEnds = () => new Promise((resolve) => setImmediate(resolve));

describe('turn writes', () => {
  it('holds what is written in a turn and writes it at the turn\'s end, in one call', async () => {
    const writes = createTurnWrites();
    const { socket, calls } = recorder();
    writes.hold(socket);
    socket.write('head');
    socket.write('body');
    writes.hold(socket); // a second request of the same turn
    socket.write('next');
    expect(calls).toEqual([]);
    await turnEnds();
    expect(calls).toEqual([['head', 'body', 'next']]);
    expect(socket.writableCorked).toBe(0);
  });

  it('writes each socket\'s answers at the end of the turn that read them, not later', async () => {
    const writes = createTurnWrites();
    const a = recorder();
    const b = recorder();
    writes.hold(a.socket);
    a.socket.write('a1');
    writes.hold(b.socket);
    b.socket.write('b1');
    await turnEnds();
    expect([a.calls, b.calls]).toEqual([[['a1']], [['b1']]]);
    writes.hold(a.socket);
    a.socket.write('a2');
    await turnEnds();
    expect(a.calls).toEqual([['a1'], ['a2']]);
    expect(a.socket.writableCorked).toBe(0);
  });

  it('writes what a socket holds at once when released (before a hand-off), and leaves it uncorked', async () => {
    const writes = createTurnWrites();
    const { socket, calls } = recorder();
    writes.hold(socket);
    socket.write('answer');
    writes.release(socket);
    expect(calls).toEqual([['answer']]);
    expect(socket.writableCorked).toBe(0);
    socket.write('written by another layer');
    await turnEnds();
    expect(calls).toEqual([['answer'], ['written by another layer']]);
    expect(socket.writableCorked).toBe(0);
  });

  it('writes what it holds once HOLD_MS have passed since it began holding, without waiting for the turn\'s end', async () => {
    let clock = 0;
    const writes = createTurnWrites({ now: () => clock });
    const a = recorder();
    const b = recorder();
    writes.hold(a.socket);
    a.socket.write('early');
    clock += HOLD_MS / 2;
    writes.hold(b.socket);
    b.socket.write('soon');
    expect([a.calls, b.calls]).toEqual([[], []]);
    clock += HOLD_MS; // a slow answer in between
    writes.hold(a.socket);
    expect([a.calls, b.calls]).toEqual([[['early']], [['soon']]]);
    a.socket.write('late');
    expect(a.calls).toEqual([['early']]);
    await turnEnds();
    expect(a.calls).toEqual([['early'], ['late']]);
    expect([a.socket.writableCorked, b.socket.writableCorked]).toEqual([0, 0]);
  });

  it('lets a socket ended in the turn go: end writes what it held, the turn\'s end does nothing more', async () => {
    const writes = createTurnWrites();
    const { socket, calls } = recorder();
    writes.hold(socket);
    socket.write('problem');
    socket.end();
    await turnEnds();
    expect(calls).toEqual([['problem']]);
  });
});
