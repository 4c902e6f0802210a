// The demo catalogue's comments (docs/catalogue.md, "Seed"): threads under a video, more on busier
// videos, each top-level comment followed by its replies (one level deep), with held, removed and
// spam ones among the published, and now and then the channel's creator answering.
import type { CommentRecord, CommentState, VideoRecord } from './records.ts';
import type { SeedChannel } from './seed-channels.ts';
import { formatSeedInstant, SEED_NOW } from './seed-clock.ts';
import { fillTemplate, toNameSlug, type TemplateWords } from './seed-text.ts';
import { ADJECTIVES, COMMENTS, FIRST_NAMES, LAST_NAMES, NOUNS, REPLIES, SPAM } from './seed-vocabulary.ts';
import type { SeededRandom } from './seeded-random.ts';

/** What the comments of one video are written from. */
export interface CommentContext {
  readonly random: SeededRandom;
  readonly video: VideoRecord;
  /** The video's publication time (ms): its comments come after it. */
  readonly published: number;
  readonly channel: SeedChannel;
  readonly words: TemplateWords;
  /** A showcase video's long, threaded section (seed-videos.ts VideoPlan.richComments). */
  readonly rich: boolean;
  /** Returns the next comment id. */
  readonly nextId: () => string;
}

function drawState(random: SeededRandom): CommentState {
  const draw = random.next();
  return draw < 0.89 ? 'published' : draw < 0.94 ? 'held' : draw < 0.97 ? 'removed' : 'spam';
}

const SEPARATORS = ['_', '.', ''] as const;

function drawAuthor(random: SeededRandom, channel: SeedChannel, byCreator: boolean): CommentRecord['author'] {
  if (byCreator) return { displayName: channel.displayName, username: channel.username };
  const first = random.pick(FIRST_NAMES);
  const last = random.pick(LAST_NAMES);
  const style = random.next();
  const displayName = style < 0.6 ? `${first} ${last}` : style < 0.8 ? `${first}${random.int(1, 99)}` : `${random.pick(ADJECTIVES)}${random.pick(NOUNS)}${random.int(1, 999)}`;
  const author: CommentRecord['author'] = { displayName };
  if (random.chance(0.5)) author.username = `${toNameSlug(first)}${random.pick(SEPARATORS)}${toNameSlug(last)}${random.chance(0.4) ? random.int(1, 99) : ''}`;
  return author;
}

function makeComment(context: CommentContext, state: CommentState, at: number, parentId: string | undefined): CommentRecord {
  const { random } = context;
  const byCreator = parentId !== undefined && state === 'published' && random.chance(0.12);
  const reply = parentId !== undefined && (byCreator || random.chance(0.7));
  const text = state === 'spam' ? random.pick(SPAM) : fillTemplate(random, reply ? random.pick(REPLIES) : random.pick(COMMENTS), context.words);
  const record: CommentRecord = {
    kind: 'comment', id: context.nextId(), videoId: context.video.id, text, publishedAt: formatSeedInstant(at),
    author: drawAuthor(random, context.channel, byCreator), state,
  };
  if (parentId !== undefined) record.parentId = parentId;
  if (random.chance(0.75)) record.likes = Math.floor(Math.exp(Math.abs(random.normal()) * 2.2) - 1);
  return record;
}

/** The comments of one video: top-level comments, each followed by its replies (one level deep). */
export function* makeComments(context: CommentContext): Generator<CommentRecord> {
  const { random, video, rich } = context;
  let threads = 0;
  if (rich) threads = random.int(8, 14);
  else if (video.privacy !== 'private' && random.chance(video.privacy === 'public' ? 0.5 : 0.2)) {
    const mean = 0.4 + 0.3 * Math.log10((video.views ?? 0) + 10);
    threads = Math.min(40, 1 + Math.floor(-Math.log(1 - random.next()) * mean));
  }
  for (let thread = 0; thread < threads; thread++) {
    const state: CommentState = rich ? (thread === 1 ? 'held' : thread === 6 ? 'spam' : 'published') : drawState(random);
    const at = context.published + Math.floor((SEED_NOW - context.published) * random.next() ** 3);
    const top = makeComment(context, state, at, undefined);
    yield top;
    let replies = 0;
    if (rich && thread < 4) replies = random.int(1, 3);
    else if (state !== 'spam' && random.chance(0.25)) replies = Math.min(12, 1 + Math.floor(-Math.log(1 - random.next()) * 1.2));
    for (let i = 0; i < replies; i++) {
      const replyState = rich && thread === 0 && i === 0 ? 'published' : drawState(random);
      yield makeComment(context, replyState, at + Math.floor((SEED_NOW - at) * random.next() ** 4), top.id);
    }
  }
}
