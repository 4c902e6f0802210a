// Calls an endpoint the way the server and the build do: parse the path and query, then handle.
import { expect } from 'vitest';
import type { Answer, Context, Endpoint } from '../../../src/api/endpoint.ts';
import { ProblemError } from '../../../src/api/problems.ts';
import type { Model } from '../../../src/model/build-model.ts';

export function call<P>(endpoint: Endpoint<P>, model: Model, query = '', path: Record<string, string> = {}): Answer {
  const context: Context = { model, snapshot: undefined, liveStreams: () => model.live };
  const answer = endpoint.handle(endpoint.parse(path, new URLSearchParams(query)), context);
  const check = endpoint.response.safeParse(answer.body);
  expect(check.success, check.success ? '' : JSON.stringify(check.error.issues[0])).toBe(true);
  return answer;
}

/** The ProblemError a call throws, failing the test when it throws none. */
export function problemOf(run: () => unknown): ProblemError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ProblemError);
    return error as ProblemError;
  }
  throw new Error('expected a ProblemError, but nothing was thrown');
}

export interface PageBody<T> {
  data: T[];
  paging: { limit: number; offset: number; total: number; nextCursor: string | null };
}

export const pageOf = <T>(answer: Answer): PageBody<T> => answer.body as PageBody<T>;
