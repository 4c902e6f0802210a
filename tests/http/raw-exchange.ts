// Bytes written to a server on one connection of their own, exactly as given (heads a client
// library would refuse to send, bodies framed or not, several requests back to back), and
// everything the server sent back until it closed the connection or was quiet for `quietMs`.
import { connect } from 'node:net';

/**
 * Writes each piece in turn (20 ms apart, so a server sees them arrive as separate reads) and
 * resolves with what came back, as latin1 text. A connection the server resets or closes while
 * pieces are still being written ends the exchange with what was read: a server may refuse a
 * request before its body has arrived, and that is an answer to assert on, not a failure.
 */
export function exchange(port: number, pieces: ReadonlyArray<string | Buffer>, quietMs = 400): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(text);
    };
    socket.on('data', (d: Buffer) => { text += d.toString('latin1'); clearTimeout(timer); timer = setTimeout(finish, quietMs); });
    socket.on('end', finish);
    socket.on('close', finish);
    socket.on('error', finish);
    socket.on('connect', async () => {
      for (const piece of pieces) {
        if (done || socket.destroyed) return;
        socket.write(piece);
        await new Promise((r) => setTimeout(r, 20));
      }
      if (!done) timer = setTimeout(finish, quietMs);
    });
  });
}

/** The status codes of the answers in an exchange's text, in order. */
export const statusesOf = (text: string): number[] => [...text.matchAll(/HTTP\/1\.1 (\d{3}) [A-Z]/g)].map((m) => Number(m[1]));
