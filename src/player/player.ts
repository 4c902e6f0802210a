// The hosted player (/embed/{id}): createPlayer turns the page's <video> into a player with its own
// keyboard-accessible controls (quality, speed, captions, chapters, calm audio, 3D, theater,
// picture-in-picture, full screen), applies the embed URL's options, and speaks the postMessage
// protocol (protocol.ts) with the page that embeds it. All its state lives in the closure; the
// decisions are pure helpers (check-command, shortcuts, chapters, buffered, clock) tested alone.
// Commands (from the page, the controls and the keyboard) run one at a time in the order they
// came (command-queue.ts). No framework; the page works without it too, with the browser's own
// controls.
import { findChapter, placeMarkers } from './chapters.ts';
import { checkCommand } from './check-command.ts';
import { formatClock } from './clock.ts';
import { createCommandQueue } from './command-queue.ts';
import { buildPlayerConfig, qualityLabels, type PlayerConfig } from './config.ts';
import { measureBuffered } from './buffered.ts';
import { openChannel, type PlayerChannel } from './messaging.ts';
import { PlayerError } from './player-error.ts';
import {
  PLAYBACK_RATES,
  type LoadRange, type PlayerCommand, type PlayerErrorInfo, type PlayerEventName, type PlayerMode, type PlayerState,
} from './protocol.ts';
import { findShortcut, stepVolume } from './shortcuts.ts';

export interface PlayerHandle {
  state(): PlayerState;
  /** checks and carries out a command, in order after those before it */
  command(message: Readonly<Record<string, unknown>>): Promise<unknown>;
  destroy(): void;
}

/** How long a source switch waits for the new media's metadata before going on without it. */
const METADATA_WAIT_MS = 10_000;

const waitForMetadata = (video: HTMLVideoElement) => new Promise<void>((resolve) => {
  const done = () => {
    clearTimeout(timer);
    video.removeEventListener('loadedmetadata', done);
    video.removeEventListener('error', done);
    resolve();
  };
  const timer = setTimeout(done, METADATA_WAIT_MS);
  video.addEventListener('loadedmetadata', done);
  video.addEventListener('error', done);
});

export function createPlayer(root: HTMLElement, video: HTMLVideoElement, initial: PlayerConfig, channel?: PlayerChannel): PlayerHandle {
  const doc = root.ownerDocument;
  const win = doc.defaultView ?? window;
  const find = <T extends Element>(selector: string) => root.querySelector<T>(selector);
  const queue = createCommandQueue();
  const cleanups: (() => void)[] = [];
  const listen = (target: EventTarget | null, type: string, handler: (e: Event) => void) => {
    if (!target) return;
    target.addEventListener(type, handler);
    cleanups.push(() => target.removeEventListener(type, handler));
  };

  let config = initial;
  let quality = config.quality ?? null;
  let captions: string | null = null;
  let theater = false;
  let chapter: number | null = null;
  let buffering = false;
  /** `end` reached: paused there, reported as ended */
  let endReached = false;
  let dragging = false;
  /** events other than errors wait for `ready`: the options applied at start are not changes */
  let ready = false;
  let calm: { context: AudioContext; source: MediaElementAudioSourceNode; input: AudioNode } | undefined;

  const duration = () => (Number.isFinite(video.duration) && video.duration > 0 ? video.duration : config.duration);

  function mode(): PlayerMode {
    if (doc.fullscreenElement) return 'fullscreen';
    if (doc.pictureInPictureElement === video) return 'pip';
    return theater ? 'theater' : 'inline';
  }

  function state(): PlayerState {
    return {
      videoId: config.videoId,
      currentTime: video.currentTime,
      duration: duration(),
      paused: video.paused,
      ended: video.ended || endReached,
      buffering,
      buffered: measureBuffered(video.buffered, video.currentTime, duration()),
      muted: video.muted,
      volume: video.volume,
      rate: video.playbackRate,
      rates: PLAYBACK_RATES,
      quality,
      qualities: qualityLabels(config),
      captions,
      textTracks: config.captions.map(({ lang, label }) => ({ lang, label })),
      chapter,
      mode: mode(),
    };
  }

  const messages = channel ?? openChannel(win, config.options.origin, { answer: (message) => command(message), state });
  function emit(event: PlayerEventName, error?: PlayerErrorInfo): void {
    if (!ready && event !== 'ready' && event !== 'error') return;
    messages.emit(event, state(), error);
  }
  const reportError = (error: unknown) => emit('error', error instanceof PlayerError ? error.info : { code: 'media', message: String(error) });

  // ---- what commands do -------------------------------------------------------------------------

  async function play(): Promise<void> {
    if (endReached) seek(config.options.start);
    try {
      await video.play();
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'AbortError') return; // a pause or a new source came first: they win
      if (name === 'NotAllowedError') {
        throw new PlayerError({ code: 'play-blocked', message: 'The browser blocked playback with sound: mute first, or play after a click on the page.' });
      }
      throw new PlayerError({ code: 'media', message: `The media could not play: ${(error as Error).message}` });
    }
  }

  /** Plays as autoplay does: a refusal is an `autoplayblocked` event, not an error. */
  const autoplay = () => play().catch((error: unknown) => {
    if (error instanceof PlayerError && error.info.code === 'play-blocked') emit('autoplayblocked');
    else reportError(error);
  });

  function seek(time: number): void {
    const end = duration();
    const to = end > 0 ? Math.min(time, end) : time;
    if (config.options.end === undefined || to < config.options.end) endReached = false;
    video.currentTime = to;
    // media not loaded yet (preload="none") fires no `seeked` until it loads: show the new position now
    if (ready) {
      renderTime();
      renderChapter();
    }
  }

  function setRate(rate: number): void {
    video.defaultPlaybackRate = rate; // kept across source switches, which reset playbackRate to it
    video.playbackRate = rate;
  }

  /** Points the media at `url`, waits for its metadata, then restores the position and play state. */
  async function replaceSource(url: string, at: number, playing: boolean): Promise<void> {
    for (const source of Array.from(video.querySelectorAll('source'))) source.remove();
    video.preload = 'auto';
    video.src = url;
    await waitForMetadata(video);
    if (at > 0) seek(at);
    if (playing) void video.play().catch(() => {});
  }

  const pickSource = (label: string) => {
    const candidates = config.sources.filter((s) => s.quality === label);
    return candidates.find((s) => video.canPlayType(s.type) !== '') ?? candidates[0];
  };

  async function setQuality(label: string): Promise<void> {
    const source = pickSource(label);
    if (!source || label === quality) return;
    quality = label;
    renderMenus();
    await replaceSource(source.url, video.currentTime, !video.paused);
    emit('qualitychange');
  }

  function setCaptions(lang: string | null): void {
    for (const track of Array.from(video.textTracks)) {
      if (track.kind === 'subtitles' || track.kind === 'captions') track.mode = track.language === lang ? 'showing' : 'disabled';
    }
    const changed = captions !== lang;
    captions = lang;
    const select = find<HTMLSelectElement>('[data-control=captions]');
    if (select) select.value = lang ?? '';
    if (changed) emit('captionschange');
  }

  /** Fetches a resource of the service for `load`/`cue`; undefined when it is not there. */
  async function fetchResource<T>(path: string): Promise<T | undefined> {
    const response = await fetch(`${config.base}${path}`, { headers: { accept: 'application/json' } });
    if (response.status === 404) return undefined;
    if (!response.ok) throw new PlayerError({ code: 'media', message: `The service answered ${response.status} for ${path}.` });
    return ((await response.json()) as { data: T }).data;
  }

  async function loadVideo(videoId: string, range: LoadRange, playNow: boolean): Promise<void> {
    const path = `/v1/videos/${encodeURIComponent(videoId)}`;
    const [facts, playback] = await Promise.all([fetchResource<Parameters<typeof buildPlayerConfig>[0]['video']>(path), fetchResource<Parameters<typeof buildPlayerConfig>[0]['playback']>(`${path}/playback`)]);
    const next = buildPlayerConfig({
      videoId, video: facts, playback, base: config.base,
      options: { ...config.options, start: range.start ?? 0, end: range.end, autoplay: playNow, quality: quality ?? config.options.quality },
    });
    if (next.unavailable) throw new PlayerError(next.unavailable);
    const source = next.quality === undefined ? undefined : next.sources.find((s) => s.quality === next.quality && video.canPlayType(s.type) !== '') ?? next.sources[0];
    if (!source) throw new PlayerError({ code: 'no-media', message: 'This video has no playable media yet.' });
    video.pause();
    config = next;
    quality = next.quality ?? null;
    endReached = false;
    chapter = null;
    video.poster = next.poster ?? '';
    video.setAttribute('aria-label', next.title);
    for (const track of Array.from(video.querySelectorAll('track'))) track.remove();
    for (const c of next.captions) {
      const track = doc.createElement('track');
      Object.assign(track, { kind: 'subtitles', src: c.url, srclang: c.lang, label: c.label });
      video.append(track);
    }
    const keep = captions !== null && next.captions.some((c) => c.lang === captions) ? captions : null;
    captions = null;
    renderMenus();
    await replaceSource(source.url, next.options.start, false);
    setCaptions(keep);
    renderMarkers();
    render();
    emit('loaded');
    if (playNow) void autoplay();
  }

  const modeError = (what: string) => new PlayerError({
    code: 'not-allowed',
    message: `The browser refused ${what}: ask from a click or key press on the page (the SDK passes it on), in an iframe allowed to.`,
  });

  /** Full screen and picture-in-picture run at once, not queued: the browser allows them only during a user gesture. */
  function requestMode(kind: 'fullscreen' | 'pip', on: boolean): Promise<void> {
    if (kind === 'fullscreen') {
      if (!on) return doc.fullscreenElement ? doc.exitFullscreen() : Promise.resolve();
      if (!doc.fullscreenEnabled) return Promise.reject(modeError('full screen'));
      return doc.fullscreenElement ? Promise.resolve() : root.requestFullscreen().catch(() => { throw modeError('full screen'); });
    }
    if (!on) return doc.pictureInPictureElement ? doc.exitPictureInPicture() : Promise.resolve();
    if (!doc.pictureInPictureEnabled) return Promise.reject(modeError('picture-in-picture'));
    return video.requestPictureInPicture().then(() => {}, () => { throw modeError('picture-in-picture'); });
  }

  async function apply(cmd: PlayerCommand): Promise<unknown> {
    switch (cmd.command) {
      case 'state': return undefined;
      case 'chapters': return config.chapters;
      case 'play': return play();
      case 'pause': video.pause(); return undefined;
      case 'stop':
        video.pause();
        seek(config.options.start);
        return undefined;
      case 'seek': seek(cmd.time); return undefined;
      case 'mute': video.muted = true; return undefined;
      case 'unmute': video.muted = false; return undefined;
      case 'volume': video.volume = cmd.volume; return undefined;
      case 'rate': setRate(cmd.rate); return undefined;
      case 'quality': return setQuality(cmd.quality);
      case 'captions': setCaptions(cmd.lang); return undefined;
      case 'load': case 'cue': return loadVideo(cmd.videoId, cmd, cmd.command === 'load');
      case 'fullscreen': case 'pip': return requestMode(cmd.command, cmd.on);
    }
  }

  function command(message: Readonly<Record<string, unknown>>): Promise<unknown> {
    const cmd = checkCommand(message, { qualities: qualityLabels(config), captions: config.captions.map((c) => c.lang) });
    if (cmd.command === 'fullscreen' || cmd.command === 'pip') return requestMode(cmd.command, cmd.on);
    return queue.run(() => apply(cmd));
  }

  /** A command from the controls or the keyboard: in the same queue; failures become error events. */
  const act = (cmd: PlayerCommand) => { queue.run(() => apply(cmd)).catch(reportError); };
  const togglePlay = () => act(video.paused || endReached ? { command: 'play' } : { command: 'pause' });

  // ---- the control bar ----------------------------------------------------------------------------

  const setPressed = (control: string, on: boolean) => find(`[data-control=${control}]`)?.setAttribute('aria-pressed', String(on));

  /** Calm audio: the sound through a compressor and a high-shelf cut, softening sudden loud and sharp sounds. */
  function toggleCalm(): void {
    const on = find('[data-control=calm]')?.getAttribute('aria-pressed') !== 'true';
    if (!calm) {
      const context = new AudioContext();
      const source = context.createMediaElementSource(video);
      const compressor = new DynamicsCompressorNode(context, { threshold: -36, knee: 24, ratio: 8, attack: 0.01, release: 0.4 });
      const shelf = new BiquadFilterNode(context, { type: 'highshelf', frequency: 3500, gain: -9 });
      compressor.connect(shelf).connect(new GainNode(context, { gain: 0.85 })).connect(context.destination);
      calm = { context, source, input: compressor };
    }
    calm.source.disconnect();
    calm.source.connect(on ? calm.input : calm.context.destination);
    void calm.context.resume();
    setPressed('calm', on);
  }

  function toggleStereo(): void {
    const on = !root.classList.contains('stereo');
    root.classList.toggle('stereo', on);
    setPressed('stereo', on);
  }

  function toggleTheater(): void {
    theater = !theater;
    setPressed('theater', theater);
    emit('modechange');
  }

  const toggleFullscreen = () => void requestMode('fullscreen', !doc.fullscreenElement).catch(() => {});
  const togglePip = () => void requestMode('pip', doc.pictureInPictureElement !== video).catch(() => {});

  function setPanel(open: boolean): void {
    const panel = find<HTMLElement>('.panel');
    if (!panel) return;
    panel.hidden = !open;
    find('[data-control=settings]')?.setAttribute('aria-expanded', String(open));
  }

  const fillSelect = (select: HTMLSelectElement | null, options: readonly { value: string; label: string }[], value: string) => {
    if (!select) return;
    select.replaceChildren(...options.map((o) => new Option(o.label, o.value, false, o.value === value)));
    select.value = value;
    (select.closest('label') ?? select).toggleAttribute('hidden', options.length < 2);
  };

  /** The menus of the settings panel for the current video. */
  function renderMenus(): void {
    fillSelect(find('[data-control=quality]'), qualityLabels(config).map((q) => ({ value: q, label: q })), quality ?? '');
    fillSelect(find('[data-control=captions]'), [{ value: '', label: 'Off' }, ...config.captions.map((c) => ({ value: c.lang, label: c.label }))], captions ?? '');
    fillSelect(find('[data-control=rate]'), PLAYBACK_RATES.map((r) => ({ value: String(r), label: r === 1 ? 'Normal' : `${r}×` })), String(video.playbackRate));
    find('[data-control=calm]')?.toggleAttribute('hidden', !config.features.calm);
    find('[data-control=stereo]')?.toggleAttribute('hidden', !config.features.stereo);
    root.classList.toggle('sbs', config.features.stereo);
  }

  function renderMarkers(): void {
    const holder = find<HTMLElement>('.markers');
    if (!holder) return;
    holder.replaceChildren(...placeMarkers(config.chapters, duration()).map((m) => {
      const mark = doc.createElement('span');
      mark.className = 'marker';
      mark.style.left = `${m.percent}%`;
      mark.title = m.title;
      return mark;
    }));
  }

  function renderChapter(): void {
    const next = findChapter(config.chapters, video.currentTime);
    const label = find('[data-control=chapter]');
    if (label) label.textContent = next === null ? '' : config.chapters[next]!.title;
    if (next === chapter) return;
    chapter = next;
    emit('chapterchange');
  }

  function render(): void {
    const playing = !video.paused;
    root.dataset['state'] = playing ? 'playing' : 'paused';
    find('[data-control=play]')?.setAttribute('aria-label', playing ? 'Pause' : 'Play');
    find('[data-control=mute]')?.setAttribute('aria-label', video.muted ? 'Unmute' : 'Mute');
    root.dataset['muted'] = String(video.muted);
    const volume = find<HTMLInputElement>('[data-control=volume]');
    if (volume) volume.value = String(video.muted ? 0 : video.volume);
    renderTime();
  }

  function renderTime(): void {
    const end = duration();
    const time = find('[data-control=time]');
    if (time) time.textContent = `${formatClock(video.currentTime)} / ${formatClock(end)}`;
    const seekBar = find<HTMLInputElement>('[data-control=seek]');
    if (seekBar && !dragging) {
      seekBar.max = String(end || 0);
      seekBar.value = String(video.currentTime);
      seekBar.setAttribute('aria-valuetext', `${formatClock(video.currentTime)} of ${formatClock(end)}`);
    }
  }

  function wireControls(): void {
    const on = (control: string, type: string, handler: (e: Event) => void) => listen(find(`[data-control=${control}]`), type, handler);
    const valueOf = (e: Event) => (e.target as HTMLInputElement | HTMLSelectElement).value;
    on('play', 'click', togglePlay);
    on('mute', 'click', () => act({ command: video.muted ? 'unmute' : 'mute' }));
    on('volume', 'input', (e) => {
      video.volume = Number(valueOf(e));
      video.muted = video.volume === 0;
    });
    on('seek', 'input', (e) => {
      dragging = true;
      seek(Number(valueOf(e)));
    });
    on('seek', 'change', () => { dragging = false; });
    on('quality', 'change', (e) => act({ command: 'quality', quality: valueOf(e) }));
    on('captions', 'change', (e) => act({ command: 'captions', lang: valueOf(e) || null }));
    on('rate', 'change', (e) => act({ command: 'rate', rate: Number(valueOf(e)) }));
    on('settings', 'click', () => setPanel(find<HTMLElement>('.panel')?.hidden === true));
    on('calm', 'click', toggleCalm);
    on('stereo', 'click', toggleStereo);
    on('theater', 'click', toggleTheater);
    on('fullscreen', 'click', toggleFullscreen);
    find('[data-control=pip]')?.toggleAttribute('hidden', !doc.pictureInPictureEnabled);
    on('pip', 'click', togglePip);
    listen(video, 'click', togglePlay);
    // the bar shows while the pointer moves over the player, then steps aside
    let idle: ReturnType<typeof setTimeout> | undefined;
    listen(root, 'pointermove', () => {
      root.classList.add('active');
      clearTimeout(idle);
      idle = setTimeout(() => root.classList.remove('active'), 2500);
    });
    listen(doc, 'keydown', (e) => {
      const key = e as KeyboardEvent;
      if (key.key === 'Escape' && find<HTMLElement>('.panel')?.hidden === false) {
        setPanel(false);
        (find('[data-control=settings]') as HTMLElement | null)?.focus();
        return;
      }
      if (!config.options.keyboard) return;
      const target = key.target as HTMLElement;
      const shortcut = findShortcut({ key: key.key, altKey: key.altKey, ctrlKey: key.ctrlKey, metaKey: key.metaKey, tag: target.tagName ?? '', onSeekBar: target.dataset?.['control'] === 'seek' });
      if (!shortcut) return;
      switch (shortcut.action) {
        case 'toggle-play': togglePlay(); break;
        case 'toggle-mute': act({ command: video.muted ? 'unmute' : 'mute' }); break;
        case 'toggle-fullscreen': toggleFullscreen(); break;
        case 'toggle-captions': act({ command: 'captions', lang: captions === null ? config.captions[0]?.lang ?? null : null }); break;
        case 'seek-by': act({ command: 'seek', time: Math.max(0, video.currentTime + shortcut.seconds) }); break;
        case 'volume-by':
          video.volume = stepVolume(video.volume, shortcut.step);
          video.muted = false;
          break;
      }
      key.preventDefault();
    });
  }

  function wireMedia(): void {
    const media = (type: string, handler: () => void) => listen(video, type, handler);
    for (const type of ['play', 'pause', 'volumechange'] as const) media(type, () => { render(); emit(type); });
    media('ended', () => { render(); emit('ended'); });
    media('seeking', () => emit('seeking'));
    media('seeked', () => { renderTime(); renderChapter(); emit('seeked'); });
    media('playing', () => { buffering = false; emit('playing'); });
    media('waiting', () => { buffering = true; emit('waiting'); });
    media('progress', () => emit('progress'));
    let reportedRate = video.playbackRate;
    media('ratechange', () => {
      if (video.playbackRate === reportedRate) return; // defaultPlaybackRate changed alongside
      reportedRate = video.playbackRate;
      const select = find<HTMLSelectElement>('[data-control=rate]');
      if (select) select.value = String(video.playbackRate);
      emit('ratechange');
    });
    media('durationchange', () => { renderTime(); renderMarkers(); emit('durationchange'); });
    media('timeupdate', () => {
      const end = config.options.end;
      if (end !== undefined && !endReached && !video.paused && video.currentTime >= end) {
        if (config.options.loop) seek(config.options.start);
        else {
          endReached = true;
          video.pause();
          emit('ended');
        }
      }
      renderTime();
      renderChapter();
      emit('timeupdate');
    });
    media('error', () => emit('error', { code: 'media', message: `The media failed to load (${video.error?.message || `error ${video.error?.code ?? 'unknown'}`}).` }));
    const modeChanged = () => emit('modechange');
    listen(doc, 'fullscreenchange', modeChanged);
    media('enterpictureinpicture', modeChanged);
    media('leavepictureinpicture', modeChanged);
  }

  // ---- start --------------------------------------------------------------------------------------

  const { options } = config;
  video.controls = false;
  find('.bar')?.removeAttribute('hidden');
  if (!options.controls) root.classList.add('bare');
  video.loop = options.loop && options.end === undefined;
  video.playsInline = options.playsinline;
  if (options.muted || options.autoplay) video.muted = true;
  if (options.start > 0) video.currentTime = options.start;
  if (options.rate !== 1) setRate(options.rate);
  const wanted = options.captions;
  setCaptions(wanted !== undefined && config.captions.some((c) => c.lang === wanted) ? wanted : null);
  renderMenus();
  renderMarkers();
  wireMedia();
  wireControls();
  render();
  ready = true;
  emit('ready');
  if (options.autoplay) void autoplay();

  return {
    state,
    command,
    destroy() {
      for (const cleanup of cleanups.splice(0)) cleanup();
      if (!channel) messages.close();
      void calm?.context.close();
    },
  };
}

