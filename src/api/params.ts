// Query parameter schemas (docs/api-contract.md §10, docs/api-contract.md §3–4): the one definition of what each endpoint
// accepts. Values arrive as strings; messages say what is accepted, for the problem's `errors`.
// The API description (/openapi.json) is generated from these schemas, so each one also says, in
// its metadata, what JSON Schema cannot read from a refinement: integer bounds, lengths counted in
// characters (code points, as JSON Schema counts them), patterns, and, on a whole query, which
// parameters exclude or require each other (docs/api-description.md, "Exact").
import { z } from 'zod';
import { KEY_PATTERN } from '../catalogue/records.ts';
import { CHANNEL_SORTS } from '../model/build-channels.ts';
import { VIDEO_SORTS } from '../model/build-model.ts';
import { PLAYBACK_RATES } from '../player/protocol.ts';
import { DURATION_CLASSES } from '../model/durations.ts';
import { FEATURES } from '../model/list-index.ts';
import { CURSOR_PATTERN } from './cursor.ts';

export const MAX_LIMIT = 50;
export const DEFAULT_LIMIT = 20;
export const MAX_OFFSET = Number.MAX_SAFE_INTEGER;
/** Longest free text (`q`), in characters once trimmed. */
export const MAX_TEXT = 200;
/** Most video ids one `/v1/videos/batch` call may name. */
export const MAX_BATCH = 50;

/** What a query as a whole requires beyond each parameter (the description's `x-` extensions). */
export interface QueryRules {
  /** groups of parameters of which at most one may be given */
  readonly 'x-exclusive-parameters'?: readonly (readonly string[])[];
  /** groups of parameters of which at least one must be given */
  readonly 'x-required-one-of'?: readonly (readonly string[])[];
}

/** How many characters JSON Schema's minLength and maxLength count: code points, not UTF-16 units. */
export const characterCount = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

/** An integer parameter: a string of digits on the wire, described as an integer from min to max. */
const integer = (min: number, max: number, message: string) =>
  z.string()
    .refine((s) => /^\d{1,16}$/.test(s) && Number(s) >= min && Number(s) <= max, { message })
    .transform(Number)
    .meta({ type: 'integer', minimum: min, maximum: max });

/** A string of 1 to max characters (code points). */
const bounded = (max: number) =>
  z.string().min(1, 'must not be empty').refine((s) => characterCount(s) <= max, { message: `must be at most ${max} characters` })
    .meta({ maxLength: max });

/**
 * What the API description says of a parameter: its description and, when absence means a value,
 * that default (`default` in zod's own metadata is not carried through transforms).
 */
const about = (description: string, defaultValue?: string | number) =>
  ({ description, ...(defaultValue !== undefined && { 'x-default': defaultValue }) });

const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(', ')}` });

export const Limit = integer(1, MAX_LIMIT, `must be an integer from 1 to ${MAX_LIMIT}`).optional()
  .meta(about('Items per page.', DEFAULT_LIMIT));
// No `default`: absent, a page starts at the first item or where `cursor` says, and a client that
// fills defaults would send offset=0 with every cursor, which is refused (docs/decisions.md).
export const Offset = integer(0, MAX_OFFSET, `must be an integer from 0 to ${MAX_OFFSET}`).optional()
  .meta(about('Items to skip before the page, instead of `cursor` (never with it). Absent: the page starts at the first item, or where `cursor` says.'));
export const Cursor = z.string().min(1, 'must not be empty').optional()
  .meta({
    ...about('Where the page starts: opaque, and valid only as `paging.nextCursor` (or the `Link: rel="next"` URL) of a page of the same query: same path, filters and sort, never with `offset`. Any other value is a 400 (`invalid-parameter`). Follow the `next` link of the 200 response.'),
    pattern: CURSOR_PATTERN.source,
  });

const TRIMMED_TEXT = `must be 1 to ${MAX_TEXT} characters after trimming spaces`;
/**
 * Free text: trimmed, then 1–200 characters. Described as 1–200 characters with one that is not a
 * space: every such text is accepted (a longer one whose spaces trim it to 200 is too).
 */
const text = (required: boolean) =>
  (required ? z.string({ error: `is required: give 1 to ${MAX_TEXT} characters to search for` }) : z.string())
    .transform((s) => s.trim())
    .refine((s) => s.length >= 1 && characterCount(s) <= MAX_TEXT, { message: TRIMMED_TEXT })
    .meta({ minLength: 1, maxLength: MAX_TEXT, pattern: '\\S' });
export const Text = text(false);
/** Required free text: present, trimmed, then 1–200 characters. */
export const RequiredText = text(true);

/** A category id or a username to filter on: unknown values simply match nothing. */
const Name = bounded(200);

const paging = { limit: Limit, offset: Offset, cursor: Cursor };

/** `cursor` and `offset` both place the page: only one may be given. */
function oneWayToPage(value: { cursor?: unknown; offset?: unknown }, ctx: z.RefinementCtx): void {
  if (value.cursor !== undefined && value.offset !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['cursor'], message: 'cannot be combined with offset: give one or the other' });
  }
}
const PAGING_RULES: QueryRules = { 'x-exclusive-parameters': [['cursor', 'offset']] };

/** A paged list's query: its own parameters, then limit, offset and cursor. */
const pagedQuery = <S extends z.ZodRawShape>(shape: S) =>
  z.object({ ...shape, ...paging }).superRefine(oneWayToPage).meta({ ...PAGING_RULES });

export const PagingQuery = pagedQuery({});
export type PagingQuery = z.infer<typeof PagingQuery>;

export const VideoSort = oneOf(VIDEO_SORTS);
export const DurationFilter = oneOf(DURATION_CLASSES);
export const FeatureFilter = oneOf(FEATURES);

export const ListVideosQuery = pagedQuery({
  sort: VideoSort.optional().meta(about('Order: newest first, trending score, most viewed or most liked.', 'latest')),
  category: Name.optional().meta(about('Only videos of this category id (an unknown id matches nothing).')),
  creator: Name.optional().meta(about('Only videos of this channel username (an unknown one matches nothing).')),
  duration: DurationFilter.optional().meta(about('Only videos of this length: short is under 4 minutes, medium 4 to 20, long over 20.')),
  feature: FeatureFilter.optional().meta(about('Only videos with this feature.')),
  q: Text.optional().meta(about(`Only videos matching this search text (1 to ${MAX_TEXT} characters once trimmed), best matches first.`)),
});
export type ListVideosQuery = z.infer<typeof ListVideosQuery>;

export const ChannelSort = oneOf(CHANNEL_SORTS);

export const ListChannelsQuery = pagedQuery({
  sort: ChannelSort.optional().meta(about('Order: most subscribers, most views or most videos first.', 'subscribers')),
  q: Text.optional().meta(about(`Only channels matching this search text (1 to ${MAX_TEXT} characters once trimmed), best matches first.`)),
});
export type ListChannelsQuery = z.infer<typeof ListChannelsQuery>;

export const LiveStateFilter = oneOf(['live', 'all'] as const);

export const ListLiveQuery = pagedQuery({
  state: LiveStateFilter.optional().meta(about('`live`: channels live now; `all`: every channel with a live stream record, live first.', 'live')),
});

export const SearchType = oneOf(['videos', 'channels', 'playlists', 'all'] as const);

export const SearchQuery = pagedQuery({
  q: RequiredText.meta(about(`What to search for: 1 to ${MAX_TEXT} characters once trimmed; the last word also matches as a prefix, and words of 4 letters or more with a typo.`)),
  type: SearchType.optional().meta(about('Which resources to search.', 'videos')),
});

/**
 * `ids=a,b,c`: described as an array in the form style (comma-separated), of 1 to 50 video ids.
 * The server also trims each, and drops blanks and repeats before counting (batch-videos.ts).
 */
export const BatchQuery = z.object({
  ids: z.string({ error: `is required: give 1 to ${MAX_BATCH} comma-separated video ids` })
    .meta({
      ...about(`Video ids separated by commas: 1 to ${MAX_BATCH} once duplicates and blanks are removed.`),
      type: 'array', items: { type: 'string', pattern: KEY_PATTERN.source, maxLength: 128 }, minItems: 1, maxItems: MAX_BATCH,
    }),
});

export const NoQuery = z.object({});

const flag = (name: string) => z.enum(['0', '1'], { error: `must be 0 or 1 (${name})` }).transform((v) => v === '1');

/** The hosted player's options (/embed/{id}): what a blogger sets in the iframe's URL (docs/embeds.md). */
export const EmbedQuery = z.object({
  autoplay: flag('1 starts playing at once, muted, as browsers allow').optional(),
  muted: flag('1 starts muted').optional(),
  loop: flag('1 plays again from the start at the end').optional(),
  controls: flag('0 hides the control bar').optional(),
  restricted: flag('1 plays only videos available in restricted mode').optional(),
  start: integer(0, 1_000_000, 'must be a whole number of seconds from 0 to 1000000').optional(),
  end: integer(1, 1_000_000, 'must be a whole number of seconds from 1 to 1000000, after start').optional(),
  rate: z.enum(PLAYBACK_RATES.map(String) as [string, ...string[]], { error: `must be one of ${PLAYBACK_RATES.join(', ')}` }).transform(Number).optional(),
  playsinline: flag('0 lets phones play in their own full-screen player').optional(),
  keyboard: flag('0 turns the keyboard shortcuts off').optional(),
  quality: z.string().regex(/^\d{2,4}p$/, 'must be a quality label such as 720p').optional(),
  captions: z.string().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language tag such as en or pt-BR').optional(),
  origin: z.string().refine((s) => {
    try {
      const url = new URL(s);
      return /^https?:$/.test(url.protocol) && url.origin === s;
    } catch {
      return false;
    }
  }, 'must be the origin of the embedding page, such as https://blog.example').optional(),
}).superRefine((value, ctx) => {
  if (value.end !== undefined && value.end <= (value.start ?? 0)) {
    ctx.addIssue({ code: 'custom', path: ['end'], message: 'must be a whole number of seconds from 1 to 1000000, after start' });
  }
});
export type EmbedQuery = z.infer<typeof EmbedQuery>;

/** Width of an oEmbed iframe (docs/api-contract.md §10); heights follow at 16:9. */
export const OEMBED_WIDTH = { min: 200, max: 1920, default: 640 } as const;
/** The smallest `maxheight` that still fits the narrowest iframe (200 × 113). */
export const OEMBED_MIN_HEIGHT = 113;

/**
 * The http(s) URLs the description promises to parse (WHATWG URL, as the server does): a host of
 * letters, digits and hyphens whose last label starts with a letter (so never read as an IPv4
 * number) and none is punycode, or a dotted IPv4 address; a port of up to 4 digits. Other absolute
 * URLs are accepted too, but a stricter promise is one a generator can keep.
 */
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
const ABSOLUTE_URL_PATTERN = `^https?://(?:(?![^/?#]*[Xx][Nn]--)(?:[A-Za-z0-9-]+\\.)*[A-Za-z][A-Za-z0-9-]*|${OCTET}(?:\\.${OCTET}){3})(?::[0-9]{1,4})?(?:/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*)?(?:\\?[^\\s#]*)?(?:#\\S*)?$`;

export const OEmbedQuery = z.object({
  url: bounded(2000).optional()
    .meta({ ...about('The watch or embed URL of a video of this service (`watchUrl` or `embedUrl`). Required unless `id` is given. A URL that is not absolute is a 400; one that names no public video here, a 404.'), format: 'uri', pattern: ABSOLUTE_URL_PATTERN }),
  id: bounded(200).optional()
    .meta(about('A video id. Required unless `url` is given; with both, they must name the same video.')),
  maxwidth: integer(OEMBED_WIDTH.min, OEMBED_WIDTH.max, `must be an integer from ${OEMBED_WIDTH.min} to ${OEMBED_WIDTH.max}`).optional()
    .meta(about('Width of the iframe, in CSS pixels.', OEMBED_WIDTH.default)),
  maxheight: integer(OEMBED_MIN_HEIGHT, 100_000, `must be an integer from ${OEMBED_MIN_HEIGHT} to 100000`).optional()
    .meta(about('Largest height of the iframe: a frame too tall at `maxwidth` narrows to fit, keeping 16:9.')),
  format: oneOf(['json', 'xml'] as const).optional().meta(about('`json`; `xml` is not provided (501).', 'json')),
}).superRefine((value, ctx) => {
  if (value.url === undefined && value.id === undefined) {
    ctx.addIssue({ code: 'custom', path: ['url'], message: 'is required: give the watch or embed URL of a video, or its id' });
  }
}).meta({ 'x-required-one-of': [['url', 'id']] } satisfies QueryRules);
