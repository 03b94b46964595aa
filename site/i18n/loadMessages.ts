import path from 'node:path';
import { z } from 'zod';
import { readOwnJsonFile } from '../../shared/json.ts';
import { LIMITS } from '../../shared/limits.ts';
import type { Messages } from './translator.ts';
import { LOCALES_DIR } from '../../shared/paths.ts';
import { UI_LOCALES, type UiLocale } from '../../shared/types.ts';

/** Every value is a UI string: any other (a number, an object) passed, and t() later failed on it with a TypeError. */
const messagesSchema: z.ZodType<Messages> = z.record(z.string(), z.string());

/** Reads locales/{en,tr,ru,ko}.json; English must exist, the others fall back to it. */
export async function loadMessages(dir = LOCALES_DIR): Promise<Record<UiLocale, Messages>> {
  const all = {} as Record<UiLocale, Messages>;
  for (const ui of UI_LOCALES) {
    all[ui] = await readOwnJsonFile(
      path.join(dir, `${ui}.json`),
      messagesSchema,
      { missing: 'LOCALE_MISSING', invalid: 'LOCALE_INVALID' },
      // A file of UI strings is bounded as a settings file is: far above what one needs.
      { root: dir, maxBytes: LIMITS.settingsBytes, ...(ui === 'en' ? {} : { fallback: {} }) },
    );
  }
  return all;
}
