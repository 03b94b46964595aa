/**
 * What the pipeline commands need from a content folder, read without
 * loading every article: site settings, categories and authors, validated
 * with the site's schemas (every problem reported at once). The project root
 * is the folder holding content/; local buckets live there too.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { ContentError, type Problem } from '../shared/errors.ts';
import type { Author, CategoryNode, SiteSettings } from '../shared/types.ts';
import { displayPath } from '../site/content/loadContent.ts';
import { authorsSchema, categoriesSchema, formatIssues, siteSettingsSchema } from '../site/content/schemas.ts';

export interface Project {
  root: string;
  contentDir: string;
  settings: SiteSettings;
  /** Optional storage.projectId and storage.apiEndpoint of site.json (GCS only). */
  storageExtras: { projectId?: string; apiEndpoint?: string };
  categories: CategoryNode[];
  authors: Author[];
}

export async function loadProject(contentDir: string): Promise<Project> {
  const dir = path.resolve(contentDir);
  const problems: Problem[] = [];
  const settingsRaw = await readJson(path.join(dir, 'site.json'), problems);
  const settings = check(settingsRaw, siteSettingsSchema, path.join(dir, 'site.json'), problems);
  const categories = check(await readJson(path.join(dir, 'categories.json'), problems), categoriesSchema, path.join(dir, 'categories.json'), problems);
  const authors = check(await readJson(path.join(dir, 'authors.json'), problems), authorsSchema, path.join(dir, 'authors.json'), problems);
  if (!settings || !categories || !authors) throw new ContentError(problems);
  const storage = ((settingsRaw as { storage?: Record<string, unknown> }).storage ?? {}) as Record<string, unknown>;
  return {
    root: path.dirname(dir),
    contentDir: dir,
    settings: settings as SiteSettings,
    storageExtras: {
      projectId: typeof storage.projectId === 'string' ? storage.projectId : undefined,
      apiEndpoint: typeof storage.apiEndpoint === 'string' ? storage.apiEndpoint : undefined,
    },
    categories: toNodes(categories),
    authors: authors as Author[],
  };
}

async function readJson(file: string, problems: Problem[]): Promise<unknown> {
  try {
    return JSON.parse((await readFile(file, 'utf8')).replace(/^\uFEFF/, ''));
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    problems.push({ file: displayPath(file), severity: 'error', message: missing ? 'file is missing' : `is not valid JSON: ${(error as Error).message}`, hint: missing ? 'run the command from the project folder or pass --content DIR' : undefined });
    return undefined;
  }
}

function check<S extends z.ZodType>(data: unknown, schema: S, file: string, problems: Problem[]): z.output<S> | undefined {
  if (data === undefined) return undefined;
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  for (const { field, message } of formatIssues(result.error)) problems.push({ file: displayPath(file), field, severity: 'error', message: `${field} ${message}` });
  return undefined;
}

type RawNode = { slug: string; title: CategoryNode['title']; description: CategoryNode['description']; children: Record<string, RawNode> | null };

function toNodes(raw: Record<string, RawNode>): CategoryNode[] {
  return Object.entries(raw).map(([key, node]) => ({ key, slug: node.slug, title: node.title, description: node.description, children: node.children ? toNodes(node.children) : [] }));
}
