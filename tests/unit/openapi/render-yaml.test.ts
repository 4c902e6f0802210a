// The YAML rendering of the API description: every string reads back as the same string under
// YAML 1.2 and YAML 1.1 (PyYAML's), where `19:07` would be the sexagesimal integer 1147 and `yes` a
// boolean; everything else round-trips unchanged.
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { renderYaml } from '../../../src/openapi/render-yaml.ts';

const LOOKALIKES = ['19:07', '1:02:03', '0:45', 'yes', 'No', 'on', 'OFF', 'y', 'n', '~', 'null', 'true', '1e3', '0x1f', '0o17', '017', '1_000', '.5', '+1', '-.inf', '.NaN', '2026-11-01', '2026-11-01T12:00:00Z', '<<', '='];

describe('renderYaml', () => {
  it('quotes strings that look like numbers, times, booleans, nulls or dates, so YAML 1.1 and 1.2 parsers read strings', () => {
    const value = { strings: LOOKALIKES, keys: Object.fromEntries(LOOKALIKES.map((s) => [s, s])), video: { durationText: '19:07', views: 1147 } };
    const yaml = renderYaml(value);
    expect(yaml).toContain('durationText: "19:07"');
    expect(parse(yaml, { version: '1.1' })).toEqual(value);
    expect(parse(yaml, { version: '1.2' })).toEqual(value);
  });

  it('leaves plain words, numbers and booleans as they are', () => {
    const yaml = renderYaml({ title: 'A public API', count: 20, ok: true, empty: null, list: ['GET', 'HEAD'] });
    expect(yaml).toBe('title: A public API\ncount: 20\nok: true\nempty: null\nlist:\n  - GET\n  - HEAD\n');
  });
});
