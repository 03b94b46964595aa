/**
 * The dev-mode title editor's write: replaces the `title:` line of an
 * article's frontmatter, keeping every other byte of the file. Line breaks are
 * stripped and the value trimmed (SPEC section 5); what is left must pass the
 * article schema's title field.
 */
import { readFile } from 'node:fs/promises';
import { articleFile } from '../../shared/paths.ts';
import { writeFileAtomic } from '../../shared/atomicWrite.ts';
import { FeltError } from '../../shared/errors.ts';
import type { ContentLocale } from '../../shared/types.ts';
import { SLUG_PATTERN } from '../../shared/names.ts';
import { scanFrontmatter } from '../content/frontmatter.ts';
import { articleFrontmatterSchema } from '../content/schemas.ts';

export function cleanTitle(value: string): string {
  return value.replace(/[\r\n]+/g, ' ').trim();
}

/** Replaces the top-level `title:` entry (and any continuation lines of a folded value). */
export function replaceTitle(source: string, title: string): string {
  const block = scanFrontmatter(source);
  if (!block) throw new FeltError('NO_TITLE_LINE', 'the file has no frontmatter between --- lines');
  const titleLine = block.keys.get('title');
  if (titleLine === undefined) throw new FeltError('NO_TITLE_LINE', 'the frontmatter has no title line to replace', { field: 'title' });
  // Line numbers count from 1, the array from 0.
  const lines = source.split('\n');
  const end = block.closeLine - 1;
  const at = titleLine - 1;
  let next = at + 1;
  while (next < end && /^\s+\S/.test(lines[next]!)) next++;
  const eol = lines[at]!.endsWith('\r') ? '\r' : '';
  // A JSON string is a valid YAML double-quoted scalar, whatever the title holds.
  lines.splice(at, next - at, `title: ${JSON.stringify(title)}${eol}`);
  return lines.join('\n');
}

/**
 * The title as `felt check` will read it back, or TITLE_INVALID with the
 * reason: the same schema field decides, so the editor never saves a title
 * (a DEL, an ESC, a lone surrogate) that stops the whole site from building.
 */
export function validTitle(rawTitle: string): string {
  const checked = articleFrontmatterSchema.shape.title.safeParse(cleanTitle(rawTitle));
  if (!checked.success) throw new FeltError('TITLE_INVALID', `the title ${checked.error.issues[0]!.message}`, { field: 'title' });
  return checked.data;
}

export async function saveArticleTitle(contentDir: string, locale: ContentLocale, slug: string, rawTitle: string): Promise<string> {
  if (!SLUG_PATTERN.test(slug)) throw new FeltError('BAD_SLUG', `"${slug}" is not an article slug`);
  const title = validTitle(rawTitle);
  const file = articleFile(contentDir, locale, slug);
  const source = await readFile(file, 'utf8').catch(() => undefined);
  if (source === undefined) throw new FeltError('NO_ARTICLE', `no ${locale} article has the slug "${slug}"`, { field: 'slug' });
  await writeFileAtomic(file, replaceTitle(source, title));
  return file;
}
