// Errors (docs/api-contract.md §5): RFC 9457 problems with a stable type and title, 400s naming every invalid
// parameter, 404s for unknown and private videos and unknown routes; unknown parameters ignored.
import { describe, expect, it } from 'vitest';
import { sortedIds, type Truth } from './catalogue-truth.ts';
import { problemShapeProblems, type Problem } from './contract-shapes.ts';
import { decoded, header, type Client, type RawResponse } from './http-client.ts';
import { useServedCatalogue } from './harness.ts';
import type { Fixture } from './server-fixture.ts';

const enc = encodeURIComponent;
let fx: Fixture;
let api: Client;
let truth: Truth;
/** every problem seen in this file, by status, to check that titles and types never vary */
const problems: { status: number; problem: Problem; target: string }[] = [];

useServedCatalogue({ seed: { videos: 400 } }, (h) => ({ fx, api, truth } = h));

const publicId = () => sortedIds(truth.publicVideos, 'latest')[0] ?? '';

async function problemOf(target: string, status: number): Promise<Problem> {
  const res = await api.send(target);
  expect(res.status, `${target} status`).toBe(status);
  expect(header(res, 'content-type'), target).toMatch(/^application\/problem\+json(;|$)/);
  const problem = JSON.parse(res.body.toString('utf8')) as Problem;
  expect(problemShapeProblems(problem, fx.base, status), target).toEqual([]);
  problems.push({ status, problem, target });
  return problem;
}

const parametersOf = (p: Problem): string[] => (p.errors ?? []).map((e) => e.parameter).sort();

describe('400 for invalid parameters', () => {
  for (const value of ['0', '51', 'abc', '1.5', '-1', '', '1e1', ' 5', '0x10', '99999999999999999999']) {
    it(`answers 400 naming limit when limit is ${JSON.stringify(value)}`, async () => {
      const problem = await problemOf(`/v1/videos?limit=${enc(value)}`, 400);
      expect(parametersOf(problem)).toEqual(['limit']);
    });
  }

  for (const value of ['1', '50']) {
    it(`accepts limit ${value}, the bounds of 1 to 50`, async () => {
      const res = await api.send(`/v1/videos?limit=${value}`);
      expect(res.status).toBe(200);
    });
  }

  for (const value of ['-1', 'abc', '1.5', '']) {
    it(`answers 400 naming offset when offset is ${JSON.stringify(value)}`, async () => {
      const problem = await problemOf(`/v1/videos?offset=${enc(value)}`, 400);
      expect(parametersOf(problem)).toEqual(['offset']);
    });
  }

  for (const [param, value] of [
    ['sort', 'newest'], ['sort', 'LATEST'], ['sort', ''], ['sort', 'relevance'],
    ['duration', 'medium-long'], ['duration', 'SHORT'], ['duration', '240'], ['duration', ''],
    ['feature', '4d'], ['feature', 'Captions'], ['feature', '3d,calm'], ['feature', ''],
  ] as const) {
    it(`answers 400 naming ${param} when ${param} is ${JSON.stringify(value)}`, async () => {
      const problem = await problemOf(`/v1/videos?${param}=${enc(value)}`, 400);
      expect(parametersOf(problem)).toEqual([param]);
    });
  }

  it('names every invalid parameter at once', async () => {
    const problem = await problemOf('/v1/videos?limit=0&sort=oldest&duration=tiny&feature=4d&offset=-3', 400);
    expect(parametersOf(problem)).toEqual(['duration', 'feature', 'limit', 'offset', 'sort']);
    for (const e of problem.errors ?? []) expect(e.detail.length).toBeGreaterThan(0);
  });

  for (const target of ['/v1/videos/{id}/related', '/v1/videos/{id}/comments']) {
    it(`validates limit and offset on ${target} too`, async () => {
      const path = target.replace('{id}', enc(publicId()));
      expect(parametersOf(await problemOf(`${path}?limit=51`, 400))).toEqual(['limit']);
      expect(parametersOf(await problemOf(`${path}?offset=-1`, 400))).toEqual(['offset']);
      expect(parametersOf(await problemOf(`${path}?cursor=0`, 400))).toEqual(['cursor']);
    });
  }

  for (const [name, target] of [
    ['limit=1&limit=2', '/v1/videos?limit=1&limit=2'],
    ['sort=latest&sort=views', '/v1/videos?sort=latest&sort=views'],
    ['sort=views&sort=views', '/v1/videos?sort=views&sort=views'],
    ['category twice', '/v1/videos?category=music&category=gaming'],
    ['ids twice on batch', '/v1/videos/batch?ids=a&ids=b'],
  ] as const) {
    it(`answers 400 naming the parameter repeated in ${name}`, async () => {
      const problem = await problemOf(target, 400);
      const param = /[?&]([^=]+)=/.exec(target)?.[1] ?? '';
      expect(parametersOf(problem)).toContain(param);
    });
  }
});

describe('offset far past the end', () => {
  // docs/api-contract.md §4: offset is an integer >= 0, and an offset past the end is a 200 with empty data.
  for (const offset of ['2147483648', '4294967296', '1000000000000']) {
    it(`answers offset=${offset} with 200 and an empty page`, async () => {
      const res = await api.send(`/v1/videos?offset=${offset}`);
      expect(res.status, res.body.toString('utf8').slice(0, 300)).toBe(200);
      const body = JSON.parse(res.body.toString('utf8')) as { data: unknown[]; paging: { nextCursor: string | null } };
      expect(body.data).toEqual([]);
      expect(body.paging.nextCursor).toBeNull();
    });
  }
});

describe('404 for absent resources and routes', () => {
  for (const suffix of ['', '/playback', '/related', '/comments']) {
    it(`answers 404 for an unknown video id on /v1/videos/{id}${suffix}`, async () => {
      let id = 'no-such-video-id';
      while (truth.videos.has(id)) id += 'x';
      const problem = await problemOf(`/v1/videos/${id}${suffix}`, 404);
      expect(problem.instance).toContain(`/v1/videos/${id}${suffix}`);
    });

    it(`answers 404 for a private video id on /v1/videos/{id}${suffix}, like an unknown one`, async () => {
      const priv = truth.privateIds[0];
      expect(priv).toBeDefined();
      const problem = await problemOf(`/v1/videos/${enc(priv ?? '')}${suffix}`, 404);
      const unknown = await problemOf(`/v1/videos/no-such-video-id${suffix}`, 404);
      expect(problem.type).toBe(unknown.type);
      expect(problem.title).toBe(unknown.title);
    });
  }

  for (const target of ['/v1/nope', '/v1/videos/abc/unknown', '/v1/videos/abc/comments/extra', '/v1/', '/v1/VIDEOS', '/v1/videos/batch/extra', '/v1/categories/music']) {
    it(`answers 404 with a problem for the unknown path ${target}`, async () => {
      await problemOf(target, 404);
    });
  }

  it('answers 404 for odd but well-formed ids (dots, percent-encoded slashes, very long)', async () => {
    for (const id of ['..', '.hidden', '%2e%2e', 'a%2Fb', 'x'.repeat(300), '%F0%9F%8E%A5', 'a%00b']) {
      const res = await api.send(`/v1/videos/${id}`);
      expect(res.status, id).toBe(404);
      expect(problemShapeProblems(JSON.parse(res.body.toString('utf8')), fx.base, 404), id).toEqual([]);
    }
  });
});

describe('problem details', () => {
  it('answers problems with status, detail and instance of this request', async () => {
    const problem = await problemOf('/v1/videos?limit=51&q=x', 400);
    expect(problem.status).toBe(400);
    expect(problem.instance).toContain('/v1/videos');
    expect(problem.detail).not.toBe('');
  });

  it('keeps the title and type of a problem type the same across occurrences, distinct between statuses', async () => {
    // the earlier tests in this file have gathered many problems
    await problemOf('/v1/videos?sort=x', 400);
    await problemOf('/v1/videos/x-y-z', 404);
    const byStatus = new Map<number, Set<string>>();
    const titleByType = new Map<string, Set<string>>();
    for (const { status, problem } of problems) {
      byStatus.set(status, (byStatus.get(status) ?? new Set()).add(problem.type));
      titleByType.set(problem.type, (titleByType.get(problem.type) ?? new Set()).add(problem.title));
    }
    for (const [type, titles] of titleByType) expect([...titles], type).toHaveLength(1);
    expect(byStatus.get(400)?.size).toBe(1);
    expect(byStatus.get(404)?.size).toBe(1);
    expect(byStatus.get(400)).not.toEqual(byStatus.get(404));
    expect(problems.length).toBeGreaterThan(40);
  });

  it('answers 200 with a page describing the problem at every problem type URI', async () => {
    const types = [...new Set(problems.map((p) => p.problem.type))];
    expect(types.length).toBeGreaterThanOrEqual(2);
    for (const type of types) {
      const url = new URL(type);
      expect(url.origin).toBe(new URL(fx.base).origin);
      const res = await api.send(url.pathname);
      expect(res.status, type).toBe(200);
      expect(res.body.length, type).toBeGreaterThan(0);
    }
  });

  it('carries errors[] only on 400 problems', () => {
    for (const { status, problem, target } of problems) {
      if (status !== 400) expect(problem.errors, target).toBeUndefined();
    }
  });
});

describe('unknown query parameters', () => {
  const same = (a: RawResponse, b: RawResponse) => {
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(decoded(a).equals(decoded(b))).toBe(true);
  };

  it('ignores unknown query parameters on every endpoint', async () => {
    const id = enc(publicId());
    for (const path of ['/v1/videos', '/v1/videos?sort=views&limit=13', `/v1/videos/${id}`, `/v1/videos/${id}/playback`, `/v1/videos/${id}/related`,
      `/v1/videos/${id}/comments`, '/v1/categories', `/v1/videos/batch?ids=${id}`]) {
      const sep = path.includes('?') ? '&' : '?';
      same(await api.send(path), await api.send(`${path}${sep}utm_source=newsletter&foo=&Limit=999`));
    }
  });

  it('ignores unknown query parameters on /v1/health', async () => {
    const res = await api.send('/v1/health?foo=bar');
    expect(res.status).toBe(200);
  });
});
