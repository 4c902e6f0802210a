// GET /v1/status: the service's components as checked now, the overall status (the worst of them),
// the operator alerts in force, and one alert raised automatically for each component that is not
// operational (docs/api-contract.md §2).
import { defineEndpoint, type StatusReport } from '../endpoint.ts';
import { NoQuery } from '../params.ts';
import { parseQuery } from '../query.ts';
import { StatusResponse, type ComponentStatus, type Status, type StatusAlert } from '../../model/schemas.ts';

const RANK: Record<ComponentStatus, number> = { operational: 0, degraded: 1, outage: 2 };

export function assembleStatus(report: StatusReport): Status {
  const worst = report.components.reduce<ComponentStatus>((w, c) => (RANK[c.status] > RANK[w] ? c.status : w), 'operational');
  const automatic: StatusAlert[] = report.components.filter((c) => c.status !== 'operational').map((c) => ({
    id: `auto-${c.id}`,
    severity: c.status === 'outage' ? 'major' : 'minor',
    title: `${c.name}: ${c.status}`,
    message: c.detail,
    startsAt: report.since[c.id] ?? report.checkedAt,
    components: [c.id],
    automatic: true,
  }));
  const posted: StatusAlert[] = report.alerts.map((a) => ({ ...a, components: [...a.components], automatic: false }));
  return { status: worst, checkedAt: report.checkedAt, components: [...report.components], alerts: [...automatic, ...posted] };
}

export const status = defineEndpoint<Record<string, never>>({
  name: 'status',
  path: '/v1/status',
  query: NoQuery,
  response: StatusResponse,
  docs: {
    summary: 'Service status',
    description: "The service's components, checked at request time (snapshot loaded and its age, catalogue readable, search index loaded, recent 5xx rate, event-loop delay), with operator alerts in force and one automatic alert per component that is not operational.",
    tag: 'Service',
  },
  cache: 'live',
  parse(_path, search) {
    parseQuery(NoQuery, search);
    return {};
  },
  canonical: () => '/v1/status',
  handle(_params, context) {
    const report: StatusReport = context.status?.() ?? {
      checkedAt: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      components: [{ id: 'snapshot', name: 'Snapshot', status: context.snapshot ? 'operational' : 'outage', detail: context.snapshot ? `Snapshot ${context.snapshot.id} is loaded.` : 'No snapshot is loaded.' }],
      since: {},
      alerts: [],
    };
    return { body: { data: assembleStatus(report) } };
  },
});
