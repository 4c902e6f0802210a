// The heap limit a build gives itself (src/snapshot/build-heap.ts, used by scripts/build.ts): raised
// for a catalogue whose model does not fit V8's default, never lowered, never above the share of
// memory left for the rest, and never in place of a limit the operator set.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chooseHeapLimit, countVideos, HEAP_BASE_MB, HEAP_PER_VIDEO_KB } from '../../../src/snapshot/build-heap.ts';
import { tempDirs } from '../support/fixtures.ts';
import { smallCatalogue, writeCatalogueFile } from '../support/snapshots.ts';

const dirs = tempDirs();
afterEach(() => dirs.cleanup());

const GB = 2 ** 30;
/** this machine's shape: 24 GB, V8's default limit 4,288 MB */
const machine = { totalMemory: 24 * GB, defaultLimit: 4288 * 2 ** 20, nodeOptions: '' };

describe('chooseHeapLimit', () => {
  it('keeps V8\'s default for a catalogue it holds (100,000 videos: 1.6 GB needed)', () => {
    const choice = chooseHeapLimit({ ...machine, videos: 100_000 });
    expect(choice.limitMb).toBeUndefined();
    expect(choice.reason).toMatch(/default heap limit \(4288 MB\) is enough for 100,000 videos \(1610 MB\)/);
  });

  it('raises the limit to 1 GB and 6 KB a video for a million videos, which ran out of heap under the default', () => {
    const choice = chooseHeapLimit({ ...machine, videos: 1_000_000 });
    expect(choice.limitMb).toBe(HEAP_BASE_MB + Math.ceil((1_000_000 * HEAP_PER_VIDEO_KB) / 1024));
    expect(choice.limitMb).toBeGreaterThan(4288);
    expect(choice.reason).toMatch(/^6884 MB of heap for 1,000,000 videos/);
  });

  it('grows with the catalogue, and stops at 75% of the machine\'s memory', () => {
    const limits = [1_000_000, 2_000_000, 3_000_000].map((videos) => chooseHeapLimit({ ...machine, videos }).limitMb!);
    expect(limits[1]).toBeGreaterThan(limits[0]!);
    expect(limits[2]).toBeGreaterThan(limits[1]!);
    const huge = chooseHeapLimit({ ...machine, videos: 10_000_000 });
    expect(huge.limitMb).toBe(Math.floor(24 * 1024 * 0.75));
    expect(huge.reason).toMatch(/capped at 75% of the machine's 24576 MB/);
  });

  it('never lowers the limit: on a small machine whose cap is under V8\'s default, the default stays', () => {
    const small = { totalMemory: 4 * GB, defaultLimit: 2048 * 2 ** 20, nodeOptions: '' };
    expect(chooseHeapLimit({ ...small, videos: 1_000_000 }).limitMb).toBe(3072);
    expect(chooseHeapLimit({ totalMemory: 2 * GB, defaultLimit: 2048 * 2 ** 20, nodeOptions: '', videos: 1_000_000 }).limitMb).toBeUndefined();
  });

  it('keeps a limit the operator set, in NODE_OPTIONS or on node\'s command line, in either spelling', () => {
    for (const nodeOptions of ['--max-old-space-size=2048', '--trace-gc --max_old_space_size=9000', ' --max-old-space-size 3000']) {
      const choice = chooseHeapLimit({ ...machine, nodeOptions, videos: 1_000_000 });
      expect(choice.limitMb, nodeOptions).toBeUndefined();
      expect(choice.reason).toMatch(/--max-old-space-size is kept/);
    }
    // other flags are not a limit
    expect(chooseHeapLimit({ ...machine, nodeOptions: '--max-semi-space-size=32', videos: 1_000_000 }).limitMb).toBe(6884);
  });
});

describe('countVideos', () => {
  it('counts every video of a catalogue file, and is undefined when there is none to read', () => {
    const dir = dirs.make();
    const file = writeCatalogueFile(join(dir, 'catalogue.db'), smallCatalogue());
    expect(countVideos(file)).toBe(smallCatalogue().filter((r) => r['kind'] === 'video').length);
    expect(countVideos(join(dir, 'missing.db'))).toBeUndefined();
  });
});
