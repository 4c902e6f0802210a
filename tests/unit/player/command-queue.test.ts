import { describe, expect, it } from 'vitest';
import { createCommandQueue } from '../../../src/player/command-queue.ts';

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('createCommandQueue', () => {
  it('runs each task after the one before has settled, in the order they came, however long each takes', async () => {
    const queue = createCommandQueue();
    const log: string[] = [];
    const slow = queue.run(async () => { log.push('quality: start'); await later(30); log.push('quality: metadata'); return 'quality'; });
    const pause = queue.run(() => { log.push('pause'); return 'pause'; });
    const seek = queue.run(async () => { await later(5); log.push('seek'); return 'seek'; });
    const rate = queue.run(() => { log.push('rate'); return 'rate'; });
    expect(queue.size).toBe(4);
    expect(await Promise.all([slow, pause, seek, rate])).toEqual(['quality', 'pause', 'seek', 'rate']);
    expect(log).toEqual(['quality: start', 'quality: metadata', 'pause', 'seek', 'rate']);
    expect(queue.size).toBe(0);
  });

  it('rejects a failing task\'s promise only, and goes on with the next', async () => {
    const queue = createCommandQueue();
    const failing = queue.run(async () => { await later(5); throw new Error('no media'); });
    const next = queue.run(() => 'ran');
    await expect(failing).rejects.toThrow('no media');
    await expect(next).resolves.toBe('ran');
    const thrownSync = queue.run(() => { throw new Error('at once'); });
    await expect(thrownSync).rejects.toThrow('at once');
    await expect(queue.run(() => 'still running')).resolves.toBe('still running');
  });

  it('does not start a task before the tasks already queued, even when it is synchronous', async () => {
    const queue = createCommandQueue();
    let first = false;
    void queue.run(async () => { await later(10); first = true; });
    const sawFirst = await queue.run(() => first);
    expect(sawFirst).toBe(true);
  });
});
