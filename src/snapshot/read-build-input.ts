// What a build is made from: the catalogue's public records, checked (check-catalogue.ts names the
// record and field that would break the site), and its revision, read in one transaction.
//
// The build splits this over two threads (docs/architecture.md, "Reading the catalogue on two
// threads"): this thread reads the records (openBuildInput, unchecked) while a worker thread checks
// the catalogue and reads what trending and related are made from on its own connection
// (derive-on-worker.ts startCheckAndDerive). Each connection reads one snapshot of the file (a
// read transaction); the two are the same snapshot when no connection committed anything from
// before either began until after both had: `PRAGMA data_version`, which changes on a connection
// once another has committed, is read when this reader opens (before the worker starts), inside
// its transaction and once the worker has answered (`unchanged`). When it moved, the build reads
// again the old way, checked and in one transaction (readBuildInput).
import { checkCatalogue } from '../catalogue/check-catalogue.ts';
import { openCatalogue, type Catalogue } from '../catalogue/open-catalogue.ts';
import type { PublicCatalogue } from '../catalogue/public-catalogue.ts';
import { readCatalogue } from '../catalogue/read-catalogue.ts';
import { readRevision } from '../catalogue/revision.ts';

export interface BuildInput {
  readonly catalogue: PublicCatalogue;
  readonly revision: string;
}

/** The catalogue checked and read in one transaction, on this thread. */
export function readBuildInput(file: string): BuildInput {
  const db = openCatalogue(file, { readonly: true });
  try {
    return db.transaction(() => {
      checkCatalogue(db);
      return { catalogue: readCatalogue(db), revision: readRevision(db) };
    })();
  } finally {
    db.close();
  }
}

/** A catalogue opened for a build whose check runs elsewhere (the worker thread). */
export interface BuildInputReader {
  /** the public records and the revision, read in one transaction (once), not checked */
  read(): BuildInput;
  /**
   * Whether no connection committed a change to the file since this reader was opened: then every
   * read transaction begun since (this reader's, the worker's) saw the same catalogue. Ask it
   * after the other reads have begun.
   */
  unchanged(): boolean;
  close(): void;
}

const dataVersion = (db: Catalogue): number => db.pragma('data_version', { simple: true }) as number;

/** Opens the catalogue and notes its data version; open it before any other connection's read begins. */
export function openBuildInput(file: string): BuildInputReader {
  const db = openCatalogue(file, { readonly: true });
  let opened: number;
  try {
    opened = dataVersion(db);
  } catch (error) {
    db.close();
    throw error;
  }
  let movedBeforeRead = false;
  let read = false;
  return {
    read() {
      if (read) throw new Error('the catalogue was already read');
      read = true;
      return db.transaction(() => {
        // the version once this transaction's snapshot is taken (the revision is its first read)
        const revision = readRevision(db);
        movedBeforeRead = dataVersion(db) !== opened;
        return { catalogue: readCatalogue(db), revision };
      })();
    },
    unchanged: () => !movedBeforeRead && dataVersion(db) === opened,
    close: () => db.close(),
  };
}
