/** felt deploy: flags → DeployOptions → deploy(). */
import { Option, type Command } from 'commander';
import { FeltError } from '../../shared/errors.ts';
import { addCommonFlags, finish, reporterFor, storageChoice, type CommonFlags } from './pipelineOptions.ts';

interface Flags extends CommonFlags {
  bucket: string;
  dist: string;
  /** --dist by the name `felt build` gives the same folder. */
  out?: string;
  delete?: boolean;
  dryRun?: boolean;
  gzip: boolean;
  website: boolean;
  maxDelete: string;
  yes?: boolean;
}

export function registerDeploy(program: Command): void {
  addCommonFlags(
    program
      .command('deploy')
      .description('upload dist/ to a hosting bucket, changed files only')
      .requiredOption('--bucket <name>', 'the hosting bucket')
      .option('--dist <dir>', 'the built site', 'dist')
      .addOption(new Option('--out <dir>').hideHelp().conflicts('dist'))
      .option('--delete', 'remove objects that are no longer in dist/')
      .option('--max-delete <percent>', 'the most of the bucket --delete removes without --yes, in percent', '25')
      .option('--yes', 'delete more than --max-delete all the same')
      .option('--dry-run', 'print the plan only')
      .option('--no-gzip', 'on GCS, store text files as they are instead of gzip-encoded (for a CDN that compresses itself)')
      .option('--no-website', "on GCS, leave the bucket's website pages (index.html, 404.html) as they are"),
  ).action(async (flags: Flags) => {
    const maxDeletePercent = Number(flags.maxDelete);
    if (!/^\d+(\.\d+)?$/.test(flags.maxDelete) || maxDeletePercent > 100)
      throw new FeltError('BAD_OPTION', `--max-delete must be a percentage from 0 to 100, not "${flags.maxDelete}"`);
    const reporter = reporterFor(flags);
    // Loaded on use: the storage clients take a while to load and `felt build` never needs them.
    const { deploy } = await import('../deploy.ts');
    const result = await deploy({
      contentDir: flags.content,
      distDir: flags.out ?? flags.dist,
      bucket: flags.bucket,
      delete: flags.delete,
      dryRun: flags.dryRun,
      gzip: flags.gzip,
      website: flags.website,
      maxDeletePercent,
      yes: flags.yes,
      storage: storageChoice(flags),
      reporter,
    });
    if (!result.dryRun)
      reporter.print(
        `deployed ${result.uploaded.length} uploaded, ${result.patched.length} patched, ${result.deleted.length} deleted, ${result.unchanged} unchanged`,
      );
    finish(reporter, result, result.failed, 'deploy');
  });
}
