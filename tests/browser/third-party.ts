// A third-party web site for the embed tests: a second server on another origin
// (http://localhost:PORT, while the service is http://127.0.0.1:PORT) serving the pages a test
// registers, as a blog embedding the service's player would. Paths under `/hang` never answer.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ThirdParty {
  readonly origin: string;
  /** serves `html` at `path` and returns its URL */
  page(path: string, html: string): string;
  close(): Promise<void>;
}

export async function startThirdParty(): Promise<ThirdParty> {
  const pages = new Map<string, string>();
  const hanging = new Set<import('node:http').ServerResponse>();
  const server: Server = createServer((req, res) => {
    if (req.url?.startsWith('/hang')) {
      hanging.add(res);
      return;
    }
    if (req.url === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    const html = pages.get(req.url ?? '');
    res.writeHead(html === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    page(path, html) {
      pages.set(path, html);
      return origin + path;
    },
    close: () => new Promise((resolve) => {
      for (const res of hanging) res.destroy();
      server.close(() => resolve());
    }),
  };
}
