// Path keys and the resources they name. A key of the wrong shape and a key that names nothing
// visible get the same 404: private and unknown resources look alike.
import { Key } from '../../catalogue/records.ts';
import type { ChannelEntry } from '../../model/build-channels.ts';
import type { Model, VideoEntry } from '../../model/build-model.ts';
import type { PlaylistEntry } from '../../model/build-playlists.ts';
import { notFound } from '../problems.ts';

const NOUNS = {
  video: ['public video', 'id'],
  channel: ['public channel', 'username'],
  playlist: ['public or unlisted playlist', 'id'],
} as const;

type Kind = keyof typeof NOUNS;

const missing = (kind: Kind, key: string) => notFound(`No ${NOUNS[kind][0]} has the ${NOUNS[kind][1]} "${key.slice(0, 200)}".`);

/** A path's key (`id` or `username`), checked for shape only; whether it exists is the handler's question. */
export function readKey(path: Readonly<Record<string, string>>, kind: Kind): string {
  const key = path[NOUNS[kind][1]] ?? '';
  if (!Key.safeParse(key).success) throw missing(kind, key);
  return key;
}

/** A public or unlisted video, or a 404 problem. */
export function findVideo(model: Model, id: string): VideoEntry {
  const entry = model.videos.get(id);
  if (!entry) throw missing('video', id);
  return entry;
}

/** A channel (every channel is public), or a 404 problem. */
export function findChannel(model: Model, username: string): ChannelEntry {
  const entry = model.channels.get(username);
  if (!entry) throw missing('channel', username);
  return entry;
}

/** A public or unlisted playlist, or a 404 problem. */
export function findPlaylist(model: Model, id: string): PlaylistEntry {
  const entry = model.playlists.get(id);
  if (!entry) throw missing('playlist', id);
  return entry;
}
