// /sdk.js: a classic script defining the one global `VideoPlatform` (esbuild's IIFE globalName).
import { recordScriptUrl } from './origin.ts';

recordScriptUrl(document.currentScript instanceof HTMLScriptElement ? document.currentScript.src : undefined);

export * from './index.ts';
