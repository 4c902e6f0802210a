// Which Chromium the browser tests drive: CHROMIUM_PATH when set, else Debian's /usr/bin/chromium,
// else the headless Chromium inside the @sparticuz/chromium package (unpacked to /tmp on first
// use), so `npm install && npm test` needs no browser download and no apt.
import { existsSync } from 'node:fs';

export async function chromiumPath(): Promise<string> {
  const given = process.env['CHROMIUM_PATH'];
  if (given) {
    if (!existsSync(given)) throw new Error(`CHROMIUM_PATH is ${given}, but nothing is there.`);
    return given;
  }
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  const { default: bundled } = await import('@sparticuz/chromium');
  return bundled.executablePath();
}
