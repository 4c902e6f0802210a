// What a build is made from: the catalogue's public records, checked (check-catalogue.ts names the
// record and field that would break the site; only the records changed since the served snapshot's
// mark when there is one), its revision, and where its change log stands with
// the records changed since the served snapshot's mark (change-log.ts), read in one transaction.
import { readChangeLogMark, readChangesSince, type ChangeLogMark, type ChangesSince } from '../catalogue/change-log.ts';
import { checkCatalogue } from '../catalogue/check-catalogue.ts';
import { openCatalogue } from '../catalogue/open-catalogue.ts';
import type { PublicCatalogue } from '../catalogue/public-catalogue.ts';
import { readCatalogue } from '../catalogue/read-catalogue.ts';
import { readRevision } from '../catalogue/revision.ts';
import { keepAsStored } from '../model/build-model.ts';
import { TextPool } from '../model/stored-video.ts';

export interface BuildInput {
  readonly catalogue: PublicCatalogue;
  readonly revision: string;
  /** where the change log stood when the records were read (undefined: the catalogue has none) */
  readonly changeLog: ChangeLogMark | undefined;
  /** the records changed since `since`, as the log says, or why it cannot be trusted */
  readonly changed: ChangesSince;
}

/** `since`: the mark the served snapshot was built from (built-from.json), when it may be reused. */
export function readBuildInput(file: string, since?: ChangeLogMark): BuildInput {
  const db = openCatalogue(file, { readonly: true });
  try {
    // each video stored as the build's model keeps it, its description in this pool from the read on (read-catalogue.ts keepVideo)
    const keepVideo = keepAsStored(new TextPool());
    return db.transaction(() => {
      const changed: ChangesSince = since ? readChangesSince(db, since) : { none: 'no mark of the change log is recorded beside the served snapshot (built-from.json)' };
      // the served snapshot's build checked the catalogue as it stood at the mark: only what changed since is checked again
      checkCatalogue(db, changed.changes);
      return { catalogue: readCatalogue(db, { keepVideo }), revision: readRevision(db), changeLog: readChangeLogMark(db), changed };
    })();
  } finally {
    db.close();
  }
}
