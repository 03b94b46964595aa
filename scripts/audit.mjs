// `npm run audit` (issue 7): Lighthouse (mobile) and axe-core on the eight
// page kinds of the bundled site. Compiles scripts/audit/run.ts with esbuild
// (dependencies stay external), runs it, prints the table and what cost
// points. --json prints the results as JSON instead; --page <kind> (repeatable:
// home, category, subcategory, article, authors, author, sitemap, 404) audits only those.
import { createRequire } from 'node:module';
import path from 'node:path';
import { ensureTools } from './tools.mjs';
import { withTypeScript } from './withTypeScript.mjs';

const json = process.argv.includes('--json');
const only = process.argv.flatMap((arg, i) => (arg === '--page' && process.argv[i + 1] ? [process.argv[i + 1]] : []));
// Lighthouse and chrome-launcher come from the audit's own tools folder, by
// absolute path; every other import resolves in felt's node_modules as usual.
const tools = createRequire(path.join(ensureTools('audit'), 'package.json'));
const fromTools = {
  name: 'audit-tools',
  setup(build) {
    build.onResolve({ filter: /^(lighthouse|chrome-launcher)$/ }, (args) => ({ path: tools.resolve(args.path), external: true }));
  },
};
await withTypeScript(
  'scripts/audit/run.ts',
  async ({ runAudit, auditTable, auditDetails }) => {
    const results = await runAudit(json ? undefined : (line) => process.stderr.write(`${line}\n`), only);
    if (json) console.log(JSON.stringify(results, null, 2));
    else {
      console.log(`\n${auditTable(results)}\n`);
      const details = auditDetails(results);
      console.log(details.length ? `What cost points:\n${details.map((d) => `  ${d}`).join('\n')}` : 'Every score is 100 and axe found no violations.');
    }
    const missed = results.some((r) => Object.values(r.scores).some((s) => s < 100) || r.axe.length > 0);
    process.exitCode = missed ? 1 : 0;
  },
  { plugins: [fromTools] },
);
