// Random malformed request heads, raw over sockets (methods, targets, versions, header lines, line
// ends: scripts/bench/raw-http.ts): every one gets an answer (or is still awaited when it is not
// complete), never a 5xx, and every answer of 400 or more is an RFC 9457 problem with CORS
// (docs/reliability.md, "HTTP front"; `npm run bench:hostile` sends 24,000 of them). Change SEED
// to explore; a failure message names the bytes sent, so they can be replayed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchange, malformedRequest, seeded } from '../../scripts/bench/raw-http.ts';
import { problemShapeProblems } from './contract-shapes.ts';
import { mapConcurrent } from './http-client.ts';
import { startFixture, type Fixture } from './server-fixture.ts';

const SEED = 20260301;
/** heads per run of the suite; the benchmark script sends 24,000 */
const HEADS = 3000;

let fx: Fixture;
beforeAll(async () => { fx = await startFixture({ seed: { videos: 200 } }); });
afterAll(async () => { await fx?.close(); });

describe('random malformed request heads', () => {
  it(`answers each of ${HEADS} seeded random heads, never 5xx, every refusal a problem with CORS, no connection dropped`, async () => {
    const random = seeded(SEED);
    const requests = Array.from({ length: HEADS }, () => malformedRequest(random));
    const failures: string[] = [];
    let answered = 0;
    await mapConcurrent(requests, 16, async ({ bytes, method }, i) => {
      const where = `#${i} ${JSON.stringify(bytes.toString('latin1').slice(0, 160))}`;
      const result = await exchange(fx.running.port, { pieces: [bytes], quietMs: 250, limitMs: 5000, headOnly: (n) => n === 0 && method === 'HEAD' });
      // a head still incomplete (a lone CR as line end, a body promised) may be waited for; a
      // connection closed without an answer is dropped
      if (result.closed && result.answers.length === 0) failures.push(`${where}: closed without an answer`);
      if (result.closed && result.trailing > 0) failures.push(`${where}: ${result.trailing} bytes after the last whole answer`);
      if (result.answers.length > 0) answered++;
      for (const answer of result.answers) {
        if (answer.status >= 500) failures.push(`${where}: ${answer.status}`);
        if (answer.status < 400) continue;
        const what = `${where} → ${answer.status}`;
        if (answer.headers['access-control-allow-origin'] !== '*') failures.push(`${what}: no CORS`);
        if (!/^application\/problem\+json/.test(answer.headers['content-type'] ?? '')) { failures.push(`${what}: ${answer.headers['content-type']}`); continue; }
        if (answer.body.length === 0) continue; // a HEAD request's answer
        let body: unknown;
        try {
          body = JSON.parse(answer.body.toString('utf8'));
        } catch {
          failures.push(`${what}: body is not JSON`);
          continue;
        }
        failures.push(...problemShapeProblems(body, fx.base, answer.status).map((p) => `${what}: ${p}`));
      }
    });
    expect(failures.slice(0, 20)).toEqual([]);
    expect(answered).toBeGreaterThan(HEADS * 0.9);
    const health = await exchange(fx.running.port, { pieces: ['GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n'] });
    expect(health.answers.map((a) => a.status)).toEqual([200]);
  });
});
