// A closed-loop HTTP/1.1 client light enough not to disturb what it measures: one keep-alive
// socket that sends its next GET as soon as the last answer is complete, reading into one reused
// buffer (net's `onread`) and parsing only the status line and Content-Length. node:http's client
// allocated a buffer per read (15 KB answers, thousands a second): that external memory made the
// load generator mark its heap every second, pauses of 10–45 ms counted as the server's latency.
import { connect } from 'node:net';

const HEAD_END = Buffer.from('\r\n\r\n');
const LENGTH = /\r\ncontent-length:[ \t]*(\d+)/i;

export interface Answered {
  readonly path: string;
  readonly status: number;
  readonly ms: number;
}

/**
 * Sends `next()` paths one after another on one connection to 127.0.0.1:`port` until `until`
 * (performance.now() time), calling `answered` for each answer.
 */
export function runLightClient(port: number, next: () => string, until: number, answered: (a: Answered) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let path = '';
    let started = 0;
    let head = ''; // a head split across reads, as text
    let remaining = 0; // body bytes still to come
    let status = 0;
    const send = () => {
      if (performance.now() >= until) {
        socket.end();
        resolve();
        return;
      }
      path = next();
      started = performance.now();
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    };
    const headRead = (text: string) => {
      status = Number(text.slice(9, 12));
      remaining = Number(LENGTH.exec(text)?.[1] ?? 0);
    };
    const complete = () => {
      answered({ path, status, ms: performance.now() - started });
      send();
    };
    const consume = (buffer: Buffer, n: number) => {
      let at = 0;
      while (at < n) {
        if (remaining > 0) {
          const take = Math.min(remaining, n - at);
          remaining -= take;
          at += take;
          if (remaining === 0) complete();
          continue;
        }
        if (head === '') {
          // the whole head in this read (bytes past n are stale: an end found there does not count)
          const end = buffer.indexOf(HEAD_END, at);
          if (end !== -1 && end + HEAD_END.length <= n) {
            headRead(buffer.toString('latin1', at, end));
            at = end + HEAD_END.length;
            if (remaining === 0) complete();
            continue;
          }
        }
        head += buffer.toString('latin1', at, n);
        at = n;
        const end = head.indexOf('\r\n\r\n');
        if (end === -1) continue;
        const early = head.length - end - 4; // body bytes read with the head (latin1: one character a byte)
        headRead(head.slice(0, end));
        head = '';
        remaining -= early;
        if (remaining === 0) complete();
      }
    };
    const buffer = Buffer.allocUnsafe(256 * 1024);
    const socket = connect({ host: '127.0.0.1', port, onread: { buffer, callback: (n) => (consume(buffer, n), true) } });
    socket.setNoDelay(true);
    socket.once('connect', send);
    socket.once('error', reject);
  });
}
