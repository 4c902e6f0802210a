// Resources of the public API, one zod schema each (docs/api-contract.md §2, docs/api-contract.md §2). Types come from z.infer;
// the build validates every page it writes against these.
import { z } from 'zod';

const DateTime = z.iso.datetime({ offset: false }).meta({ format: 'date-time' });
const Uri = z.url();
const Count = z.number().int().min(0);

export const Features = z.strictObject({
  '3d': z.boolean(),
  calm: z.boolean(),
  restricted: z.boolean(),
  captions: z.boolean(),
}).meta({ id: 'Features' });
export type Features = z.infer<typeof Features>;

export const Creator = z.strictObject({
  username: z.string().optional(),
  displayName: z.string().optional(),
  avatarUrl: Uri.optional(),
  channelUrl: Uri.optional(),
}).meta({ id: 'Creator' });
export type Creator = z.infer<typeof Creator>;

/** A chapter: from `start` (seconds) to the next chapter's start, or the end of the video. */
export const VideoChapter = z.strictObject({ start: Count, title: z.string() }).meta({ id: 'VideoChapter' });
export type VideoChapter = z.infer<typeof VideoChapter>;

/** One picture of a video at a known size. */
export const Thumbnail = z.strictObject({
  url: Uri,
  width: z.number().int().min(1),
  height: z.number().int().min(1),
}).meta({ id: 'Thumbnail' });
export type Thumbnail = z.infer<typeof Thumbnail>;

/** A generated thumbnail at YouTube's named sizes, as PNG (src/model/thumbnail-sizes.ts). */
export const Thumbnails = z.strictObject({
  default: Thumbnail,
  medium: Thumbnail,
  high: Thumbnail,
  standard: Thumbnail,
  maxres: Thumbnail,
}).meta({
  id: 'Thumbnails',
  description: 'The video\'s picture at named sizes (default 120×90, medium 320×180, high 480×360, standard 640×480, maxres 1280×720), as PNG. Present when the service draws the picture itself (the catalogue gives none), absent when `thumbnailUrl` is the catalogue\'s own picture, whose size is not known.',
});
export type Thumbnails = z.infer<typeof Thumbnails>;

export const Video = z.strictObject({
  id: z.string(),
  title: z.string(),
  description: z.string().optional(),
  category: z.string().optional(),
  tags: z.array(z.string()).optional(),
  duration: Count.optional(),
  durationText: z.string().regex(/^(\d+:[0-5]\d|\d+:[0-5]\d:[0-5]\d)$/).optional(),
  views: Count,
  likes: Count,
  comments: Count.optional(),
  publishedAt: DateTime.optional(),
  updatedAt: DateTime.optional(),
  privacy: z.enum(['public', 'unlisted']).optional(),
  thumbnailUrl: Uri,
  watchUrl: Uri,
  embedUrl: Uri,
  features: Features.optional(),
  creator: Creator,
  /** sorted by start, each inside the duration; absent when the video has none */
  chapters: z.array(VideoChapter).optional(),
  thumbnails: Thumbnails.optional(),
}).meta({ id: 'Video' });
export type Video = z.infer<typeof Video>;

export const Paging = z.strictObject({
  limit: z.number().int().min(1).max(50),
  offset: Count,
  total: Count,
  nextCursor: z.string().nullable(),
}).meta({ id: 'Paging' });
export type Paging = z.infer<typeof Paging>;

/** The list envelope of docs/api-contract.md §2 around items of one schema. */
export const pageOf = <T extends z.ZodType>(item: T) => z.strictObject({ data: z.array(item), paging: Paging });

export const VideoPage = pageOf(Video).meta({ id: 'VideoPage' });
export type VideoPage = z.infer<typeof VideoPage>;

export const VideoResponse = z.strictObject({ data: Video }).meta({ id: 'VideoResponse' });

export const VideoBatch = z.strictObject({
  data: z.array(Video),
  missing: z.array(z.string()),
}).meta({ id: 'VideoBatch' });
export type VideoBatch = z.infer<typeof VideoBatch>;

export const Quality = z.strictObject({ label: z.string(), height: z.number().int().min(1) });
export const PlaybackSource = z.strictObject({ url: Uri, type: z.string(), quality: z.string(), height: z.number().int().min(1) });
export const PlaybackCaption = z.strictObject({ lang: z.string(), label: z.string(), url: Uri.optional() });

export const Playback = z.strictObject({
  videoId: z.string(),
  modes: z.array(z.enum(['inline', 'theater', 'fullscreen', 'pip'])),
  qualities: z.array(Quality),
  defaultQuality: z.string().optional(),
  sources: z.array(PlaybackSource),
  captions: z.array(PlaybackCaption),
  '3d': z.strictObject({ available: z.boolean(), layout: z.literal('side-by-side').optional() }),
  calmAudio: z.strictObject({ available: z.boolean() }),
  restrictedMode: z.strictObject({ available: z.boolean() }),
}).meta({ id: 'Playback' });
export type Playback = z.infer<typeof Playback>;
export const PlaybackResponse = z.strictObject({ data: Playback }).meta({ id: 'PlaybackResponse' });

export const CommentAuthor = z.strictObject({
  displayName: z.string(),
  avatarUrl: Uri,
  username: z.string().optional(),
});

export const Reply = z.strictObject({
  id: z.string(),
  videoId: z.string(),
  parentId: z.string(),
  author: CommentAuthor,
  text: z.string(),
  likes: Count,
  publishedAt: DateTime,
}).meta({ id: 'Reply' });
export type Reply = z.infer<typeof Reply>;

export const CommentThread = z.strictObject({
  id: z.string(),
  videoId: z.string(),
  parentId: z.null(),
  author: CommentAuthor,
  text: z.string(),
  likes: Count,
  publishedAt: DateTime,
  replyCount: Count,
  replies: z.array(Reply),
}).meta({ id: 'Comment' });
export type CommentThread = z.infer<typeof CommentThread>;

export const CommentPage = pageOf(CommentThread).meta({ id: 'CommentPage' });

export const Category = z.strictObject({
  id: z.string(),
  name: z.string(),
  videoCount: Count,
}).meta({ id: 'Category' });
export type Category = z.infer<typeof Category>;
export const CategoryList = z.strictObject({ data: z.array(Category) }).meta({ id: 'CategoryList' });

export const Channel = z.strictObject({
  username: z.string(),
  displayName: z.string(),
  description: z.string(),
  avatarUrl: Uri,
  bannerUrl: Uri.optional(),
  channelUrl: Uri,
  subscribers: Count,
  views: Count,
  videos: Count,
  playlists: Count,
  createdAt: DateTime,
  isLive: z.boolean(),
}).meta({ id: 'Channel' });
export type Channel = z.infer<typeof Channel>;
export const ChannelResponse = z.strictObject({ data: Channel }).meta({ id: 'ChannelResponse' });
export const ChannelPage = pageOf(Channel).meta({ id: 'ChannelPage' });

export const Playlist = z.strictObject({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  privacy: z.enum(['public', 'unlisted']),
  videoCount: Count,
  thumbnailUrl: Uri,
  creator: Creator,
  createdAt: DateTime,
  updatedAt: DateTime,
}).meta({ id: 'Playlist' });
export type Playlist = z.infer<typeof Playlist>;
export const PlaylistResponse = z.strictObject({ data: Playlist }).meta({ id: 'PlaylistResponse' });
export const PlaylistPage = pageOf(Playlist).meta({ id: 'PlaylistPage' });

export const LiveChannel = z.strictObject({
  channel: z.strictObject({ username: z.string(), displayName: z.string(), avatarUrl: Uri, channelUrl: Uri }),
  state: z.enum(['live', 'upcoming', 'offline']),
  title: z.string(),
  startedAt: DateTime.optional(),
  scheduledFor: DateTime.optional(),
  viewers: Count.optional(),
  watchUrl: Uri,
  embedUrl: Uri,
  thumbnailUrl: Uri,
}).meta({ id: 'LiveChannel' });
export type LiveChannel = z.infer<typeof LiveChannel>;
export const LivePage = pageOf(LiveChannel).meta({ id: 'LivePage' });

const shelf = <I extends string, T extends z.ZodType>(id: I, item: T) =>
  z.strictObject({ id: z.literal(id), title: z.string(), items: z.array(item) });

/** The five shelves, always in this order (docs/api-contract.md §2). */
export const Discovery = z.strictObject({
  shelves: z.tuple([
    shelf('latest', Video).meta({ id: 'LatestShelf' }),
    shelf('trending', Video).meta({ id: 'TrendingShelf' }),
    shelf('feature-ready', Video).meta({ id: 'FeatureReadyShelf' }),
    shelf('categories', Category).meta({ id: 'CategoriesShelf' }),
    shelf('live', LiveChannel).meta({ id: 'LiveShelf' }),
  ]),
}).meta({ id: 'Discovery' });
export type Discovery = z.infer<typeof Discovery>;
export const DiscoveryResponse = z.strictObject({ data: Discovery }).meta({ id: 'DiscoveryResponse' });

export const Health = z.strictObject({
  status: z.enum(['ok', 'unavailable']),
  version: z.string(),
  snapshot: z.strictObject({ id: z.string(), videos: Count, pages: Count, loadedAt: DateTime }).nullable(),
}).meta({ id: 'Health' });
export const HealthResponse = z.strictObject({ data: Health }).meta({ id: 'HealthResponse' });

const Score = z.number().min(0);

export const SearchResult = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('video'), score: Score, item: Video }),
  z.strictObject({ type: z.literal('channel'), score: Score, item: Channel }),
  z.strictObject({ type: z.literal('playlist'), score: Score, item: Playlist }),
]).meta({ id: 'SearchResult' });
export type SearchResult = z.infer<typeof SearchResult>;
export const SearchPage = pageOf(SearchResult).meta({ id: 'SearchPage' });

export const ComponentStatus = z.enum(['operational', 'degraded', 'outage']);
export type ComponentStatus = z.infer<typeof ComponentStatus>;

export const StatusComponent = z.strictObject({
  id: z.string(),
  name: z.string(),
  status: ComponentStatus,
  detail: z.string(),
}).meta({ id: 'StatusComponent' });
export type StatusComponent = z.infer<typeof StatusComponent>;

export const StatusAlert = z.strictObject({
  id: z.string(),
  severity: z.enum(['info', 'minor', 'major', 'critical']),
  title: z.string(),
  message: z.string(),
  startsAt: DateTime,
  endsAt: DateTime.optional(),
  components: z.array(z.string()),
  /** raised by the service itself for a component that is not operational */
  automatic: z.boolean(),
}).meta({ id: 'StatusAlert' });
export type StatusAlert = z.infer<typeof StatusAlert>;

export const Status = z.strictObject({
  status: ComponentStatus,
  checkedAt: DateTime,
  components: z.array(StatusComponent),
  alerts: z.array(StatusAlert),
}).meta({ id: 'Status' });
export type Status = z.infer<typeof Status>;
export const StatusResponse = z.strictObject({ data: Status }).meta({ id: 'StatusResponse' });

export const PartnerStats = z.strictObject({
  app: z.strictObject({ id: z.string(), name: z.string() }),
  lane: z.literal('key'),
  rateLimit: z.strictObject({ limit: Count, remaining: Count, reset: Count, window: Count }),
  requests: z.strictObject({
    total: Count,
    days: z.array(z.strictObject({ day: z.iso.date(), requests: Count })),
    endpoints: z.array(z.strictObject({ endpoint: z.string(), requests: Count })),
  }),
}).meta({ id: 'PartnerStats' });
export type PartnerStats = z.infer<typeof PartnerStats>;
export const PartnerResponse = z.strictObject({ data: PartnerStats }).meta({ id: 'PartnerResponse' });

/** oEmbed 1.0 (docs/api-contract.md §2): a `video` type answer whose `html` is the player's iframe. */
export const OEmbed = z.strictObject({
  version: z.literal('1.0'),
  type: z.literal('video'),
  title: z.string(),
  author_name: z.string(),
  author_url: Uri,
  provider_name: z.string(),
  provider_url: Uri,
  thumbnail_url: Uri,
  thumbnail_width: z.number().int().min(1),
  thumbnail_height: z.number().int().min(1),
  html: z.string(),
  width: z.number().int().min(1),
  height: z.number().int().min(1),
  cache_age: Count,
}).meta({ id: 'OEmbed' });
export type OEmbed = z.infer<typeof OEmbed>;

export const Problem = z.strictObject({
  type: Uri,
  title: z.string(),
  status: z.number().int().min(400).max(599),
  detail: z.string(),
  instance: z.string(),
  errors: z.array(z.strictObject({ parameter: z.string(), detail: z.string() })).optional(),
}).meta({ id: 'Problem' });
export type Problem = z.infer<typeof Problem>;
