// `npm run audit` (issue 7): Lighthouse (mobile) and axe-core on the eight
// page kinds of the bundled site. Compiles scripts/audit/run.ts with esbuild
// (dependencies stay external), runs it, prints the table and what cost
// points. --json prints the results as JSON instead; --page <kind> (repeatable:
// home, category, subcategory, article, authors, author, sitemap, 404) audits only those.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const json = process.argv.includes('--json');
const only = process.argv.flatMap((arg, i) => (arg === '--page' && process.argv[i + 1] ? [process.argv[i + 1]] : []));
const outfile = path.join(root, 'lib', `audit-${process.pid}.mjs`);
await build({ absWorkingDir: root, entryPoints: ['scripts/audit/run.ts'], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', jsx: 'automatic', logLevel: 'warning' });
try {
  const { runAudit, auditTable, auditDetails } = await import(pathToFileURL(outfile).href);
  const results = await runAudit(json ? undefined : (line) => process.stderr.write(`${line}\n`), only);
  if (json) console.log(JSON.stringify(results, null, 2));
  else {
    console.log(`\n${auditTable(results)}\n`);
    const details = auditDetails(results);
    console.log(details.length ? `What cost points:\n${details.map((d) => `  ${d}`).join('\n')}` : 'Every score is 100 and axe found no violations.');
  }
  const missed = results.some((r) => Object.values(r.scores).some((s) => s < 100) || r.axe.length > 0);
  process.exitCode = missed ? 1 : 0;
} finally {
  rmSync(outfile, { force: true });
}
