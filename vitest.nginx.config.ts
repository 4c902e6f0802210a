// npm run test:nginx: the HTTP contract suites again, through a real nginx in front of the origin
// (tests/http/harness.ts with VPA_FRONT=nginx): every answer must agree with the origin's. The
// suites about the origin's own state (rate-limit lanes, partner usage, status, catalogue locks, raw sockets,
// restarts) start their own servers and are not among them.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/http/*.test.ts'],
    exclude: ['tests/http/fast-path.test.ts', 'tests/http/fixture-smoke.test.ts', 'tests/http/partner.test.ts', 'tests/http/rate-limits.test.ts', 'tests/http/rebuild.test.ts', 'tests/http/status.test.ts', 'tests/http/catalogue-lock.test.ts', 'tests/http/snapshot-damage.test.ts', 'tests/http/snapshot-swap.test.ts',
      'tests/http/slow-clients.test.ts', 'tests/http/parser-differential.test.ts', 'tests/http/bare-answers.test.ts', 'tests/http/fuzz-heads.test.ts', 'tests/http/shared-state.test.ts', 'tests/http/shared-records.test.ts', 'tests/http/start-migrates.test.ts'],
    env: { VPA_FRONT: 'nginx' },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
