// Path keys and the resources they name: a key of the wrong shape and a key that names nothing
// visible get the same 404 problem, naming the key.
import { describe, expect, it } from 'vitest';
import { findChannel, findPlaylist, findVideo, readKey } from '../../../../src/api/handlers/lookup.ts';
import { catalogueOf, channel, modelOf, playlist, video } from '../../support/fixtures.ts';
import { problemOf } from '../../support/handlers.ts';

const model = modelOf(catalogueOf({
  channels: [channel('alice')],
  videos: [video('v1'), video('u1', { privacy: 'unlisted' })],
  playlists: [playlist('pl', ['v1']), playlist('pl-unl', ['u1'], { privacy: 'unlisted' })],
}));

describe('readKey', () => {
  it('reads the id of a video or playlist and the username of a channel', () => {
    expect(readKey({ id: 'v1' }, 'video')).toBe('v1');
    expect(readKey({ id: 'pl' }, 'playlist')).toBe('pl');
    expect(readKey({ username: 'alice' }, 'channel')).toBe('alice');
    expect(readKey({ id: 'a.b_c-D9' }, 'video')).toBe('a.b_c-D9');
  });

  it('reads keys starting with a dash or a dot, as platforms issue them', () => {
    expect(readKey({ id: '-OK9i1_YYYc' }, 'video')).toBe('-OK9i1_YYYc');
    expect(readKey({ id: '.x' }, 'playlist')).toBe('.x');
    expect(readKey({ username: '..x' }, 'channel')).toBe('..x');
  });

  it('accepts a key of 128 characters', () => {
    const key = 'k'.repeat(128);
    expect(readKey({ id: key }, 'video')).toBe(key);
  });

  it.each([
    ['that is one dot', '.'],
    ['that is two dots', '..'],
    ['with a tilde', '~x'],
    ['with a slash', 'a/b'],
    ['with a space', 'a b'],
    ['with a trailing newline', 'abc\n'],
    ['of 129 characters', 'k'.repeat(129)],
    ['empty', ''],
  ])('answers 404 for a key %s, naming it', (_, key) => {
    const error = problemOf(() => readKey({ id: key }, 'playlist'));
    expect(error.status).toBe(404);
    expect(error.slug).toBe('not-found');
    expect(error.message).toBe(`No public or unlisted playlist has the id "${key}".`);
  });

  it('answers 404 when the path has no key of that kind', () => {
    expect(problemOf(() => readKey({ id: 'alice' }, 'channel')).message).toBe('No public channel has the username "".');
  });

  it('names at most 200 characters of a long key', () => {
    const key = `${'a'.repeat(200)}${'Z'.repeat(100)}`;
    const error = problemOf(() => readKey({ username: key }, 'channel'));
    expect(error.status).toBe(404);
    expect(error.message).toBe(`No public channel has the username "${'a'.repeat(200)}".`);
    expect(error.message).not.toContain('Z');
  });
});

describe('findVideo, findChannel, findPlaylist', () => {
  it('find public and unlisted resources', () => {
    expect(findVideo(model, 'v1').video.id).toBe('v1');
    expect(findVideo(model, 'u1').video.privacy).toBe('unlisted');
    expect(findChannel(model, 'alice').channel.username).toBe('alice');
    expect(findPlaylist(model, 'pl').playlist.id).toBe('pl');
    expect(findPlaylist(model, 'pl-unl').playlist.privacy).toBe('unlisted');
  });

  it('answer 404 naming an unknown key', () => {
    expect(problemOf(() => findVideo(model, 'nope')).message).toBe('No public video has the id "nope".');
    expect(problemOf(() => findChannel(model, 'nobody')).message).toBe('No public channel has the username "nobody".');
    expect(problemOf(() => findPlaylist(model, 'nolist')).message).toBe('No public or unlisted playlist has the id "nolist".');
  });

  it('match keys exactly, case included', () => {
    expect(problemOf(() => findChannel(model, 'Alice')).status).toBe(404);
    expect(problemOf(() => findVideo(model, 'V1')).status).toBe(404);
  });
});
