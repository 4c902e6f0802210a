// The YAML rendering of the API description (/openapi.yaml). Every string that a YAML parser could
// read as something else is double-quoted: under YAML 1.2's core schema (`0o17`, `1e3`, `true`)
// and under YAML 1.1's, which PyYAML and many tools still use (`19:07` is the sexagesimal integer
// 1147 there, `yes`/`on`/`n` are booleans, `2026-11-01` a date). So the file means the same
// document to every parser: exactly the JSON one.
import { Document, isPair, isScalar, parse, Scalar, visit } from 'yaml';

const VERSIONS = ['1.1', '1.2'] as const;
/**
 * Only such strings can resolve to another type (every number, time, date, boolean and null form
 * of YAML 1.1 and 1.2 is made of these); any other the stringifier quotes when its syntax needs it.
 */
const MAY_RESOLVE = /^[-+.~0-9A-Za-z_: <=]{1,40}$/;

/** Whether `text`, written as a plain scalar, reads back as this very string under every YAML version. */
function plainIsSafe(text: string): boolean {
  if (!MAY_RESOLVE.test(text)) return true;
  if (text === '<<') return false; // YAML 1.1's merge key, as a key
  try {
    return VERSIONS.every((version) => parse(`${text}\n`, { version }) === text);
  } catch {
    return false;
  }
}

export function renderYaml(value: unknown): string {
  const document = new Document(value, { aliasDuplicateObjects: false });
  const safe = new Map<string, boolean>();
  const quote = (node: unknown) => {
    if (!isScalar(node) || typeof node.value !== 'string') return;
    let plain = safe.get(node.value);
    if (plain === undefined) safe.set(node.value, (plain = plainIsSafe(node.value)));
    if (!plain) node.type = Scalar.QUOTE_DOUBLE;
  };
  visit(document, {
    Pair: (_key, pair) => {
      if (isPair(pair)) quote(pair.key);
    },
    Scalar: (_key, node) => quote(node),
  });
  return document.toString({ lineWidth: 0 });
}
