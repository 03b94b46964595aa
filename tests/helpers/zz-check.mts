import { linkProblems, siteFilesOf } from '/work/wt/i14/tests/helpers/linkIntegrity.ts';
const files = await siteFilesOf(process.argv[2]!);
const p = linkProblems(files, process.argv[3]!);
console.log(files.size, 'files', p.length, 'problems'); console.log(p.slice(0, 10).join('\n'));
