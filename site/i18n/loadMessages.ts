import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { FeltError } from '../../shared/errors.ts';
import type { Messages } from './translator.ts';
import { LOCALES_DIR } from '../../shared/paths.ts';
import { UI_LOCALES, type UiLocale } from '../../shared/types.ts';

/** Reads locales/{en,tr,ru,ko}.json; English must exist, the others fall back to it. */
export async function loadMessages(dir = LOCALES_DIR): Promise<Record<UiLocale, Messages>> {
  const all = {} as Record<UiLocale, Messages>;
  for (const ui of UI_LOCALES) {
    const file = path.join(dir, `${ui}.json`);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      if (ui === 'en') throw new FeltError('LOCALE_MISSING', `${file} is missing`, { file });
      all[ui] = {};
      continue;
    }
    try {
      all[ui] = JSON.parse(text) as Messages;
    } catch (error) {
      throw new FeltError('LOCALE_INVALID', `is not valid JSON: ${(error as Error).message}`, { file });
    }
  }
  return all;
}
