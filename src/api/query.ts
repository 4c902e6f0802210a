// Query parameters, validated by zod schemas (api/params.ts) into typed values. Every invalid
// parameter is reported at once; repeated parameters are refused; unknown ones are ignored.
import type { z } from 'zod';
import { invalidParameters, type ParameterError } from './problems.ts';

export function parseQuery<S extends z.ZodObject>(schema: S, search: URLSearchParams): z.infer<S> {
  const raw: Record<string, string> = {};
  const errors: ParameterError[] = [];
  for (const name of Object.keys(schema.shape)) {
    const values = search.getAll(name);
    if (values.length > 1) errors.push({ parameter: name, detail: `is given ${values.length} times; give it once` });
    else if (values.length === 1) raw[name] = values[0]!;
  }
  const result = schema.safeParse(raw);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const parameter = String(issue.path[0] ?? 'query');
      if (!errors.some((e) => e.parameter === parameter)) errors.push({ parameter, detail: issue.message });
    }
  }
  if (errors.length > 0 || !result.success) throw invalidParameters(errors);
  return result.data;
}

/** `path?a=1&b=2`, parameters sorted by name, values percent-encoded; undefined ones left out. */
export function canonicalUrl(path: string, params: Readonly<Record<string, string | number | undefined>>): string {
  const query = Object.keys(params)
    .filter((k) => params[k] !== undefined)
    .sort()
    .map((k) => `${k}=${encodeURIComponent(String(params[k]))}`)
    .join('&');
  return query === '' ? path : `${path}?${query}`;
}
