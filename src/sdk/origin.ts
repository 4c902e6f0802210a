// Where the service is, when a caller does not say: the origin the SDK itself was loaded from,
// recorded by the entry point (document.currentScript for /sdk.js, import.meta.url for /sdk.mjs).

let loadedFrom: string | undefined;

export function recordScriptUrl(url: string | undefined): void {
  if (!url) return;
  try {
    loadedFrom = new URL(url).origin;
  } catch {
    // not a URL we can use: callers must give baseUrl
  }
}

export function defaultBaseUrl(): string {
  if (loadedFrom === undefined) throw new TypeError('baseUrl is required: the SDK could not tell where it was loaded from');
  return loadedFrom;
}
