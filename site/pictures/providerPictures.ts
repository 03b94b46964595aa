/**
 * Pictures from the model provider (`generation.images`, cli/generate/
 * images.ts): `felt pull` puts each beside the articles, in
 * `content/images/{locale}/{slug}.png`, and an article with one shows it as
 * its cover instead of the generated illustration. The digest of each file
 * is part of its cover's key and of its article page's inputs, so a new
 * picture remakes the cover and the page, and nothing else.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { SLUG_PATTERN } from '../../shared/names.ts';
import type { ContentLocale } from '../../shared/types.ts';
import { digest } from '../../shared/digest.ts';

export interface ProviderPicture {
  file: string;
  digest: string;
}

export const PICTURE_EXTENSION = '.png';

export function picturesFolder(contentDir: string, locale: ContentLocale): string {
  return path.join(contentDir, 'images', locale);
}

/** The provider pictures of one locale's articles, by slug; none when the folder is absent. */
export function findProviderPictures(contentDir: string, locale: ContentLocale): Map<string, ProviderPicture> {
  const folder = picturesFolder(contentDir, locale);
  const pictures = new Map<string, ProviderPicture>();
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return pictures;
  }
  for (const name of names.sort()) {
    const slug = name.slice(0, -PICTURE_EXTENSION.length);
    if (!name.endsWith(PICTURE_EXTENSION) || !SLUG_PATTERN.test(slug)) continue;
    const file = path.join(folder, name);
    pictures.set(slug, { file, digest: digest(readFileSync(file)) });
  }
  return pictures;
}
