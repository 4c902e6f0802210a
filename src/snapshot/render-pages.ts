// The pages of a snapshot, in plan order (plan-pages.ts), each either copied from the served
// snapshot unrendered (its inputs did not change: page-inputs.ts) or rendered by its endpoint's
// handler and written (page-writer.ts takes the variants of a page whose bytes did not change). A
// list's pages are keyed from their paging facts and items, the list answered once for its whole
// chain (list-keys.ts); any other page keyed by its answer is answered first with stand-ins for its
// videos when it may be copied (entries.ts withStandIns: the key needs only which video stands
// where); either is answered for real only when its key changed (docs/architecture.md,
// "Incremental builds").
// Progress lines give the pages done of about the previous snapshot's count (or the plan's estimate
// for a first build), the percentage, the time left (a list page weighing a page of videos:
// build-progress.ts) and how many were copied, reused or compressed.
import type { Context } from '../api/endpoint.ts';
import type { Model } from '../model/build-model.ts';
import { createStandIns, withStandIns } from '../model/entries.ts';
import { createPagesProgress, type PagesExpected } from './build-progress.ts';
import { createListChains } from './list-keys.ts';
import { createAnswerKeys, createListPageKeys, servedVideoKeys, videoKeysOf, type PageInputs, type VideoKeys } from './page-inputs.ts';
import type { PageWriter } from './page-writer.ts';
import { planPages, type PlannedQuery } from './plan-pages.ts';
import { answerPage, renderAnswered, type AnsweredPage, type CheckedBefore } from './render-page.ts';

export interface RenderPagesOptions {
  readonly model: Model;
  readonly baseUrl: string;
  readonly writer: PageWriter;
  /** the input key of every video's pages (page-inputs.ts); the key of every other page is added */
  readonly inputs: Map<string, string>;
  /** videoKeysOf(model, inputs), when the caller has made them (the site files use them too) */
  readonly videoKeys?: VideoKeys | undefined;
  /** the keys the served snapshot recorded, when its pages may be copied */
  readonly previousInputs: PageInputs | undefined;
  /** pages whose bytes were checked before (the served snapshot's), when they may be reused */
  readonly checkedBefore: CheckedBefore | undefined;
  /** the pages expected (the served snapshot's, else estimatePages) and how many are pages of a list, for progress */
  readonly expected: PagesExpected;
  readonly progress: (message: string) => void;
}

/** Renders or copies every planned page into the writer (closed by the caller); how many pages. */
export async function renderPages(options: RenderPagesOptions): Promise<number> {
  const { model, writer, inputs, previousInputs } = options;
  const context: Context = { model, snapshot: undefined, liveStreams: () => model.live };
  const videoKeys = options.videoKeys ?? videoKeysOf(model, inputs);
  const answerKey = createAnswerKeys(model, inputs, options.baseUrl, videoKeys);
  // each video's stand-in made once for all the list pages that name it (entries.ts StandIns)
  const standIns = previousInputs === undefined ? undefined : createStandIns(model.entries.length);
  // a build that may copy list pages keys them by chain (list-keys.ts); a full build answers each
  // page once, for real, and keys that answer (no stand-ins, no pieces kept: its memory is main's)
  const listChain = previousInputs === undefined ? undefined : createListChains({ context, standIns, answerKey, pageKey: createListPageKeys(model, inputs, options.baseUrl, videoKeys) });
  const unchanged = (key: string, now: string | undefined) => previousInputs !== undefined && now !== undefined && previousInputs.get(key) === now;
  // the served keys of the videos, walked in the plan's order of videos (page-inputs.ts servedVideoKeys)
  const servedKeyOf = previousInputs === undefined ? undefined : servedVideoKeys(previousInputs);
  // a video's three pages are planned one after the other, with the same group: its keys are compared
  // once, its key now taken by its entry's place (the same as by group name: videoKeysOf), the
  // served one by its place among the served videos
  let lastGroup: string | number | undefined;
  let lastUnchanged = false;
  const groupUnchanged = (planned: PlannedQuery & { group: string }): boolean => {
    const video = planned.video;
    if (video === undefined ? planned.group !== lastGroup : video !== lastGroup) {
      lastGroup = video ?? planned.group;
      if (video === undefined) {
        lastUnchanged = unchanged(planned.group, inputs.get(planned.group));
      } else {
        const now = videoKeys[video];
        lastUnchanged = now !== undefined && servedKeyOf !== undefined && servedKeyOf(model.entries[video]!.video.id) === now;
      }
    }
    return lastUnchanged;
  };
  // a page taken from the served snapshot whose bytes turn out unreadable is rendered after all
  const renderAgain = (key: string) => renderAnswered(answerPage(key, context), context, undefined).rendered;
  const started = performance.now();
  let done = 0;
  let lastReport = started;
  const report = () => {
    const elapsed = (performance.now() - started) / 1000;
    const of = pagesProgress.describe(elapsed);
    const c = writer.counts;
    options.progress(`${done} pages${of}: ${c.copied} copied unrendered, ${c.reused - c.copied} rendered as before, ${c.compressed} compressed (${(writer.bytes.identity / 1e6).toFixed(0)} MB of JSON)`);
  };
  const pagesProgress = createPagesProgress(options.expected);
  const tick = async (list: boolean) => {
    pagesProgress.page(list);
    // every 256 pages (not every page: the clock too is read then)
    if (++done % 256 === 0) {
      await writer.keepUp();
      if (performance.now() - lastReport > 5000) {
        lastReport = performance.now();
        report();
      }
    }
  };
  for (const planned of planPages(model)) {
    // a list's pages keyed from its paging facts and items, answered (for real) only when changed
    const chain = planned.list === true ? listChain?.(planned.url, planned.pages) : undefined;
    if (chain !== undefined) {
      for (const page of chain) {
        inputs.set(page.url, page.key);
        if (!(unchanged(page.url, page.key) && writer.copy(page.url, renderAgain))) {
          const answered = answerPage(page.url, context);
          if (answered.answer.next !== page.next) throw new Error(`list page ${page.url} links ${answered.answer.next} as next, not ${page.next} as its key says`);
          const rendered = renderAnswered(answered, context, options.checkedBefore);
          writer.write(rendered.key, rendered.rendered);
        }
        await tick(true);
      }
      continue;
    }
    let url: string | undefined = planned.url;
    for (let n = 0; url !== undefined && n < planned.pages; n++) {
      if (planned.group !== undefined && groupUnchanged(planned as PlannedQuery & { group: string }) && writer.copy(url, renderAgain)) {
        url = undefined; // a group's pages are single pages (plan-pages.ts)
      } else {
        // a page keyed by its answer, in a build that may copy it: answered first with stand-ins for
        // its videos (the key needs only their input keys), answered again for real if it changed
        const keyOnly = planned.group === undefined && previousInputs !== undefined;
        const at: string = url;
        const answered: AnsweredPage = keyOnly ? withStandIns(() => answerPage(at, context), standIns) : answerPage(at, context);
        if (planned.group === undefined) inputs.set(answered.key, answerKey(answered.answer));
        if (!(planned.group === undefined && unchanged(answered.key, inputs.get(answered.key)) && writer.copy(answered.key, renderAgain))) {
          const page = renderAnswered(keyOnly ? answerPage(at, context) : answered, context, options.checkedBefore);
          writer.write(page.key, page.rendered);
        }
        url = answered.answer.next;
      }
      await tick(planned.list === true);
    }
  }
  report();
  return done;
}
