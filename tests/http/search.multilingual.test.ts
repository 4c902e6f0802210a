// Search over HTTP on real multilingual titles (PyVideo: Japanese, Chinese, Korean, Portuguese,
// Spanish, Russian…; tests/fixtures/pyvideo-multilingual.ndjson.gz): words inside unspaced runs,
// accents, and prefix queries whose total is exact and whose every match is reachable by paging.
import { describe, expect, it } from 'vitest';
import type { Client } from './http-client.ts';
import { useServedCatalogue } from './harness.ts';
import { followChain } from './paging.ts';

let api: Client;
useServedCatalogue({ ndjson: 'tests/fixtures/pyvideo-multilingual.ndjson.gz' }, (h) => ({ api } = h));

interface Hit { type: string; item: { id?: string; username?: string; title?: string } }
interface SearchBody { data: Hit[]; paging: { total: number; nextCursor: string | null } }

const titles = async (q: string) =>
  (await api.json<SearchBody>(`/v1/search?q=${encodeURIComponent(q)}&limit=50`)).body.data.map((h) => h.item.title!.normalize('NFC'));

describe('/v1/search in every language', () => {
  it('finds a Japanese word inside a title written without spaces, and the whole run', async () => {
    const title = 'Python プロダクトを活用した開発チーム運営 by Takahiro Ikeuchi / 池内 孝啓';
    expect(await titles('運営')).toEqual([title]);
    expect(await titles('開発チーム運営')).toEqual([title]);
  });

  it('finds Chinese, Korean, Portuguese, Spanish and Russian words', async () => {
    expect(await titles('股票')).toContain('如何用 grs 擷取台灣上市股票股價資訊');
    expect(await titles('네트워크')).toContain('네트워크 엔지니어들을 위한 Python');
    expect(await titles('computacao')).toContain('Introdução sobre Apache Spark e computação distribuída');
    expect(await titles('robótica')).toContain('Robótica con Python y Arduino');
    expect(await titles('сравнение')).toContain('Libusb vs linux kernel. Сравнение userspace & kernelspace API');
  });
});

describe('prefix queries', () => {
  it('give an exact total, and paging reaches every match once, on /v1/search and /v1/videos?q=', async () => {
    for (const q of ['pro', 'de', 'py', 'в', 'パ']) {
      const pages = await followChain<Hit>(api, `/v1/search?q=${encodeURIComponent(q)}&limit=7`);
      const ids = pages.flatMap((p) => p.body.data.map((h) => h.item.id!));
      expect(ids.length, q).toBe(pages[0]!.body.paging.total);
      expect(new Set(ids).size, q).toBe(ids.length);
      expect(ids.length, q).toBeGreaterThan(0);
      const listed = await followChain<{ id: string }>(api, `/v1/videos?q=${encodeURIComponent(q)}&limit=50`);
      expect(listed.flatMap((p) => p.body.data.map((v) => v.id)).sort(), q).toEqual([...ids].sort());
    }
  });
});
