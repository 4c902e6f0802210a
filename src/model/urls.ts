// Absolute URLs of this deployment, all under PUBLIC_BASE_URL (docs/api-contract.md §1).
export interface Urls {
  readonly base: string;
  watch(videoId: string): string;
  embed(videoId: string): string;
  channel(username: string): string;
  thumbnail(videoId: string): string;
  avatar(name: string): string;
  playlistThumbnail(playlistId: string): string;
  /** a channel's live page, its player and picture */
  live(username: string): string;
  liveEmbed(username: string): string;
  liveThumbnail(username: string): string;
  api(pathAndQuery: string): string;
  /** a media file's URL: absolute ones as given, paths of this deployment (`/media/...`) under the base */
  media(urlOrPath: string): string;
}

export function createUrls(baseUrl: string): Urls {
  const base = baseUrl.replace(/\/+$/, '');
  const seg = encodeURIComponent;
  return {
    base,
    watch: (id) => `${base}/watch/${seg(id)}`,
    embed: (id) => `${base}/embed/${seg(id)}`,
    channel: (username) => `${base}/channels/${seg(username)}`,
    thumbnail: (id) => `${base}/thumbnails/${seg(id)}.svg`,
    avatar: (name) => `${base}/avatars/${seg(name)}.svg`,
    playlistThumbnail: (id) => `${base}/thumbnails/playlists/${seg(id)}.svg`,
    live: (username) => `${base}/channels/${seg(username)}/live`,
    liveEmbed: (username) => `${base}/embed/live/${seg(username)}`,
    liveThumbnail: (username) => `${base}/thumbnails/live/${seg(username)}.svg`,
    api: (pathAndQuery) => `${base}${pathAndQuery}`,
    media: (urlOrPath) => (urlOrPath.startsWith('/') ? `${base}${urlOrPath}` : urlOrPath),
  };
}

/** A readable avatar name for a commenter without a username: `Viewer 2280` → `viewer-2280`. */
export function avatarNameFor(displayName: string): string {
  const slug = displayName.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60);
  return slug === '' ? 'viewer' : slug;
}
