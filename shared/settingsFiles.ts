/**
 * The settings files of a content folder (site.json, categories.json,
 * authors.json) and how each is read: inside the content folder, at most
 * LIMITS.settingsBytes, strict JSON (jsonSource.ts). settings.ts validates
 * them with their schemas. What needs one of them at a cold build's start,
 * before the schemas' zod is loaded (80 ms), reads it here to its value, by
 * the same reading: the early share cards (site/pictures/earlyCards.ts).
 */
import path from 'node:path';
import type { InputLimits } from './inputFile.ts';
import { readJsonSource } from './jsonSource.ts';
import { LIMITS } from './limits.ts';

export const SETTINGS_FILES = { settings: 'site.json', categories: 'categories.json', authors: 'authors.json' } as const;

export type SettingsFile = keyof typeof SETTINGS_FILES;

const MISSING_HINT = 'create it (see README, "Configuration"), or name the content folder with --content';

/** How a settings file of `contentDir` is read: its limits, and what to do about it missing. */
export function settingsReading(contentDir: string): InputLimits & { missingHint: string } {
  return { root: contentDir, maxBytes: LIMITS.settingsBytes, missingHint: MISSING_HINT };
}

/**
 * A settings file's value, not validated; undefined when it is missing, or refused (what it is, its size, its
 * syntax) as the settings loader refuses it. The loader names the problem: this says nothing.
 */
export async function readSettingsValue(contentDir: string, file: SettingsFile): Promise<unknown> {
  const read = await readJsonSource(path.join(contentDir, SETTINGS_FILES[file]), [], settingsReading(contentDir));
  return read.kind === 'json' ? read.json.value : undefined;
}
