/**
 * The editorial forms of `felt generate` (issue 12, items 6 and 7), kept out
 * of the nightly run's code: `--slug S --replace` writes one article again
 * (cli/generate/replace.ts), `--translate S --to L1,L2` writes its other
 * locales' versions (cli/generate/translate.ts).
 */
import type { Command } from 'commander';
import { FeltError } from '../../shared/errors.ts';
import type { GenerateOptions } from '../generate/run.ts';
import { collect, finish, type CommonFlags } from './pipelineOptions.ts';
import type { Reporter } from '../report.ts';

export interface EditorialFlags extends CommonFlags {
  slug?: string;
  replace?: boolean;
  translate?: string;
  to?: string[];
  locale?: string;
  model?: string;
  date?: string;
  dryRun?: boolean;
  batch?: boolean;
}

export function addEditorialFlags(command: Command): Command {
  return command
    .option('--slug <slug>', 'with --replace: the article to write again (--locale when the slug is in several locales)')
    .option('--replace', 'write --slug again (same locale, category, subcategory, translationKey); the old text is kept as a version')
    .option('--translate <slug>', "write this article's versions in the --to locales (one translationKey; --locale: the source's, when the slug is in several)")
    .option('--to <locales>', 'with --translate: content locales, comma-separated (ru_RU,tr_TR)', collect);
}

type Common = Pick<GenerateOptions, 'contentDir' | 'storage' | 'reporter' | 'attempts' | 'signal' | 'llm'>;

/** Runs --replace or --translate and returns true, or returns false for the other forms of generate. */
export async function runEditorial(flags: EditorialFlags, common: Common, reporter: Reporter): Promise<boolean> {
  if (!flags.replace && flags.translate === undefined) {
    if (flags.slug !== undefined) throw new FeltError('BAD_OPTION', '--slug needs --replace (to write the article again)');
    if (flags.to !== undefined) throw new FeltError('BAD_OPTION', '--to needs --translate SLUG');
    return false;
  }
  if (flags.dryRun || flags.batch) throw new FeltError('BAD_OPTION', '--replace and --translate write one article at a time: no --dry-run or --batch');
  if (flags.replace) {
    if (!flags.slug) throw new FeltError('BAD_OPTION', '--replace needs --slug SLUG');
    if (flags.translate !== undefined) throw new FeltError('BAD_OPTION', 'use --replace or --translate, not both');
    const { replaceArticle } = await import('../generate/replace.ts');
    const result = await replaceArticle({ ...common, slug: flags.slug, locale: flags.locale, model: flags.model, date: flags.date });
    finish(reporter, result, [], 'replace');
    return true;
  }
  const { translateArticle } = await import('../generate/translate.ts');
  const result = await translateArticle({ ...common, slug: flags.translate!, from: flags.locale, to: flags.to ?? [], model: flags.model, date: flags.date });
  finish(reporter, result, result.failed, 'translate');
  return true;
}
