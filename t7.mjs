import { readFileSync, readdirSync } from 'node:fs';
const f = readdirSync('/tmp/prof')[0];
const p = JSON.parse(readFileSync('/tmp/prof/' + f));
const self = new Map(); const byId = new Map(p.nodes.map(n => [n.id, n]));
const dt = p.timeDeltas; let total = 0;
p.samples.forEach((id, i) => { const n = byId.get(id); const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber}`; self.set(k, (self.get(k) || 0) + dt[i]); total += dt[i]; });
console.log('total ms', total / 1000);
[...self].sort((a, b) => b[1] - a[1]).slice(0, 16).forEach(([k, v]) => console.log((v / 1000).toFixed(0).padStart(7), k));
