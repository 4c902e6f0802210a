import { Key } from '../../catalogue/records.ts';
import type { Model, VideoEntry } from '../../model/build-model.ts';
import { notFound } from '../problems.ts';

/** A path's video id, checked for shape only; whether it exists is the handler's question. */
export function readVideoId(path: Readonly<Record<string, string>>): string {
  const id = path['id'] ?? '';
  if (!Key.safeParse(id).success) throw notFound(`No public video has the id "${id.slice(0, 200)}".`);
  return id;
}

/** A public or unlisted video, or a 404 problem: private and unknown ids look the same. */
export function findVideo(model: Model, id: string): VideoEntry {
  const entry = model.videos.get(id);
  if (!entry) throw notFound(`No public video has the id "${id}".`);
  return entry;
}
