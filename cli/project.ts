/**
 * What the pipeline commands need from a content folder, read without
 * loading every article: site settings, categories and authors, read and
 * validated by the settings loader the build uses (every problem reported at
 * once). The project root is the folder holding content/; local buckets live
 * there too.
 */
import path from 'node:path';
import { ContentError, type Problem } from '../shared/errors.ts';
import { readSettingsFiles } from '../shared/settings.ts';
import type { Author, CategoryNode, SiteSettings } from '../shared/types.ts';

export interface Project {
  root: string;
  contentDir: string;
  settings: SiteSettings;
  categories: CategoryNode[];
  authors: Author[];
}

export async function loadProject(contentDir: string): Promise<Project> {
  const dir = path.resolve(contentDir);
  const problems: Problem[] = [];
  const { settings, categories, authors } = await readSettingsFiles(dir, problems);
  if (!settings || !categories || !authors) throw new ContentError(problems);
  return { root: path.dirname(dir), contentDir: dir, settings, categories, authors };
}
