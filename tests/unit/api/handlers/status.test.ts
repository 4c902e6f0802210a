// GET /v1/status (docs/api-contract.md §2): the overall status is the worst component's; each component that is
// not operational raises one automatic alert (minor when degraded, major in an outage) from the
// time it has had that status; operator alerts follow, marked automatic: false.
import { describe, expect, it } from 'vitest';
import type { StatusReport } from '../../../../src/api/endpoint.ts';
import { assembleStatus, status } from '../../../../src/api/handlers/status.ts';
import { runEndpoint } from '../../../../src/api/respond.ts';
import type { ComponentStatus, StatusComponent } from '../../../../src/model/schemas.ts';
import type { StoredAlert } from '../../../../src/catalogue/read-alerts.ts';
import { catalogueOf, modelOf } from '../../support/fixtures.ts';

const CHECKED = '2026-03-01T12:00:00Z';
const component = (id: string, s: ComponentStatus, detail = `${id} is ${s}`): StatusComponent => ({ id, name: `The ${id}`, status: s, detail });
const report = (components: StatusComponent[], over: Partial<StatusReport> = {}): StatusReport =>
  ({ checkedAt: CHECKED, components, since: {}, alerts: [], ...over });

const POSTED: StoredAlert = {
  id: 'search-latency', severity: 'minor', title: 'Search is slow', message: 'Working on it.',
  startsAt: '2026-03-01T08:00:00Z', endsAt: '2026-03-02T08:00:00Z', components: ['search'],
};

describe('assembleStatus', () => {
  it('is operational when every component is, with no alerts', () => {
    expect(assembleStatus(report([component('a', 'operational'), component('b', 'operational')]))).toEqual({
      status: 'operational', checkedAt: CHECKED,
      components: [component('a', 'operational'), component('b', 'operational')],
      alerts: [],
    });
  });

  it('takes the worst status of the components, whatever their order', () => {
    const cases: [ComponentStatus[], ComponentStatus][] = [
      [[], 'operational'],
      [['operational', 'degraded', 'operational'], 'degraded'],
      [['degraded', 'outage', 'operational'], 'outage'],
      [['outage', 'degraded'], 'outage'],
    ];
    for (const [statuses, expected] of cases) {
      expect(assembleStatus(report(statuses.map((s, i) => component(`c${i}`, s)))).status, statuses.join()).toBe(expected);
    }
  });

  it('raises one automatic alert per component not operational, minor when degraded and major in an outage', () => {
    const assembled = assembleStatus(report(
      [component('snapshot', 'degraded', 'The catalogue has changed.'), component('catalogue', 'operational'), component('errors', 'outage', '30 of 100 answers were 5xx.')],
      { since: { snapshot: '2026-03-01T11:00:00Z', catalogue: '2026-03-01T10:00:00Z' } },
    ));
    expect(assembled.alerts).toEqual([
      { id: 'auto-snapshot', severity: 'minor', title: 'The snapshot: degraded', message: 'The catalogue has changed.', startsAt: '2026-03-01T11:00:00Z', components: ['snapshot'], automatic: true },
      { id: 'auto-errors', severity: 'major', title: 'The errors: outage', message: '30 of 100 answers were 5xx.', startsAt: CHECKED, components: ['errors'], automatic: true },
    ]);
  });

  it('lists the operator alerts after the automatic ones, as posted, marked automatic: false', () => {
    const assembled = assembleStatus(report([component('errors', 'degraded')], { alerts: [POSTED] }));
    expect(assembled.alerts.map((a) => a.id)).toEqual(['auto-errors', 'search-latency']);
    expect(assembled.alerts[1]).toEqual({ ...POSTED, automatic: false });
  });
});

describe('status endpoint', () => {
  const model = modelOf(catalogueOf({}));
  const url = new URL('https://videos.example.test/v1/status');

  it('answers from the service checks, in the response schema, cached briefly', () => {
    const checks = report([component('snapshot', 'operational'), component('catalogue', 'outage')], { alerts: [POSTED] });
    const rendered = runEndpoint(status, {}, url, { model, snapshot: undefined, liveStreams: () => [], status: () => checks });
    expect(rendered.status).toBe(200);
    expect(rendered.headers['cache-control']).toMatch(/max-age=([1-9]|[1-5]\d|60)\b/);
    const body = JSON.parse(rendered.body.toString('utf8')) as { data: unknown };
    expect(status.response.safeParse(body).success).toBe(true);
    expect(body.data).toEqual(assembleStatus(checks));
  });

  it('reports the snapshot alone without service checks: an outage when none is loaded', () => {
    const answer = status.handle({}, { model, snapshot: undefined, liveStreams: () => [] });
    expect(status.response.safeParse(answer.body).success).toBe(true);
    expect(answer.body).toMatchObject({ data: { status: 'outage', components: [{ id: 'snapshot', status: 'outage' }], alerts: [{ id: 'auto-snapshot', severity: 'major' }] } });
  });

  it('reports the snapshot alone without service checks: operational when one is loaded', () => {
    const snapshot = { id: 'abc', videos: 1, pages: 2, loadedAt: CHECKED };
    const answer = status.handle({}, { model, snapshot, liveStreams: () => [] });
    expect(answer.body).toMatchObject({ data: { status: 'operational', components: [{ id: 'snapshot', status: 'operational', detail: 'Snapshot abc is loaded.' }], alerts: [] } });
  });
});
