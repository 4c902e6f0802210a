// Short readable types for JSON Schemas, as the /docs page shows them: references link to their
// schema's section; arrays, unions, enums, bounds and formats are spelled out. Returns HTML.
import { escapeMarkup } from '../lib/markup.ts';

type Json = Record<string, any>;

const code = (value: unknown) => `<code>${escapeMarkup(JSON.stringify(value))}</code>`;

/** `integer 1–50`, `string (uri)`, `string, 1–200 characters`... */
function constraints(schema: Json): string {
  const parts: string[] = [];
  if (schema['minimum'] !== undefined || schema['maximum'] !== undefined) {
    const max = schema['maximum'] === Number.MAX_SAFE_INTEGER ? undefined : schema['maximum'];
    parts.push(max === undefined ? `≥ ${schema['minimum']}` : `${schema['minimum'] ?? '…'}–${max}`);
  }
  if (schema['minLength'] !== undefined || schema['maxLength'] !== undefined) parts.push(`${schema['minLength'] ?? 0}–${schema['maxLength'] ?? '…'} characters`);
  if (schema['format']) parts.push(escapeMarkup(String(schema['format'])));
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

export function describeSchema(schema: Json | undefined): string {
  if (!schema || Object.keys(schema).length === 0) return 'any';
  if (typeof schema['$ref'] === 'string') {
    const name = schema['$ref'].split('/').pop()!;
    return `<a href="#schema-${escapeMarkup(name)}">${escapeMarkup(name)}</a>`;
  }
  if (schema['const'] !== undefined) return code(schema['const']);
  if (Array.isArray(schema['enum'])) return `one of ${schema['enum'].map(code).join(', ')}`;
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key])) return (schema[key] as Json[]).map(describeSchema).join(' or ');
  }
  const type = schema['type'];
  if (Array.isArray(type)) return type.map((t: string) => describeSchema({ ...schema, type: t })).join(' or ');
  if (type === 'array') {
    if (Array.isArray(schema['prefixItems'])) return `[${(schema['prefixItems'] as Json[]).map(describeSchema).join(', ')}]`;
    return `array of ${describeSchema(schema['items'])}`;
  }
  if (type === 'object' && schema['properties']) return `object {${Object.keys(schema['properties']).map(escapeMarkup).join(', ')}}`;
  if (type === 'null') return 'null';
  return `${escapeMarkup(String(type ?? 'any'))}${constraints(schema)}`;
}
