// A connection to the catalogue database for request-time reads (live state, keys, alerts) and
// writes (usage), that follows the file: when the catalogue is replaced by a new file at the same
// path (seed, restore), the next use opens the new one. Opening waits for the first use, so a
// server can start before the catalogue exists.
import { statSync } from 'node:fs';
import { openCatalogue, type Catalogue } from '../catalogue/open-catalogue.ts';

export interface CatalogueConnection {
  /** Runs `work` on the current file; throws (and drops the connection) when it cannot be used. */
  use<T>(work: (db: Catalogue) => T): T;
  close(): void;
}

export function followCatalogue(path: string, options: { readonly: boolean }): CatalogueConnection {
  let db: Catalogue | undefined;
  let inode: number | undefined;
  const drop = () => {
    try { db?.close(); } catch { /* already unusable */ }
    db = undefined;
  };
  return {
    use(work) {
      try {
        const ino = statSync(path).ino;
        if (db && ino !== inode) drop();
        if (!db) {
          db = openCatalogue(path, { readonly: options.readonly });
          inode = ino;
        }
        return work(db);
      } catch (error) {
        drop();
        throw error;
      }
    },
    close: drop,
  };
}
