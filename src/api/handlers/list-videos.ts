// GET /v1/videos: public videos, every sort and filter (AND), cursor or offset paging.
// `q` is a simple case-insensitive match of every word in title, tags, creator or description,
// ranked by where the words are found, until the search index replaces it.
import { searchTextOf, type Model, type SearchText, type VideoEntry, type VideoSort } from '../../model/build-model.ts';
import { defineEndpoint } from '../endpoint.ts';
import { canonicalPage, paginate, readPageSpec, type PageSpec } from '../paging.ts';
import { ListVideosQuery } from '../params.ts';
import { parseQuery } from '../query.ts';
import { VideoPage } from '../schemas.ts';

const PATH = '/v1/videos';
const WEIGHTS = { title: 4, tags: 3, creator: 2, description: 1 } as const;

interface Filters {
  readonly sort: VideoSort | undefined;
  readonly category: string | undefined;
  readonly creator: string | undefined;
  readonly duration: 'short' | 'medium' | 'long' | undefined;
  readonly feature: '3d' | 'calm' | 'restricted' | 'captions' | undefined;
  readonly q: string | undefined;
}

function relevance(text: SearchText, words: readonly string[]): number {
  let score = 0;
  for (const word of words) {
    let best = 0;
    for (const field of ['title', 'tags', 'creator', 'description'] as const) {
      if (text[field].includes(word)) best = Math.max(best, WEIGHTS[field]);
    }
    if (best === 0) return 0;
    score += best;
  }
  return score;
}

export function selectVideos(model: Model, f: Filters): readonly VideoEntry[] {
  const base = model.orders[f.sort ?? 'latest'];
  const keep = (e: VideoEntry) =>
    (f.category === undefined || e.video.category === f.category) &&
    (f.creator === undefined || e.video.channel === f.creator) &&
    (f.duration === undefined || e.durationClass === f.duration) &&
    (f.feature === undefined || e.video.features[f.feature]);
  const filtered = f.category || f.creator || f.duration || f.feature ? base.filter(keep) : base;
  if (f.q === undefined) return filtered;
  const words = [...new Set(f.q.toLowerCase().split(/\s+/).filter(Boolean))];
  const scored = filtered.map((entry) => ({ entry, score: relevance(searchTextOf(entry, model), words) })).filter((s) => s.score > 0);
  if (f.sort === undefined) {
    scored.sort((a, b) => b.score - a.score || (a.entry.video.id < b.entry.video.id ? -1 : 1));
  }
  return scored.map((s) => s.entry);
}

export const listVideos = defineEndpoint<{ filters: Filters; page: PageSpec }>({
  name: 'list-videos',
  path: PATH,
  response: VideoPage,
  cache: 'snapshot',
  parse(_path, search) {
    const q = parseQuery(ListVideosQuery, search);
    // Without q the default order is latest; with q and no sort, relevance.
    const filters: Filters = {
      sort: q.sort ?? (q.q === undefined ? 'latest' : undefined),
      category: q.category, creator: q.creator, duration: q.duration, feature: q.feature, q: q.q,
    };
    return { filters, page: readPageSpec(PATH, { ...filters }, q) };
  },
  canonical: ({ page }) => canonicalPage(page),
  handle({ filters, page }, { model }) {
    return paginate(selectVideos(model, filters), page, (e) => e.resource);
  },
});
