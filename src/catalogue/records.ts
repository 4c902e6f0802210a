// The catalogue interchange format (docs/catalogue.md): one zod schema per record kind. Import,
// export, seed and the build's catalogue check all go through these, so every row in the catalogue
// has passed the same checks. Every object is strict: a key the format does not define is an error
// (validate-records.ts names the closest known key), never dropped. The published JSON Schema
// (/schemas/catalogue-record.json) is generated from these definitions.
import { z } from 'zod';
import { normaliseInstant } from '../lib/time.ts';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * Ids, usernames and slugs (docs/catalogue.md "Ids"): 1–128 of the URL-unreserved characters
 * `A-Z a-z 0-9 . _ -`, in any position, but not only dots (`.` and `..` are path segments of
 * their own). Every id real platforms issue fits: YouTube (`-OK9i1_YYYc`), Vimeo (digits),
 * Dailymotion (`x8abc12`), PeerTube (UUIDs, short UUIDs), slugs. Such an id is a URL path
 * segment as it is; a page file name escapes a leading dot (src/snapshot/layout.ts pageFile).
 */
export const KEY_PATTERN = /^(?!\.+$)[A-Za-z0-9._-]{1,128}$/;
export const Key = z
  .string()
  .regex(KEY_PATTERN, 'must be 1-128 characters of A-Z a-z 0-9 . _ - and not only dots');

/**
 * Video ids that are words of the API's paths where an id would go (`/v1/videos/batch`): a video
 * so named could never be reached. tests/unit/catalogue/records.test.ts derives them from the route table.
 */
export const RESERVED_VIDEO_IDS: readonly string[] = ['batch'];
const VideoId = Key.regex(
  new RegExp(`^(?!(${RESERVED_VIDEO_IDS.join('|')})$)`),
  `must not be ${RESERVED_VIDEO_IDS.map((w) => `"${w}"`).join(' or ')}, a word of the API's paths (/v1/videos/batch)`,
);

const CANONICAL = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\dZ$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** Already in the stored form, on a real calendar day: kept as it is (the common case, and 10x cheaper). */
function isCanonicalInstant(text: string): boolean {
  const m = CANONICAL.exec(text);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month >= 1 && month <= 12 && day >= 1 && day <= DAYS_IN_MONTH[month - 1]! + (month === 2 && leap ? 1 : 0);
}

/** An RFC 3339 date-time, stored normalised to UTC (`2026-03-01T12:00:00Z`). */
export const Instant = z
  .string()
  .regex(RFC3339, 'must be an RFC 3339 date-time such as 2026-03-01T12:00:00Z')
  .transform((text, ctx) => {
    const value = isCanonicalInstant(text) ? text : normaliseInstant(text);
    if (value === undefined) {
      ctx.addIssue({ code: 'custom', message: 'is not a valid calendar date-time' });
      return z.NEVER;
    }
    return value;
  });

/**
 * Characters refused in every text field: C0 control characters other than tab, line feed and
 * carriage return, and DEL (NUL among them). They have no meaning in plain text and break tools.
 */
const NO_CONTROLS = /^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]*$/;
const CONTROLS_MESSAGE = 'must not hold control characters (U+0000-U+0008, U+000B, U+000C, U+000E-U+001F, U+007F)';
/** JSON allows lone UTF-16 surrogates (`"\ud800"`), which are not text and cannot be stored as UTF-8. */
const wellFormed = (s: string) => s.isWellFormed();
const WELL_FORMED = { message: 'must be well-formed Unicode (it holds a lone surrogate)' };

// The pattern repeats the protocol check in a form a JSON Schema validator applies (`format: uri`
// alone accepts javascript: URLs).
const Url = z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' })
  .regex(/^[Hh][Tt][Tt][Pp][Ss]?:\/\/\S+$/, 'must be an absolute http(s) URL');
/**
 * Where a media file is: an absolute http(s) URL (a media host), or a path on this deployment
 * (`/media/...`), served under PUBLIC_BASE_URL wherever it is deployed.
 */
const MediaUrl = z.union([
  Url,
  z.string().regex(/^\/(?!\/)[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/).refine((s) => !s.split('/').includes('..')),
], { error: 'must be an absolute http(s) URL or a path on this deployment such as /media/clip.webm' });
const Count = z.number().int('must be a whole number').min(0, 'must be 0 or more').max(Number.MAX_SAFE_INTEGER);
/** Multi-line plain text (descriptions, comments, alert messages): tabs and line breaks kept. */
const Text = (max: number) => z.string().max(max, `must be at most ${max} characters`)
  .regex(NO_CONTROLS, CONTROLS_MESSAGE).refine(wellFormed, WELL_FORMED);
/**
 * One-line text (titles, names, tags, labels): tabs and line breaks become one space (real
 * catalogues hold titles broken over two lines), then surrounding spaces are trimmed.
 */
const Name = (max: number) => z.string()
  .overwrite((s) => s.replace(/[\t\n\r]+/g, ' ')).trim()
  .regex(/\S/, 'must not be empty').max(max, `must be at most ${max} characters`)
  .regex(NO_CONTROLS, CONTROLS_MESSAGE).refine(wellFormed, WELL_FORMED);
/** Multi-line text that must say something (comment text, alert messages). */
const Body = (max: number) => z.string().trim()
  .regex(/\S/, 'must not be empty').max(max, `must be at most ${max} characters`)
  .regex(NO_CONTROLS, CONTROLS_MESSAGE).refine(wellFormed, WELL_FORMED);

export const Privacy = z.enum(['public', 'unlisted', 'private']);
export type Privacy = z.infer<typeof Privacy>;

export const FeatureFlags = z.strictObject({
  '3d': z.boolean().default(false),
  calm: z.boolean().default(false),
  restricted: z.boolean().default(false),
  captions: z.boolean().default(false),
});
export type FeatureFlags = z.infer<typeof FeatureFlags>;

export const MediaSource = z.strictObject({
  url: MediaUrl,
  type: z.string().regex(/^[a-z]+\/[A-Za-z0-9.+-]+$/, 'must be a media type such as video/mp4'),
  height: z.number().int().min(1).max(8640),
});
export type MediaSource = z.infer<typeof MediaSource>;

export const CaptionTrack = z.strictObject({
  lang: z.string().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language tag such as en or pt-BR'),
  label: Name(100),
  /** the WebVTT file of the track, when the catalogue has one */
  url: MediaUrl.optional(),
});
export type CaptionTrack = z.infer<typeof CaptionTrack>;

/** A chapter of a video: from `start` (whole seconds) to the next chapter's start, or the end. */
export const Chapter = z.strictObject({ start: Count, title: Name(200) });
export type Chapter = z.infer<typeof Chapter>;

/** The most chapters a video may have. */
export const MAX_CHAPTERS = 100;

export const CategoryRecord = z.strictObject({ kind: z.literal('category'), id: Key, name: Name(100) });
export type CategoryRecord = z.infer<typeof CategoryRecord>;

export const ChannelRecord = z.strictObject({
  kind: z.literal('channel'),
  username: Key,
  displayName: Name(200),
  description: Text(5000).optional(),
  avatarUrl: Url.optional(),
  bannerUrl: Url.optional(),
  subscribers: Count.optional(),
  createdAt: Instant.optional(),
});
export type ChannelRecord = z.infer<typeof ChannelRecord>;

export const VideoRecord = z.strictObject({
  kind: z.literal('video'),
  id: VideoId,
  channel: Key,
  title: Name(500),
  publishedAt: Instant,
  privacy: Privacy,
  description: Text(20000).optional(),
  category: Key.optional(),
  tags: z.array(Name(100)).max(100, 'must have at most 100 tags').optional(),
  duration: Count.optional(),
  views: Count.optional(),
  likes: Count.optional(),
  updatedAt: Instant.optional(),
  features: FeatureFlags.partial().optional(),
  thumbnailUrl: Url.optional(),
  sources: z.array(MediaSource).max(20).optional(),
  captions: z.array(CaptionTrack).max(50).optional(),
  language: z.string().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language code such as en or eng').optional(),
  chapters: z.array(Chapter).max(MAX_CHAPTERS, `must have at most ${MAX_CHAPTERS} chapters`).optional(),
}).superRefine((video, ctx) => {
  // Chapters in order, each starting after the one before and inside the video (docs/catalogue.md).
  const chapters = video.chapters ?? [];
  chapters.forEach((chapter, i) => {
    if (i > 0 && chapter.start <= chapters[i - 1]!.start) {
      ctx.addIssue({ code: 'custom', path: ['chapters', i, 'start'], message: 'must be after the previous chapter\'s start (chapters are sorted)' });
    }
    if (video.duration !== undefined && chapter.start >= video.duration) {
      ctx.addIssue({ code: 'custom', path: ['chapters', i, 'start'], message: `must be inside the duration (under ${video.duration} s)` });
    }
  });
});
export type VideoRecord = z.infer<typeof VideoRecord>;

export const PlaylistRecord = z.strictObject({
  kind: z.literal('playlist'),
  id: Key,
  channel: Key,
  title: Name(300),
  privacy: Privacy,
  videos: z.array(Key).max(5000, 'must list at most 5000 videos'),
  description: Text(5000).optional(),
  createdAt: Instant.optional(),
  updatedAt: Instant.optional(),
});
export type PlaylistRecord = z.infer<typeof PlaylistRecord>;

export const CommentState = z.enum(['published', 'held', 'removed', 'spam']);
export type CommentState = z.infer<typeof CommentState>;

export const CommentRecord = z.strictObject({
  kind: z.literal('comment'),
  id: Key,
  videoId: Key,
  text: Body(10000),
  publishedAt: Instant,
  author: z.strictObject({ displayName: Name(200), username: Key.optional(), avatarUrl: Url.optional() }),
  parentId: Key.optional(),
  likes: Count.optional(),
  state: CommentState.default('published'),
});
export type CommentRecord = z.infer<typeof CommentRecord>;

export const LiveState = z.enum(['live', 'upcoming', 'offline']);
export type LiveState = z.infer<typeof LiveState>;

export const LiveRecord = z.strictObject({
  kind: z.literal('live'),
  channel: Key,
  state: LiveState,
  title: Text(300).optional(),
  startedAt: Instant.optional(),
  scheduledFor: Instant.optional(),
  viewers: Count.optional(),
}).superRefine((live, ctx) => {
  // A live stream says when it started; an upcoming one says when it is scheduled.
  if (live.state === 'live' && live.startedAt === undefined) ctx.addIssue({ code: 'custom', path: ['startedAt'], message: 'is required when state is live' });
  if (live.state === 'upcoming' && live.scheduledFor === undefined) ctx.addIssue({ code: 'custom', path: ['scheduledFor'], message: 'is required when state is upcoming' });
});
export type LiveRecord = z.infer<typeof LiveRecord>;

export const AlertSeverity = z.enum(['info', 'minor', 'major', 'critical']);

export const AlertRecord = z.strictObject({
  kind: z.literal('alert'),
  id: Key,
  severity: AlertSeverity,
  title: Name(200),
  message: Body(5000),
  startsAt: Instant,
  endsAt: Instant.optional(),
  components: z.array(Key).max(50).optional(),
});
export type AlertRecord = z.infer<typeof AlertRecord>;

export const CatalogueRecord = z.discriminatedUnion(
  'kind',
  [CategoryRecord, ChannelRecord, VideoRecord, PlaylistRecord, CommentRecord, LiveRecord, AlertRecord],
  { error: 'kind must be one of category, channel, video, playlist, comment, live, alert' },
);
export type CatalogueRecord = z.infer<typeof CatalogueRecord>;
