// Usage: node --max-old-space-size=8192 bench/heapSummary.mjs <file.heapsnapshot> [--min-mb 1] [--per 20000]
// Summarises a V8 heap snapshot (bench/memory.mjs --snapshot, v8.writeHeapSnapshot): self size by constructor, and
// the dominator tree (Cooper, Harvey and Kennedy's iterative algorithm) cut at --min-mb of retained size, each node
// with the edge that names it, so a structure's whole size (a Map and everything only it keeps alive) shows under
// its name. --per N adds bytes per article. Weak edges do not retain, as in the DevTools.
import { readFileSync } from 'node:fs';
import { benchArgs } from './args.mjs';

const USAGE = `usage: node --max-old-space-size=8192 bench/heapSummary.mjs <file.heapsnapshot> [--min-mb 1] [--per 20000] [--depth 12]

  --min-mb  the retained size, in MB, below which the dominator tree is cut (default 1)
  --per     the articles the snapshot's site had: adds bytes per article to every size
  --depth   how many levels of the dominator tree are printed (default 12)`;
const { values, positionals } = benchArgs(USAGE, {
  allowPositionals: true,
  options: { 'min-mb': { type: 'string', default: '1' }, per: { type: 'string' }, depth: { type: 'string', default: '12' } },
});
if (positionals.length !== 1) {
  console.error(`give one heap snapshot file\n\n${USAGE}`);
  process.exit(2);
}
const snapshot = JSON.parse(readFileSync(positionals[0], 'utf8'));
const {
  node_fields: nodeFields,
  edge_fields: edgeFields,
  node_types: [nodeTypes],
  edge_types: [edgeTypes],
} = snapshot.snapshot.meta;
const { nodes, edges, strings } = snapshot;
const NF = nodeFields.length;
const EF = edgeFields.length;
const [nType, nName, nSelf, nEdges] = ['type', 'name', 'self_size', 'edge_count'].map((f) => nodeFields.indexOf(f));
const [eType, eName, eTo] = ['type', 'name_or_index', 'to_node'].map((f) => edgeFields.indexOf(f));
const count = nodes.length / NF;
const MB = 2 ** 20;
const per = values.per ? Number(values.per) : undefined;
const size = (bytes) => `${(bytes / MB).toFixed(1)} MB${per ? ` (${Math.round(bytes / per)} B an article)` : ''}`;

const firstEdge = new Uint32Array(count + 1);
for (let i = 0; i < count; i++) firstEdge[i + 1] = firstEdge[i] + nodes[i * NF + nEdges];
const WEAK = edgeTypes.indexOf('weak');
const SHORTCUT = edgeTypes.indexOf('shortcut');
const retains = (e) => edges[e * EF + eType] !== WEAK && edges[e * EF + eType] !== SHORTCUT;
const target = (e) => edges[e * EF + eTo] / NF;

const label = (i) => {
  const type = nodeTypes[nodes[i * NF + nType]];
  const name = strings[nodes[i * NF + nName]];
  return type === 'object' || type === 'native' || type === 'synthetic' ? name : `(${type})`;
};
const edgeLabel = (e) => {
  const type = edgeTypes[edges[e * EF + eType]];
  const name = edges[e * EF + eName];
  return type === 'element' || type === 'hidden' ? `[${name}]` : String(strings[name]);
};

// Self size by constructor.
const byName = new Map();
for (let i = 0; i < count; i++) {
  const key = label(i);
  const row = byName.get(key) ?? { n: 0, bytes: 0 };
  row.n++;
  row.bytes += nodes[i * NF + nSelf];
  byName.set(key, row);
}
const total = [...byName.values()].reduce((sum, r) => sum + r.bytes, 0);
console.log(`${count} nodes, ${size(total)} in all\n\nself size by constructor:`);
for (const [name, r] of [...byName].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, 25))
  console.log(`  ${size(r.bytes).padEnd(32)} ${String(r.n).padStart(9)} × ${name.slice(0, 60)}`);

// Depth-first postorder from the root (node 0), iteratively.
const post = new Int32Array(count).fill(-1);
const order = new Uint32Array(count);
const visited = new Uint8Array(count);
const stack = new Uint32Array(count);
const cursor = new Uint32Array(count);
let top = 0;
let reached = 0;
stack[top++] = 0;
visited[0] = 1;
cursor[0] = firstEdge[0];
while (top > 0) {
  const v = stack[top - 1];
  if (cursor[v] < firstEdge[v + 1]) {
    const e = cursor[v]++;
    const w = target(e);
    if (retains(e) && !visited[w]) {
      visited[w] = 1;
      cursor[w] = firstEdge[w];
      stack[top++] = w;
    }
  } else {
    top--;
    post[v] = reached;
    order[reached++] = v;
  }
}

// Predecessors (compressed rows), for reached nodes over retaining edges.
const predCount = new Uint32Array(count + 1);
for (let v = 0; v < count; v++) {
  if (post[v] < 0) continue;
  for (let e = firstEdge[v]; e < firstEdge[v + 1]; e++) if (retains(e)) predCount[target(e) + 1]++;
}
for (let i = 0; i < count; i++) predCount[i + 1] += predCount[i];
const preds = new Uint32Array(predCount[count]);
const predEdge = new Uint32Array(predCount[count]);
const fill = predCount.slice(0, count);
for (let v = 0; v < count; v++) {
  if (post[v] < 0) continue;
  for (let e = firstEdge[v]; e < firstEdge[v + 1]; e++)
    if (retains(e)) {
      const w = target(e);
      predEdge[fill[w]] = e;
      preds[fill[w]++] = v;
    }
}

// Immediate dominators, by postorder number.
const idom = new Int32Array(reached).fill(-1);
const root = post[0];
idom[root] = root;
const intersect = (a, b) => {
  while (a !== b) {
    while (a < b) a = idom[a];
    while (b < a) b = idom[b];
  }
  return a;
};
for (let changed = true; changed;) {
  changed = false;
  for (let p = reached - 2; p >= 0; p--) {
    const v = order[p];
    let dom = -1;
    for (let k = predCount[v]; k < predCount[v + 1]; k++) {
      const q = post[preds[k]];
      if (idom[q] !== -1) dom = dom === -1 ? q : intersect(q, dom);
    }
    if (dom !== idom[p]) {
      idom[p] = dom;
      changed = true;
    }
  }
}
const retained = new Float64Array(reached);
for (let p = 0; p < reached; p++) retained[p] += nodes[order[p] * NF + nSelf];
for (let p = 0; p < reached - 1; p++) retained[idom[p]] += retained[p];

// The dominator tree, cut at --min-mb, each node named by an edge from its dominator when there is one.
const children = new Map();
for (let p = 0; p < reached - 1; p++) {
  if (retained[p] < Number(values['min-mb']) * MB) continue;
  const list = children.get(idom[p]) ?? [];
  list.push(p);
  children.set(idom[p], list);
}
const nameFrom = (p) => {
  const v = order[p];
  const dom = order[idom[p]];
  let any;
  for (let k = predCount[v]; k < predCount[v + 1]; k++) {
    if (preds[k] === dom) return edgeLabel(predEdge[k]);
    any ??= `${label(preds[k])}.${edgeLabel(predEdge[k])}`;
  }
  return any ?? '?';
};
console.log(`\nretained (dominator tree, nodes of ${values['min-mb']} MB or more):`);
const walk = (p, depth) => {
  if (depth > Number(values.depth)) return;
  for (const c of (children.get(p) ?? []).sort((a, b) => retained[b] - retained[a])) {
    console.log(`${'  '.repeat(depth)}${size(retained[c]).padEnd(32)} ${nameFrom(c).slice(0, 50)}: ${label(order[c]).slice(0, 50)}`);
    walk(c, depth + 1);
  }
};
walk(root, 1);

// Structures too small to pass the cut, grouped: the same kind of node under the same dominator by the same edge
// (elements as []), e.g. one Object per article held by two lists at once, which only the root dominates.
const groups = new Map();
for (let p = 0; p < reached - 1; p++) {
  const key = `${label(order[idom[p]]).slice(0, 30)} > ${nameFrom(p)
    .replace(/\[\d+\]/g, '[]')
    .slice(0, 40)}: ${label(order[p]).slice(0, 30)}`;
  const group = groups.get(key) ?? { n: 0, bytes: 0 };
  group.n++;
  group.bytes += retained[p];
  groups.set(key, group);
}
console.log('\nretained, grouped by dominator, edge and kind:');
for (const [key, g] of [...groups].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, 30))
  console.log(`  ${size(g.bytes).padEnd(32)} ${String(g.n).padStart(9)} × ${key}`);
