// The URL of a request as the pipeline reads it: origin-form as sent, or the path and query of an
// absolute-form target (RFC 9112 §3.2.2, as some proxies send it), which then replaces `req.url`.
import type { IncomingMessage } from 'node:http';

/** The request's URL (path and query; the host is a placeholder), or undefined when the target is not a valid one. */
export function readRequestUrl(req: IncomingMessage): URL | undefined {
  const rawUrl = req.url ?? '/';
  try {
    if (!rawUrl.startsWith('/')) {
      const absolute = new URL(rawUrl);
      if (!/^https?:$/.test(absolute.protocol)) return undefined;
      req.url = absolute.pathname + absolute.search;
    }
    // Joined, not resolved: a target like `//v1/x` is a path here, not a host.
    return new URL(`http://origin.invalid${req.url ?? '/'}`);
  } catch {
    return undefined;
  }
}
