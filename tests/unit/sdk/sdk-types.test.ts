// /sdk.d.ts as a developer uses it: a consumer compiled with `tsc --strict` against the generated
// declarations alone (no access to the sources), through the global and through the module.
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSdkTypes } from '../../../src/sdk/bundle-sdk-types.ts';

let declarations: string;
beforeAll(() => { declarations = buildSdkTypes(); }, 180_000);

/** Compiles virtual files with --strict against /sdk.d.ts; the diagnostics as "file: message". */
function compile(files: Record<string, string>): string[] {
  const all: Record<string, string> = { '/app/sdk.d.ts': declarations, ...files };
  const options: ts.CompilerOptions = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'], types: [], skipLibCheck: false };
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  const exists = host.fileExists.bind(host);
  const source = host.getSourceFile.bind(host);
  host.readFile = (name) => all[name] ?? read(name);
  host.fileExists = (name) => name in all || exists(name);
  host.getSourceFile = (name, version) => (name in all ? ts.createSourceFile(name, all[name]!, version) : source(name, version));
  host.getCurrentDirectory = () => '/app';
  const program = ts.createProgram(Object.keys(all), options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
}

const GLOBAL_CONSUMER = `/// <reference path="./sdk.d.ts" />
const player: VideoPlatform.Player = VideoPlatform.embed('#player', { videoId: 'abc', muted: true, rate: 1.5, end: 30, keyboard: false });
async function run(): Promise<void> {
  const state: VideoPlatform.PlayerState = await player.ready();
  const rates: readonly number[] = await player.getAvailablePlaybackRates();
  await player.setPlaybackRate(rates[0] ?? 1);
  const chapters: readonly VideoPlatform.ChapterInfo[] = await player.getChapters();
  const tracks = await player.getTextTracks();
  await player.load('def', { start: 5, end: 10 });
  player.once('chapterchange', (s) => console.log(s.chapter, chapters[s.chapter ?? 0]?.title, tracks[0]?.lang, state.quality));
  const client = VideoPlatform.createClient({ timeout: 5000 });
  const video: VideoPlatform.Video = await client.getVideo('abc');
  for await (const item of client.listVideos({ sort: 'trending' }).items()) console.log(item.title.toUpperCase(), video.duration);
  try {
    await client.getVideo('nope');
  } catch (error) {
    if (error instanceof VideoPlatform.ApiError) console.log(error.status, error.problem?.title);
    if (error instanceof VideoPlatform.PlayerError) console.log(error.code);
  }
  // a player whose URL was answered with an error page: ready() rejects with the page's problem
  await player.ready().catch((error: unknown) => {
    if (!(error instanceof VideoPlatform.PlayerError) || error.problem === undefined) return;
    const problem: VideoPlatform.PlayerProblem = error.problem;
    const code: VideoPlatform.PlayerErrorCode | 'timeout' | 'destroyed' = error.code;
    console.log(code === 'bad-option', problem.status.toFixed(0), problem.title, problem.detail, problem.errors?.[0]?.parameter);
  });
  const attached: VideoPlatform.Player[] = VideoPlatform.attachAll();
  attached[0]?.destroy();
  console.log(VideoPlatform.version, VideoPlatform.PLAYER_EVENTS.length);
}
void run();
`;

const MODULE_CONSUMER = `import { attach, createClient, embed, type Player, type PlayerEventName } from 'https://videos.example/sdk.mjs';
const player: Player = embed(document.body, { videoId: 'abc' });
const event: PlayerEventName = 'autoplayblocked';
player.on(event, (state, error) => console.log(state.rate, error?.code));
const other = attach('iframe');
void other.requestFullscreen();
void createClient().search({ q: 'talk' }).then((page) => page.data.length);
`;

describe('/sdk.d.ts', () => {
  it('declares one global namespace and the module, with no import a consumer would have to resolve', () => {
    expect(declarations).toContain('declare namespace VideoPlatform {');
    expect(declarations).toContain("declare module '*/sdk.mjs' {");
    expect(declarations).not.toMatch(/^\s*import /m);
    expect(declarations).not.toMatch(/zod|z\.infer/);
  });

  it('compiles a --strict consumer of the global (/sdk.js) and of the module (/sdk.mjs) without an error', () => {
    expect(compile({ '/app/global.ts': GLOBAL_CONSUMER, '/app/module.ts': MODULE_CONSUMER })).toEqual([]);
  });

  it('catches the mistakes a consumer can make: wrong argument types, unknown events, unknown methods', () => {
    const errors = compile({
      '/app/wrong.ts': `/// <reference path="./sdk.d.ts" />
const player = VideoPlatform.embed('#p', { videoId: 42 });
player.setQuality(720);
player.on('finish', () => {});
player.playVideo();
VideoPlatform.createClient().listVideos({ sort: 'newest' });
`,
    });
    expect(errors.length).toBe(5);
    expect(errors.join('\n')).toMatch(/'number' is not assignable to type 'string'/);
    expect(errors.join('\n')).toMatch(/"finish"/);
    expect(errors.join('\n')).toMatch(/playVideo/);
    expect(errors.join('\n')).toMatch(/"newest"/);
  });

  it('leaves out the protocol\'s internals, which the bundles do not export', () => {
    expect(declarations).not.toMatch(/isProtocolMessage|PROTOCOL_VERSION|CommandMessage/);
  });
});
