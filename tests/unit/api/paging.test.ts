import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../../src/api/cursor.ts';
import { canonicalPage, paginate, readPageSpec, scopeOf } from '../../../src/api/paging.ts';
import { DEFAULT_LIMIT } from '../../../src/api/params.ts';
import { JsonOut } from '../../../src/model/json-out.ts';
import { withStandIns } from '../../../src/model/entries.ts';
import { ProblemError } from '../../../src/api/problems.ts';

const PATH = '/v1/videos';
const FILTERS = { sort: 'latest', category: undefined };
const items = Array.from({ length: 45 }, (_, i) => i);

describe('readPageSpec', () => {
  it('fills the default limit and a zero offset', () => {
    expect(readPageSpec(PATH, FILTERS, {})).toMatchObject({ limit: DEFAULT_LIMIT, offset: 0, cursor: undefined });
  });

  it('places the page by a cursor of the same query', () => {
    const cursor = encodeCursor(scopeOf(PATH, FILTERS), 40);
    expect(readPageSpec(PATH, FILTERS, { cursor, limit: 5 })).toMatchObject({ limit: 5, offset: 40, cursor });
  });

  it('answers 400 naming cursor for a cursor of another query', () => {
    const cursor = encodeCursor(scopeOf(PATH, { sort: 'views' }), 40);
    try {
      readPageSpec(PATH, FILTERS, { cursor });
      expect.unreachable('no problem thrown');
    } catch (error) {
      expect(error).toBeInstanceOf(ProblemError);
      expect((error as ProblemError).status).toBe(400);
      expect((error as ProblemError).errors?.map((e) => e.parameter)).toEqual(['cursor']);
    }
  });

  it('treats filters left undefined like filters never given', () => {
    const cursor = encodeCursor(scopeOf(PATH, { sort: 'latest' }), 20);
    expect(readPageSpec(PATH, FILTERS, { cursor }).offset).toBe(20);
  });
});

describe('paginate', () => {
  const spec = (offset: number, limit: number) => ({ path: PATH, filters: FILTERS, limit, offset, cursor: undefined });

  it('slices the page and reports limit, offset and total', () => {
    const page = paginate(items, spec(10, 5), (n) => n * 2);
    expect(page.body.data).toEqual([20, 22, 24, 26, 28]);
    expect(page.body.paging).toMatchObject({ limit: 5, offset: 10, total: items.length });
  });

  it('issues a next cursor that decodes to the next offset, and a next link carrying it', () => {
    const page = paginate(items, spec(10, 5), (n) => n);
    const cursor = page.body.paging.nextCursor;
    expect(cursor).not.toBeNull();
    expect(decodeCursor(scopeOf(PATH, FILTERS), cursor!)).toEqual({ ok: true, offset: 15 });
    const next = new URL(page.next!, 'http://x.invalid');
    expect(next.pathname).toBe(PATH);
    expect(next.searchParams.get('cursor')).toBe(cursor);
    expect(next.searchParams.get('limit')).toBe('5');
    expect(next.searchParams.get('sort')).toBe('latest');
  });

  it('gives the last page a null nextCursor and no next link', () => {
    const page = paginate(items, spec(40, 5), (n) => n);
    expect(page.body.data).toEqual([40, 41, 42, 43, 44]);
    expect(page.body.paging.nextCursor).toBeNull();
    expect(page.next).toBeUndefined();
  });

  it('answers an offset past the end with empty data and no next page', () => {
    const page = paginate(items, spec(1000, 20), (n) => n);
    expect(page.body.data).toEqual([]);
    expect(page.body.paging).toMatchObject({ total: items.length, nextCursor: null });
  });

  it('follows cursors through every item exactly once', () => {
    const seen: number[] = [];
    let offset = 0;
    for (let guard = 0; guard < 100; guard++) {
      const page = paginate(items, spec(offset, 7), (n) => n);
      seen.push(...page.body.data);
      const cursor = page.body.paging.nextCursor;
      if (cursor === null) break;
      offset = readPageSpec(PATH, FILTERS, { cursor, limit: 7 }).offset;
    }
    expect(seen).toEqual(items);
  });
});

describe('paginate with items written as JSON', () => {
  const spec = (offset: number, limit: number) => ({ path: PATH, filters: FILTERS, limit, offset, cursor: undefined });
  const write = (n: number, out: JsonOut) => out.text(JSON.stringify({ n, text: `“${n}”\n` }));
  const toItem = (n: number) => ({ n, text: `“${n}”\n` });

  it('writes the JSON of the body it would make, and makes the body only when it is read', () => {
    let made = 0;
    const page = paginate(items, spec(40, 10), (n) => { made++; return toItem(n); }, write);
    const bytes = page.bytes!();
    expect(made).toBe(0);
    expect(bytes.toString('utf8')).toBe(JSON.stringify(page.body));
    expect(made).toBe(5);
    expect(page.body).toBe(page.body);
    expect(made).toBe(5);
    // each answer's bytes are its own: writing the next answer does not change them
    const copy = Buffer.from(bytes);
    paginate(items, spec(0, 30), toItem, write).bytes!();
    expect(bytes.equals(copy)).toBe(true);
  });

  it('writes an empty page as JSON.stringify does', () => {
    const page = paginate(items, spec(1000, 20), toItem, write);
    expect(page.bytes!().toString('utf8')).toBe(JSON.stringify(page.body));
  });

  it('makes the body at once, and writes no bytes, while the build answers with stand-ins', () => {
    let made = 0;
    const page = withStandIns(() => paginate(items, spec(0, 3), (n) => { made++; return toItem(n); }, write));
    expect(made).toBe(3);
    expect(page.bytes).toBeUndefined();
  });
});

describe('JsonOut', () => {
  it('grows past its first size and keeps what it wrote', () => {
    const out = new JsonOut(16);
    const texts = Array.from({ length: 50 }, (_, i) => JSON.stringify(`é ${i} ✓`));
    for (const t of texts) out.text(t);
    expect(out.take().toString('utf8')).toBe(texts.join(''));
    expect(out.reset().take().length).toBe(0);
  });
});

describe('canonicalPage', () => {
  it('writes the limit, and the offset only when it is not zero', () => {
    expect(canonicalPage(spec0(0))).toBe('/v1/videos?limit=20&sort=latest');
    expect(canonicalPage(spec0(40))).toBe('/v1/videos?limit=20&offset=40&sort=latest');
  });

  it('writes the cursor instead of the offset for a page asked for by cursor', () => {
    const cursor = encodeCursor(scopeOf(PATH, FILTERS), 40);
    const url = canonicalPage({ ...spec0(40), cursor });
    expect(new URL(url, 'http://x.invalid').searchParams.get('offset')).toBeNull();
    expect(new URL(url, 'http://x.invalid').searchParams.get('cursor')).toBe(cursor);
  });

  function spec0(offset: number) {
    return { path: PATH, filters: FILTERS, limit: 20, offset, cursor: undefined };
  }
});
