import { describe, expect, it } from 'vitest';
import { videoComments } from '../../../../src/api/handlers/video-comments.ts';
import type { CommentThread } from '../../../../src/model/schemas.ts';
import { catalogueOf, comment, modelOf, video } from '../../support/fixtures.ts';
import { call, pageOf, problemOf } from '../../support/handlers.ts';

const at = (n: number) => `2026-02-${String(n).padStart(2, '0')}T00:00:00Z`;
const threads = Array.from({ length: 7 }, (_, i) => comment(`t${i}`, 'v1', { publishedAt: at(i + 1) }));
const model = modelOf(catalogueOf({
  videos: [video('v1'), video('quiet'), video('u', { privacy: 'unlisted' })],
  comments: [
    ...threads,
    comment('r-late', 'v1', { parentId: 't3', publishedAt: at(20) }),
    comment('r-early', 'v1', { parentId: 't3', publishedAt: at(10) }),
    comment('cu', 'u'),
  ],
}));

const comments = (id: string, query = '') => call(videoComments, model, query, { id });

describe('videoComments', () => {
  it('pages over top-level threads, newest first, counting threads in total', () => {
    const page = pageOf<CommentThread>(comments('v1'));
    expect(page.data.map((t) => t.id)).toEqual([...threads].reverse().map((t) => t.id));
    expect(page.paging.total).toBe(threads.length);
    expect(page.paging.nextCursor).toBeNull();
  });

  it('nests replies under their thread, oldest first', () => {
    const t3 = pageOf<CommentThread>(comments('v1')).data.find((t) => t.id === 't3')!;
    expect(t3.replies.map((r) => r.id)).toEqual(['r-early', 'r-late']);
    expect(t3.replyCount).toBe(2);
  });

  it('follows cursors through every thread exactly once', () => {
    const seen: string[] = [];
    let query = 'limit=3';
    for (let guard = 0; guard < 10; guard++) {
      const answer = comments('v1', query);
      const page = pageOf<CommentThread>(answer);
      seen.push(...page.data.map((t) => t.id));
      if (page.paging.nextCursor === null) break;
      query = new URL(answer.next!, 'http://x.invalid').search.slice(1);
    }
    expect(seen).toEqual([...threads].reverse().map((t) => t.id));
  });

  it('refuses a cursor of another video', () => {
    const other = modelOf(catalogueOf({ videos: [video('v1'), video('v2')], comments: [...threads, ...threads.map((t) => ({ ...t, id: `x${t.id}`, videoId: 'v2' }))] }));
    const cursor = pageOf(call(videoComments, other, 'limit=2', { id: 'v2' })).paging.nextCursor!;
    expect(problemOf(() => call(videoComments, other, `limit=2&cursor=${cursor}`, { id: 'v1' })).status).toBe(400);
  });

  it('answers an empty page for a video without comments', () => {
    expect(pageOf(comments('quiet')).paging).toMatchObject({ total: 0, nextCursor: null });
  });

  it('serves the comments of an unlisted video', () => {
    expect(pageOf<CommentThread>(comments('u')).data.map((t) => t.id)).toEqual(['cu']);
  });

  it('answers 404 for an unknown video', () => {
    const error = problemOf(() => comments('nope'));
    expect(error.status).toBe(404);
    expect(error.slug).toBe('not-found');
  });

  it('answers 404 for an id that cannot be a video id', () => {
    for (const id of ['../etc', '', '.hidden', 'a b']) expect(problemOf(() => comments(id)).status).toBe(404);
  });

  it('answers 400 for limit=0 on a known video', () => {
    expect(problemOf(() => comments('v1', 'limit=0')).status).toBe(400);
  });
});
