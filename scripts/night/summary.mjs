// The night's step summary (issue 17): reads the --json reports that
// scripts/night/step.sh kept in $FELT_REPORTS and writes a Markdown table to
// $GITHUB_STEP_SUMMARY (stdout elsewhere): articles generated and skipped
// (with the reasons), cost, what publish and pull moved, the check's verdict,
// pages built and bytes deployed per locale; on a batch night (BATCH_FROM in
// .github/workflows/content.yml) "generated" is what `felt generate --collect`
// stored from the batches submitted the night before, and the batches
// collected and submitted are listed. A missing or unreadable report
// (a command that failed before it could print one) shows as "failed".
//
//   node scripts/night/summary.mjs [reports-dir] [dist-dir]
import { appendFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const reports = process.argv[2] ?? process.env.FELT_REPORTS ?? 'reports';
const dist = process.argv[3] ?? 'dist';
const LOCALES = ['en_US', 'ru_RU', 'tr_TR'];

function report(label) {
  const file = path.join(reports, `${label}.json`);
  const exit = existsSync(path.join(reports, `${label}.exit`)) ? readFileSync(path.join(reports, `${label}.exit`), 'utf8').trim() : undefined;
  try {
    return { exit, json: JSON.parse(readFileSync(file, 'utf8')) };
  } catch {
    return { exit, json: undefined };
  }
}

const status = (r) => (r.exit === undefined ? 'not run' : r.exit === '0' ? 'ok' : r.exit === '2' ? 'done, some skipped' : `failed (exit ${r.exit})`);
const mb = (bytes) => `${(bytes / 1e6).toFixed(2)} MB`;

const lines = [
  '## felt night',
  '',
  '| locale | generated | skipped | cost | pages built | uploaded | bytes deployed | deleted |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
];
const skipped = [];
let totalCost = 0;
const collect = report('collect');
// A batch night collects every locale in one command: its per-batch summaries stand in for the direct runs' reports.
const collectedRuns = (collect.json?.batches ?? []).map((b) => b.summary).filter(Boolean);
function generated(locale) {
  const direct = report(`generate-${locale}`);
  if (direct.exit !== undefined || !collect.json) return direct;
  const runs = collectedRuns.filter((s) => s.locale === locale);
  const costs = runs.map((s) => s.usage?.costUsd);
  const json = {
    stored: runs.flatMap((s) => s.stored),
    failed: runs.flatMap((s) => s.failed),
    usage: { costUsd: costs.every((c) => typeof c === 'number') ? costs.reduce((a, b) => a + b, 0) : undefined },
  };
  return { exit: collect.exit, json };
}
for (const locale of LOCALES) {
  const gen = generated(locale);
  const build = report(`build-${locale}`);
  const deploy = report(`deploy-${locale}`);
  const stored = gen.json?.stored?.length;
  const failed = gen.json?.failed ?? [];
  for (const f of failed) skipped.push(`${locale} slot ${Number(f.slot) + 1}: ${f.reason}`);
  const cost = gen.json?.usage?.costUsd;
  if (typeof cost === 'number') totalCost += cost;
  let bytes = 0;
  for (const name of deploy.json?.upload ?? []) {
    try {
      bytes += statSync(path.join(dist, locale, name)).size;
    } catch {
      // A file the next build removed: its size is unknown here, not zero.
    }
  }
  lines.push(
    `| ${locale} | ${stored ?? status(gen)} | ${gen.json ? failed.length : '–'} | ${typeof cost === 'number' ? `$${cost.toFixed(4)}` : 'unknown'} | ${build.json?.pages ?? status(build)} | ${deploy.json ? deploy.json.upload.length : status(deploy)} | ${deploy.json ? mb(bytes) : '–'} | ${deploy.json?.remove?.length ?? '–'} |`,
  );
}
lines.push('', `Cost of the night: $${totalCost.toFixed(4)}`, '');
const publish = report('publish');
const pull = report('pull');
const check = report('check');
if (collect.exit !== undefined) {
  const batches = collect.json?.batches ?? [];
  const waiting = batches.filter((b) => !b.summary).map((b) => `${b.batchId} ${b.status}`);
  lines.push(
    `- batches collected: ${collect.json ? `${batches.filter((b) => b.summary).length} of ${batches.length}${waiting.length ? ` (not yet: ${waiting.join(', ')})` : ''}` : status(collect)}`,
  );
  const submitted = LOCALES.map((locale) => {
    const b = report(`batch-${locale}`);
    if (!b.json) return `${locale} ${status(b)}`;
    return `${locale} ${b.json.batchId ? `${b.json.slots.length} articles (${b.json.batchId})` : 'nothing'}${b.json.overBudget ? `, ${b.json.overBudget} over the budget` : ''}`;
  });
  lines.push(`- batches submitted for the next night: ${submitted.join('; ')}`);
}
lines.push(`- publish: ${publish.json ? `${publish.json.copied.length} copied to production` : status(publish)}`);
lines.push(
  `- pull: ${pull.json ? `${pull.json.download.length} downloaded (${pull.json.fromSnapshot ?? 0} from the state snapshot), ${pull.json.unchanged} unchanged, ${pull.json.remove.length} deleted` : status(pull)}`,
);
lines.push(`- check: ${check.json ? `${check.json.errors} errors, ${check.json.warnings} warnings` : status(check)}`);
if (skipped.length) lines.push('', '### Skipped', '', ...skipped.map((s) => `- ${s.replace(/\n/g, ' ')}`));
const failures = existsSync(path.join(reports, 'failures.txt')) ? readFileSync(path.join(reports, 'failures.txt'), 'utf8').trim() : '';
if (failures) lines.push('', '### Failed', '', ...failures.split('\n').map((f) => `- ${f}`));
const text = `${lines.join('\n')}\n`;
if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, text);
else process.stdout.write(text);
