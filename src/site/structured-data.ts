// schema.org structured data for the site's pages beyond the watch page's VideoObject: a live
// page's stream is a VideoObject with a BroadcastEvent (`publication`), as search engines read
// live streams (docs/decisions.md, "Site pages").
import type { LiveChannel } from '../model/schemas.ts';

/** The JSON-LD of a live or upcoming stream; offline channels have none. */
export function broadcastEventOf(stream: LiveChannel, description: string | undefined): Record<string, unknown> {
  const live = stream.state === 'live';
  const start = live ? stream.startedAt : stream.scheduledFor;
  const name = stream.title || `${stream.channel.displayName} live`;
  return {
    '@context': 'https://schema.org',
    '@type': 'VideoObject',
    name,
    description: description?.trim() || `${stream.channel.displayName}, live.`,
    thumbnailUrl: [stream.thumbnailUrl],
    ...(start && { uploadDate: start }),
    embedUrl: stream.embedUrl,
    url: stream.watchUrl,
    author: { '@type': 'Organization', name: stream.channel.displayName, url: stream.channel.channelUrl },
    publication: {
      '@type': 'BroadcastEvent',
      name,
      isLiveBroadcast: true,
      ...(start && { startDate: start }),
      ...(live && stream.viewers !== undefined && {
        interactionStatistic: { '@type': 'InteractionCounter', interactionType: { '@type': 'WatchAction' }, userInteractionCount: stream.viewers },
      }),
    },
  };
}
