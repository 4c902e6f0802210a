// /sdk.mjs: the same SDK as an ES module.
import { recordScriptUrl } from './origin.ts';

recordScriptUrl(import.meta.url);

export * from './index.ts';
