/**
 * The settings files of a content folder: site.json, categories.json and
 * authors.json. Their schemas live here, and this is the one place they are
 * read: by the build (loadContent), by the pipeline commands (cli/project)
 * and by the server (the proxy allowlist). Each file is strict JSON and every
 * problem names its file, line and field. Their names and how they are read
 * are settingsFiles.ts's, which reads one unvalidated where zod must not load.
 */
import path from 'node:path';
import { z } from 'zod';
import { ContentError, type Problem } from './errors.ts';
import { readJsonFile } from './json.ts';
import { SETTINGS_FILES, settingsReading } from './settingsFiles.ts';
import { CONTENT_LOCALES, type Author, type CategoryNode, type SiteSettings } from './types.ts';
import { httpUrl, localized, siteUrl, slug, text } from './validation.ts';

// Strict objects: a field felt does not know is an error naming it, not dropped without a word. A misspelt optional
// field ("budjet") left the night without its spending cap, and `felt check` passed.
export const siteSettingsSchema = z.strictObject({
  /** An editor's JSON Schema reference ("$schema": "…"), which editors add by themselves: allowed, and not read. */
  $schema: z.string().optional(),
  title: text,
  tagline: localized,
  brand: slug,
  url: siteUrl,
  email: z.string().regex(/^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/, 'must be an e-mail address'),
  social: z.strictObject({ video: httpUrl, social: httpUrl, photo: httpUrl }),
  locale: z.enum(CONTENT_LOCALES),
  localeUrls: z.partialRecord(z.enum(CONTENT_LOCALES), siteUrl).optional(),
  home: z.strictObject({
    moreAwesomeStuff: z.number().int().min(1).max(50),
    ourBestStories: z.number().int().min(1).max(100),
    updatedArticles: z.number().int().min(1).max(50),
    pageSize: z.number().int().min(1).max(200),
    perCategory: z.number().int().min(1).max(20),
  }),
  sponsored: z.strictObject({ style: z.enum(['inline', 'list', 'block']), limit: z.number().int().min(1).optional() }),
  storage: z.strictObject({
    prefix: slug,
    // Both optional, as the README says: a new project's storage is a local folder that runs offline.
    backend: z.enum(['local', 'gcs']).default('local'),
    localRoot: text.default('.buckets'),
    /** Google Cloud project of the buckets (GCS only); GOOGLE_CLOUD_PROJECT wins, the prefix is the default. */
    projectId: text.optional(),
    /** Another GCS endpoint (an emulator); --storage-endpoint wins. */
    apiEndpoint: httpUrl.optional(),
  }),
  proxy: z.strictObject({ allow: z.array(z.string().regex(/^[a-z0-9.-]+$/i, 'must be a host name')) }),
  generation: z.strictObject({
    model: text,
    prices: z.record(z.string(), z.strictObject({ input: z.number().min(0), output: z.number().min(0) })),
    budget: z.number().positive().optional(),
    duplicateThreshold: z.number().gt(0).max(1).optional(),
    breaker: z.number().int().min(1).optional(),
    /** Optional: a cover picture per article from the provider's images API (cli/generate/images.ts). */
    images: z
      .strictObject({
        model: text,
        size: z
          .string()
          .regex(/^(\d{3,4}x\d{3,4}|auto)$/, 'must be WIDTHxHEIGHT, like 1536x1024, or auto')
          .optional(),
        quality: z.enum(['low', 'medium', 'high', 'auto', 'standard', 'hd']).optional(),
      })
      .optional(),
  }),
}) satisfies z.ZodType<SiteSettings>;

interface RawCategory {
  slug: string;
  title: z.infer<typeof localized>;
  description: z.infer<typeof localized>;
  children: Record<string, RawCategory> | null;
}

const categoryKey = z.string().regex(/^[a-z][A-Za-z0-9]*$/, 'keys must be camelCase');

const categoryNode: z.ZodType<RawCategory> = z.lazy(() =>
  z.strictObject({
    slug,
    title: localized,
    description: localized,
    children: z.record(categoryKey, categoryNode).nullable(),
  }),
);

export const categoriesSchema = z.record(categoryKey, categoryNode);

const authorSchema = z.strictObject({
  name: text,
  slug,
  description: text,
  meta_title: text,
  meta_description: text,
}) satisfies z.ZodType<Author>;

export const authorsSchema = z.array(authorSchema).min(1, 'must list at least one author');

export interface Settings {
  settings: SiteSettings;
  categories: CategoryNode[];
  authors: Author[];
}

export { SETTINGS_FILES };

/**
 * The three settings files of a content folder, each validated. Every
 * problem is added to `problems`; a file with any problem is left out.
 */
export async function readSettingsFiles(contentDir: string, problems: Problem[]): Promise<Partial<Settings>> {
  const read = <S extends z.ZodType>(name: string, schema: S) => readJsonFile(path.join(contentDir, name), schema, problems, settingsReading(contentDir));
  const settings = await read(SETTINGS_FILES.settings, siteSettingsSchema);
  const categories = await read(SETTINGS_FILES.categories, categoriesSchema);
  const authors = await read(SETTINGS_FILES.authors, authorsSchema);
  return { settings, categories: categories && toCategoryNodes(categories), authors };
}

/** site.json alone, for what needs only the settings (the server's proxy allowlist); a ContentError lists its problems. */
export async function readSiteSettings(contentDir: string): Promise<SiteSettings> {
  const problems: Problem[] = [];
  const settings = await readJsonFile(path.join(contentDir, SETTINGS_FILES.settings), siteSettingsSchema, problems, settingsReading(contentDir));
  if (!settings) throw new ContentError(problems);
  return settings;
}

function toCategoryNodes(raw: Record<string, RawCategory>): CategoryNode[] {
  return Object.entries(raw).map(([key, node]) => ({
    key,
    slug: node.slug,
    title: node.title,
    description: node.description,
    children: node.children ? toCategoryNodes(node.children) : [],
  }));
}
