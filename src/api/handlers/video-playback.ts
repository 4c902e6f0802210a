// GET /v1/videos/{id}/playback: player modes, qualities, sources and feature availability.
import { toPlayback } from '../../model/resources.ts';
import { PlaybackResponse } from '../../model/schemas.ts';
import { findVideo } from './lookup.ts';
import { defineSingleResource } from './single-resource.ts';

export const videoPlayback = defineSingleResource({
  name: 'video-playback',
  path: '/v1/videos/:id/playback',
  kind: 'video',
  response: PlaybackResponse,
  docs: {
    summary: 'Playback capabilities',
    description: 'Player modes, qualities (best first) with their media sources, caption tracks, and the availability of 3D, calm audio and restricted mode.',
    tag: 'Videos',
    mayBeUnlisted: true,
  },
  find({ model }, id) {
    const entry = findVideo(model, id);
    return { data: toPlayback(entry.video, model.urls), unlisted: entry.video.privacy === 'unlisted' };
  },
});
