// Published comments as the model keeps them (docs/architecture.md, "One representation per video"):
// what is each comment's own; its video and thread are known from where it is kept, and the API
// resources are made from it when shown (resources.ts, toThread and toReply).
import type { PublicComment } from '../catalogue/public-catalogue.ts';

/** A published comment as the model keeps it: what is its own (its video and thread are known from where it is kept). */
export interface StoredComment {
  readonly id: string;
  /** as the catalogue gives it (its avatar URL is derived when shown); one object per distinct author, shared by their comments */
  readonly author: PublicComment['author'];
  readonly text: string;
  readonly likes: number;
  readonly publishedAt: string;
}

/** A top-level comment with its replies, oldest first (NO_REPLIES when it has none). */
export interface StoredThread extends StoredComment {
  readonly replies: readonly StoredComment[];
}

/** The replies of every thread without any: one array, not one each. */
export const NO_REPLIES: readonly StoredComment[] = Object.freeze([]);

