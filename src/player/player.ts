// The hosted player's script (/embed/{id}): turns the page's <video> into a player with its own
// keyboard-accessible controls (quality, captions, calm audio, 3D, theater, picture-in-picture,
// full screen), applies the embed URL's options, and speaks the postMessage protocol
// (protocol.ts) with the page that embeds it. No framework; the page works without it too, with
// the browser's own controls.
import type { PlayerConfig } from './config.ts';
import {
  isProtocolMessage, PROTOCOL, PROTOCOL_VERSION,
  type CommandMessage, type EventMessage, type PlayerErrorInfo, type PlayerEventName, type PlayerMode, type PlayerState, type ResponseMessage,
} from './protocol.ts';

class PlayerError extends Error {
  readonly info: PlayerErrorInfo;
  constructor(info: PlayerErrorInfo) {
    super(info.message);
    this.info = info;
  }
}
const badCommand = (message: string) => new PlayerError({ code: 'bad-command', message });

const config = JSON.parse(document.getElementById('player-config')!.textContent!) as PlayerConfig;
/** absent on the page of a video that cannot play */
const root = document.querySelector<HTMLElement>('.player');
const video = root?.querySelector('video') ?? null;
const find = <T extends Element>(selector: string) => root?.querySelector<T>(selector) ?? null;
const eventTarget = config.options.origin ?? '*';

let quality = config.quality ?? null;
let captions: string | null = null;
let theater = false;
/** events other than errors wait for `ready`: the options applied at start are not changes */
let ready = false;

const clockOf = (seconds: number) => {
  const s = Math.max(0, Math.floor(seconds));
  const hms = [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60];
  return (hms[0] ? `${hms[0]}:${String(hms[1]).padStart(2, '0')}` : String(hms[1])) + `:${String(hms[2]).padStart(2, '0')}`;
};

const duration = () => (video && Number.isFinite(video.duration) ? video.duration : config.duration);

function mode(): PlayerMode {
  if (document.fullscreenElement) return 'fullscreen';
  if (video && document.pictureInPictureElement === video) return 'pip';
  return theater ? 'theater' : 'inline';
}

function state(): PlayerState {
  return {
    videoId: config.videoId,
    currentTime: video?.currentTime ?? 0,
    duration: duration(),
    paused: video?.paused ?? true,
    ended: video?.ended ?? false,
    muted: video?.muted ?? false,
    volume: video?.volume ?? 1,
    quality,
    qualities: [...new Set(config.sources.map((s) => s.quality))],
    captions,
    mode: mode(),
  };
}

function emit(event: PlayerEventName, error?: PlayerErrorInfo): void {
  if (window.parent === window || (!ready && event !== 'ready' && event !== 'error')) return;
  const message: EventMessage = { protocol: PROTOCOL, version: PROTOCOL_VERSION, kind: 'event', event, state: state(), ...(error && { error }) };
  window.parent.postMessage(message, eventTarget);
}

// ---- commands from the embedding page -----------------------------------------------------------

async function play(): Promise<void> {
  try {
    await video!.play();
  } catch (error) {
    if ((error as Error).name === 'NotAllowedError') {
      throw new PlayerError({ code: 'play-blocked', message: 'The browser blocked playback with sound: mute first, or play after a click on the page.' });
    }
    throw new PlayerError({ code: 'media', message: `The media could not play: ${(error as Error).message}` });
  }
}

function seek(time: number): void {
  if (!Number.isFinite(time) || time < 0) throw badCommand('seek needs a time in seconds, 0 or more');
  const end = duration();
  video!.currentTime = end > 0 ? Math.min(time, end) : time;
}

function setVolume(volume: number): void {
  if (!Number.isFinite(volume) || volume < 0 || volume > 1) throw badCommand('volume needs a number from 0 to 1');
  video!.volume = volume;
}

function setQuality(label: string): void {
  const candidates = config.sources.filter((s) => s.quality === label);
  if (candidates.length === 0) throw badCommand(`quality must be one of ${state().qualities.join(', ')}`);
  const source = candidates.find((s) => video!.canPlayType(s.type) !== '') ?? candidates[0]!;
  if (label === quality) return;
  const v = video!;
  const at = v.currentTime;
  const playing = !v.paused;
  quality = label;
  v.src = source.url;
  if (at > 0 || playing) {
    v.preload = 'auto';
    v.addEventListener('loadedmetadata', () => {
      v.currentTime = at;
      if (playing) void v.play().catch(() => {});
    }, { once: true });
  }
  const select = find<HTMLSelectElement>('[data-control=quality]');
  if (select) select.value = label;
  emit('qualitychange');
}

function setCaptions(lang: string | null): void {
  if (lang !== null && !config.captions.some((c) => c.lang === lang)) {
    throw badCommand(config.captions.length === 0 ? 'this video has no caption files' : `captions must be null or one of ${config.captions.map((c) => c.lang).join(', ')}`);
  }
  for (const track of Array.from(video!.textTracks)) track.mode = track.language === lang ? 'showing' : 'disabled';
  const changed = captions !== lang;
  captions = lang;
  const select = find<HTMLSelectElement>('[data-control=captions]');
  if (select) select.value = lang ?? '';
  if (changed) emit('captionschange');
}

async function run(message: CommandMessage): Promise<void> {
  if (config.unavailable) throw new PlayerError(config.unavailable);
  switch (message.command) {
    case 'state': return;
    case 'play': return play();
    case 'pause': video!.pause(); return;
    case 'seek': return seek(Number(message.time));
    case 'mute': video!.muted = true; return;
    case 'unmute': video!.muted = false; return;
    case 'volume': return setVolume(Number(message.volume));
    case 'quality': return setQuality(String(message.quality));
    case 'captions': return setCaptions(message.lang === null ? null : String(message.lang));
    default: throw badCommand(`unknown command ${JSON.stringify((message as { command?: unknown }).command)}`);
  }
}

window.addEventListener('message', (event) => {
  const data: unknown = event.data;
  if (!isProtocolMessage(data) || typeof (data as Partial<CommandMessage>).command !== 'string' || !event.source) return;
  // With an `origin` option, only that page may steer the player or read its state.
  if (config.options.origin !== undefined && event.origin !== config.options.origin) return;
  const message = data as CommandMessage;
  const reply = (error?: PlayerErrorInfo) => {
    const response: ResponseMessage = { protocol: PROTOCOL, version: PROTOCOL_VERSION, kind: 'response', id: message.id, ok: !error, state: state(), ...(error && { error }) };
    // only the page that asked hears the answer
    (event.source as Window).postMessage(response, event.origin === 'null' ? '*' : event.origin);
  };
  run(message).then(() => reply(), (error: unknown) => reply(error instanceof PlayerError ? error.info : { code: 'bad-command', message: String(error) }));
});

// ---- the control bar ----------------------------------------------------------------------------

function toggleFullscreen(): void {
  if (document.fullscreenElement) void document.exitFullscreen();
  else void root!.requestFullscreen().catch(() => {});
}

function togglePip(): void {
  if (document.pictureInPictureElement) void document.exitPictureInPicture();
  else void video!.requestPictureInPicture().catch(() => {});
}

function setPressed(control: string, on: boolean): void {
  find(`[data-control=${control}]`)?.setAttribute('aria-pressed', String(on));
}

/** Calm audio: the sound through a compressor and a high-shelf cut, softening sudden loud and sharp sounds. */
let calm: { context: AudioContext; source: MediaElementAudioSourceNode; input: AudioNode } | undefined;
function toggleCalm(): void {
  const on = find('[data-control=calm]')?.getAttribute('aria-pressed') !== 'true';
  if (!calm) {
    const context = new AudioContext();
    const source = context.createMediaElementSource(video!);
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
  const on = !root!.classList.contains('stereo');
  root!.classList.toggle('stereo', on);
  setPressed('stereo', on);
}

function toggleTheater(): void {
  theater = !theater;
  setPressed('theater', theater);
  emit('modechange');
}

const togglePlay = () => (video!.paused ? void play().catch((e: PlayerError) => emit('error', e.info)) : video!.pause());

function render(): void {
  const v = video!;
  const playing = !v.paused;
  root!.dataset['state'] = playing ? 'playing' : 'paused';
  const playButton = find<HTMLButtonElement>('[data-control=play]');
  if (playButton) playButton.setAttribute('aria-label', playing ? 'Pause' : 'Play');
  const muteButton = find<HTMLButtonElement>('[data-control=mute]');
  if (muteButton) muteButton.setAttribute('aria-label', v.muted ? 'Unmute' : 'Mute');
  root!.dataset['muted'] = String(v.muted);
  const volume = find<HTMLInputElement>('[data-control=volume]');
  if (volume) volume.value = String(v.muted ? 0 : v.volume);
  renderTime();
}

let dragging = false;
function renderTime(): void {
  const v = video!;
  const end = duration();
  const time = find('[data-control=time]');
  if (time) time.textContent = `${clockOf(v.currentTime)} / ${clockOf(end)}`;
  const seekBar = find<HTMLInputElement>('[data-control=seek]');
  if (seekBar && !dragging) {
    seekBar.max = String(end || 0);
    seekBar.value = String(v.currentTime);
    seekBar.setAttribute('aria-valuetext', `${clockOf(v.currentTime)} of ${clockOf(end)}`);
  }
}

function wireControls(v: HTMLVideoElement): void {
  const on = (control: string, type: string, handler: (e: Event) => void) => find(`[data-control=${control}]`)?.addEventListener(type, handler);
  on('play', 'click', togglePlay);
  on('mute', 'click', () => { v.muted = !v.muted; });
  on('volume', 'input', (e) => {
    v.volume = Number((e.target as HTMLInputElement).value);
    v.muted = v.volume === 0;
  });
  on('seek', 'input', (e) => {
    dragging = true;
    v.currentTime = Number((e.target as HTMLInputElement).value);
  });
  on('seek', 'change', () => { dragging = false; });
  on('quality', 'change', (e) => setQuality((e.target as HTMLSelectElement).value));
  on('captions', 'change', (e) => setCaptions((e.target as HTMLSelectElement).value || null));
  on('calm', 'click', toggleCalm);
  on('stereo', 'click', toggleStereo);
  on('theater', 'click', toggleTheater);
  on('fullscreen', 'click', toggleFullscreen);
  const pip = find<HTMLButtonElement>('[data-control=pip]');
  if (pip) pip.hidden = !document.pictureInPictureEnabled;
  on('pip', 'click', togglePip);
  v.addEventListener('click', togglePlay);

  document.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const target = e.target as HTMLElement;
    const tag = target.tagName;
    const inField = tag === 'INPUT' || tag === 'SELECT';
    // on the seek bar, arrows seek by 5 s as everywhere else, not by the slider's own step
    const onSeekBar = target.dataset['control'] === 'seek';
    switch (e.key) {
      case ' ':
        if (inField || tag === 'BUTTON') return;
        togglePlay();
        break;
      case 'k': case 'K': togglePlay(); break;
      case 'm': case 'M': v.muted = !v.muted; break;
      case 'f': case 'F': toggleFullscreen(); break;
      case 'c': case 'C': setCaptions(captions === null ? config.captions[0]?.lang ?? null : null); break;
      case 'ArrowLeft': case 'ArrowRight':
        if (inField && !onSeekBar) return;
        seek(Math.max(0, v.currentTime + (e.key === 'ArrowLeft' ? -5 : 5)));
        break;
      case 'ArrowUp': case 'ArrowDown':
        if (inField) return;
        v.volume = Math.min(1, Math.max(0, Math.round((v.volume + (e.key === 'ArrowUp' ? 0.1 : -0.1)) * 10) / 10));
        v.muted = false;
        break;
      default: return;
    }
    e.preventDefault();
  });
}

function start(v: HTMLVideoElement): void {
  const { options } = config;
  v.controls = false;
  find('.bar')?.removeAttribute('hidden');
  if (!options.controls) root!.classList.add('bare');
  v.loop = options.loop;
  if (options.muted || options.autoplay) v.muted = true;
  if (options.start > 0) v.currentTime = options.start;
  const wanted = options.captions;
  setCaptions(wanted !== undefined && config.captions.some((c) => c.lang === wanted) ? wanted : null);

  for (const type of ['play', 'pause', 'ended', 'seeked', 'volumechange'] as const) {
    v.addEventListener(type, () => { render(); emit(type); });
  }
  v.addEventListener('timeupdate', () => { renderTime(); emit('timeupdate'); });
  v.addEventListener('durationchange', renderTime);
  v.addEventListener('error', () => emit('error', { code: 'media', message: `The media failed to load (${v.error?.message || `error ${v.error?.code ?? 'unknown'}`}).` }));
  const modeChanged = () => emit('modechange');
  document.addEventListener('fullscreenchange', modeChanged);
  v.addEventListener('enterpictureinpicture', modeChanged);
  v.addEventListener('leavepictureinpicture', modeChanged);
  wireControls(v);
  render();
  ready = true;
  emit('ready');
  if (options.autoplay) void play().catch((e: PlayerError) => emit('error', e.info));
}

if (config.unavailable || !video) {
  emit('error', config.unavailable ?? { code: 'no-media', message: 'This video has no playable media.' });
} else {
  start(video);
}
