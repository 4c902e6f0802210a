// References between records, checked in SQL over the catalogue as it stands (docs/catalogue.md,
// "References"): a video's channel and category, a playlist's channel and videos, a comment's video
// and parent (a top-level comment of the same video), a live record's channel. The import checks
// the records it staged (before committing them); the build checks the whole catalogue.
import type { Catalogue } from './open-catalogue.ts';

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

interface Check {
  readonly kind: BrokenReference['kind'];
  /** columns: key, field, names, problem */
  readonly sql: string;
}

const CHECKS: readonly Check[] = [
  // The channels no channel row has are found in the channel index alone (videos_by_channel: a scan
  // of the index, not of the table, long descriptions and all), and only their videos read: the same
  // rows as a scan testing each video, in a fifth of the time.
  { kind: 'video', sql: `
    SELECT r.id AS key, 'channel' AS field, 'channel "' || r.channel || '"' AS names, '' AS problem
    FROM videos r WHERE r.channel IN (SELECT v.channel FROM videos v WHERE NOT EXISTS (SELECT 1 FROM channels c WHERE c.username = v.channel))` },
  { kind: 'video', sql: `
    SELECT r.id AS key, 'category' AS field, 'category "' || r.category || '"' AS names, '' AS problem
    FROM videos r WHERE r.category IS NOT NULL AND NOT EXISTS (SELECT 1 FROM categories c WHERE c.id = r.category)` },
  { kind: 'playlist', sql: `
    SELECT r.id AS key, 'channel' AS field, 'channel "' || r.channel || '"' AS names, '' AS problem
    FROM playlists r WHERE NOT EXISTS (SELECT 1 FROM channels c WHERE c.username = r.channel)` },
  { kind: 'playlist', sql: `
    SELECT r.id AS key, 'videos.' || i.position AS field, 'video "' || i.video_id || '"' AS names, '' AS problem
    FROM playlists r JOIN playlist_items i ON i.playlist_id = r.id
    WHERE NOT EXISTS (SELECT 1 FROM videos v WHERE v.id = i.video_id)` },
  { kind: 'live', sql: `
    SELECT r.channel AS key, 'channel' AS field, 'channel "' || r.channel || '"' AS names, '' AS problem
    FROM live_streams r WHERE NOT EXISTS (SELECT 1 FROM channels c WHERE c.username = r.channel)` },
  // likewise through the comments' video index (comments_by_video), each video it names looked up once
  { kind: 'comment', sql: `
    SELECT r.id AS key, 'videoId' AS field, 'video "' || r.video_id || '"' AS names, '' AS problem
    FROM comments r WHERE r.video_id IN (SELECT DISTINCT c.video_id FROM comments c WHERE NOT EXISTS (SELECT 1 FROM videos v WHERE v.id = c.video_id))` },
  { kind: 'comment', sql: `
    SELECT r.id AS key, 'parentId' AS field, 'comment "' || r.parent_id || '"' AS names,
      CASE
        WHEN p.id IS NULL THEN ''
        WHEN p.id = r.id THEN 'the comment itself'
        WHEN p.video_id <> r.video_id THEN 'a comment on another video'
        ELSE 'itself a reply: replies are one level deep'
      END AS problem
    FROM comments r LEFT JOIN comments p ON p.id = r.parent_id
    WHERE r.parent_id IS NOT NULL AND (p.id IS NULL OR p.id = r.id OR p.video_id <> r.video_id OR p.parent_id IS NOT NULL)` },
];

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
      ? `SELECT b.*, s.line FROM (${check.sql}) b JOIN ${STAGED_TABLE} s ON s.kind = '${check.kind}' AND s.key = b.key ORDER BY s.line`
      : `SELECT b.* FROM (${check.sql}) b ORDER BY +b.key`;
    for (const row of db.prepare(sql).iterate()) {
      total++;
      if (found.length < limit) found.push({ kind: check.kind, ...(row as Omit<BrokenReference, 'kind'> & { line?: number }) });
    }
  }
  return { found, total };
}
