// The API description as published (/openapi.json, written by npm run build:app), for the pages
// that render it. Read once; undefined when the app has not been built with it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENT_DIR } from '../lib/app-files.ts';
import type { OpenApiDocument } from './build-document.ts';

let published: OpenApiDocument | undefined;

export function publishedDocument(): OpenApiDocument | undefined {
  if (published) return published;
  const file = join(CLIENT_DIR, 'openapi.json');
  if (!existsSync(file)) return undefined;
  return (published = JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument);
}
