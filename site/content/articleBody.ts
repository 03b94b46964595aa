import { readFileSync } from 'node:fs';
import { FeltError } from '../../shared/errors.ts';
import { frontmatterBody } from './grayMatter.ts';

/** Reads an article's markdown body again when its page is rendered. */
export function readArticleBody(file: string): string {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (error) {
    throw new FeltError('ARTICLE_VANISHED', `${file} could not be read while the site was being built`, { file, hint: 'do not move or delete articles during a build; run it again', cause: error });
  }
  return frontmatterBody(source);
}
