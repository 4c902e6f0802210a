// References between records, checked in SQL over the catalogue as it stands (docs/catalogue.md,
// "References"): a video's channel and category, a playlist's channel and videos, a comment's video
// and parent (a top-level comment of the same video), a live record's channel. The import checks
// the records it staged (before committing them); the build checks the whole catalogue, or, from the
// served snapshot's mark of the change log, what changed since (findBrokenReferencesAmong).
import type { Changes } from './change-log.ts';
import type { Catalogue } from './open-catalogue.ts';
import type { ChangeKind } from './schema.ts';

export interface BrokenReference {
  /** the record holding the reference, by kind and key */
  readonly kind: 'video' | 'playlist' | 'comment' | 'live';
  readonly key: string;
  readonly field: string;
  /** what it names: `channel "bob"` */
  readonly names: string;
  /** why that does not do: empty when it does not exist */
  readonly problem: string;
}

/** The table an import fills with the keys it staged, to check only those records. */
export const STAGED_TABLE = 'temp.import_lines';

/**
 * One rule, in parts so that it can be asked of the whole catalogue or of the records a change log
 * names (findBrokenReferencesAmong): the rows of `from` for which `broken` holds, as
 * (key, field, names, problem).
 */
interface Check {
  readonly kind: BrokenReference['kind'];
  readonly select: string;
  readonly from: string;
  readonly broken: string;
  /** the whole catalogue's query, when a faster form than the parts' gives the same rows */
  readonly whole?: string;
  /** the key of the record holding the reference, and its kind in the change log */
  readonly own: { readonly column: string; readonly kind: ChangeKind };
  /**
   * The records whose change can break the reference although its holder did not change: `gone`,
   * those that no longer exist (the reference only asks that they exist); else every changed one.
   */
  readonly others: readonly ({ readonly column: string; readonly kind: Target; readonly gone: true } | { readonly column: string; readonly kind: ChangeKind; readonly gone?: undefined })[];
}

/** What a reference may name, by its kind in the change log: the table and the key it is found by. */
const TARGETS = {
  channel: { table: 'channels', key: 'username' },
  category: { table: 'categories', key: 'id' },
  video: { table: 'videos', key: 'id' },
} as const satisfies Partial<Record<ChangeKind, { table: string; key: string }>>;
type Target = keyof typeof TARGETS;

/**
 * The rule that `holder`'s `column` names a `target` record that exists (NULL allowed when
 * `optional`): broken when none has that key. It breaks when the holder changed, or when the record
 * it names is gone.
 */
function namesExisting(holder: { kind: BrokenReference['kind']; own: Check['own']; from: string; field: string }, column: string, target: Target, options: { optional?: true; whole?: string } = {}): Check {
  const { table, key } = TARGETS[target];
  return {
    kind: holder.kind, own: holder.own, others: [{ column, kind: target, gone: true }],
    select: `${holder.own.column} AS key, ${holder.field} AS field, '${target} "' || ${column} || '"' AS names, '' AS problem`,
    from: holder.from,
    broken: `${options.optional ? `${column} IS NOT NULL AND ` : ''}NOT EXISTS (SELECT 1 FROM ${table} t WHERE t.${key} = ${column})`,
    ...(options.whole === undefined ? {} : { whole: options.whole }),
  };
}

const VIDEOS = { kind: 'video', own: { column: 'r.id', kind: 'video' }, from: 'videos r' } as const;
const PLAYLISTS = { kind: 'playlist', own: { column: 'r.id', kind: 'playlist' }, from: 'playlists r' } as const;

const CHECKS: readonly Check[] = [
  namesExisting({ ...VIDEOS, field: "'channel'" }, 'r.channel', 'channel', {
    // The channels no channel row has are found in the channel index alone (videos_by_channel: a scan
    // of the index, not of the table, long descriptions and all), and only their videos read: the same
    // rows as a scan testing each video, in a fifth of the time.
    whole: `
    SELECT r.id AS key, 'channel' AS field, 'channel "' || r.channel || '"' AS names, '' AS problem
    FROM videos r WHERE r.channel IN (SELECT v.channel FROM videos v WHERE NOT EXISTS (SELECT 1 FROM channels c WHERE c.username = v.channel))`,
  }),
  namesExisting({ ...VIDEOS, field: "'category'" }, 'r.category', 'category', { optional: true }),
  namesExisting({ ...PLAYLISTS, field: "'channel'" }, 'r.channel', 'channel'),
  namesExisting({ ...PLAYLISTS, from: 'playlists r JOIN playlist_items i ON i.playlist_id = r.id', field: "'videos.' || i.position" }, 'i.video_id', 'video'),
  namesExisting({ kind: 'live', own: { column: 'r.channel', kind: 'live' }, from: 'live_streams r', field: "'channel'" }, 'r.channel', 'channel'),
  namesExisting({ kind: 'comment', own: { column: 'r.id', kind: 'comment' }, from: 'comments r', field: "'videoId'" }, 'r.video_id', 'video', {
    // likewise through the comments' video index (comments_by_video), each video it names looked up once
    whole: `
    SELECT r.id AS key, 'videoId' AS field, 'video "' || r.video_id || '"' AS names, '' AS problem
    FROM comments r WHERE r.video_id IN (SELECT DISTINCT c.video_id FROM comments c WHERE NOT EXISTS (SELECT 1 FROM videos v WHERE v.id = c.video_id))`,
  }),
  {
    // A reply's parent that changed in any way (gone, moved to another video, become a reply) was on
    // the reply's video before, and every change to a comment logs the video it was on
    // (`comments_on`, schema.ts LOGGED_TABLES): the replies it breaks are found by that video.
    kind: 'comment', own: { column: 'r.id', kind: 'comment' }, others: [{ column: 'r.video_id', kind: 'comments_on' }],
    select: `r.id AS key, 'parentId' AS field, 'comment "' || r.parent_id || '"' AS names,
      CASE
        WHEN p.id IS NULL THEN ''
        WHEN p.id = r.id THEN 'the comment itself'
        WHEN p.video_id <> r.video_id THEN 'a comment on another video'
        ELSE 'itself a reply: replies are one level deep'
      END AS problem`,
    from: 'comments r LEFT JOIN comments p ON p.id = r.parent_id',
    broken: 'r.parent_id IS NOT NULL AND (p.id IS NULL OR p.id = r.id OR p.video_id <> r.video_id OR p.parent_id IS NOT NULL)',
  },
];

const wholeSql = (check: Check): string => check.whole ?? `SELECT ${check.select} FROM ${check.from} WHERE ${check.broken}`;

/**
 * Every broken reference, at most `limit` of them (and how many in all). With `staged`, only the
 * records whose keys the import put in STAGED_TABLE (kind, key, line), each with its line.
 */
export function findBrokenReferences(
  db: Catalogue,
  options: { staged?: boolean; limit?: number } = {},
): { found: (BrokenReference & { line?: number })[]; total: number } {
  const limit = options.limit ?? 1000;
  const found: (BrokenReference & { line?: number })[] = [];
  let total = 0;
  for (const check of CHECKS) {
    // `+b.key`: sort what a table scan found; ordering by the key itself would walk its index with
    // one table lookup a row (several times slower on a large catalogue)
    const sql = options.staged
      ? `SELECT b.*, s.line FROM (${wholeSql(check)}) b JOIN ${STAGED_TABLE} s ON s.kind = '${check.kind}' AND s.key = b.key ORDER BY s.line`
      : `SELECT b.* FROM (${wholeSql(check)}) b ORDER BY +b.key`;
    for (const row of db.prepare(sql).iterate()) {
      total++;
      if (found.length < limit) found.push({ kind: check.kind, ...(row as Omit<BrokenReference, 'kind'> & { line?: number }) });
    }
  }
  return { found, total };
}


/**
 * The broken references among the records a change log names, for a catalogue that had none when
 * the log was marked (the served snapshot's build checked it: docs/catalogue.md, "What the build
 * refuses"). Whether a reference holds depends on its holder and on what it names, so a reference
 * can only have broken since the mark if one of the two changed: each rule is asked of the changed
 * holders (`own`) and of the holders of references to the changed records (`others`), through the
 * tables' keys and indexes. The same rows as findBrokenReferences on such a catalogue
 * (tests/unit/catalogue/check-catalogue.test.ts compares the two after random changes).
 */
export function findBrokenReferencesAmong(db: Catalogue, changes: Changes, options: { limit?: number } = {}): { found: BrokenReference[]; total: number } {
  const limit = options.limit ?? 1000;
  const gone = new Map<Target, string[]>();
  const goneOf = (kind: Target): string[] => {
    let keys = gone.get(kind);
    if (keys === undefined) {
      const { table, key } = TARGETS[kind];
      const exists = db.prepare(`SELECT 1 FROM ${table} WHERE ${key} = ?`).pluck();
      keys = [...changes[kind]].filter((key) => exists.get(key) === undefined);
      gone.set(kind, keys);
    }
    return keys;
  };
  const found: BrokenReference[] = [];
  let total = 0;
  for (const check of CHECKS) {
    const parts: { column: string; keys: readonly string[] }[] = [{ column: check.own.column, keys: [...changes[check.own.kind]] }];
    for (const other of check.others) parts.push({ column: other.column, keys: other.gone ? goneOf(other.kind) : [...changes[other.kind]] });
    const asked = parts.filter((part) => part.keys.length > 0);
    if (asked.length === 0) continue;
    const union = asked.map((part) => `SELECT ${check.select} FROM ${check.from} WHERE ${part.column} IN (SELECT value FROM json_each(?)) AND (${check.broken})`).join(' UNION ');
    for (const row of db.prepare(`SELECT b.* FROM (${union}) b ORDER BY +b.key, b.field`).iterate(...asked.map((part) => JSON.stringify(part.keys)))) {
      total++;
      if (found.length < limit) found.push({ kind: check.kind, ...(row as Omit<BrokenReference, 'kind'>) });
    }
  }
  return { found, total };
}
