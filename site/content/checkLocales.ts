/**
 * Checks of the UI strings in locales/{en,tr,ru,ko}.json for `felt check`:
 * every English string exists in every display locale (plural forms such as
 * "key.one" are optional, Intl.PluralRules falls back to the plain key), no
 * string is empty, and a translation uses the placeholders English uses, so
 * "{count} articles" never renders as a literal "{sayı}".
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Problem } from '../../shared/errors.ts';
import { parseJson } from '../../shared/jsonSource.ts';
import { displayPath, LOCALES_DIR } from '../../shared/paths.ts';
import { UI_LOCALES, type UiLocale } from '../../shared/types.ts';

const PLURAL_FORM = /\.(zero|one|two|few|many|other)$/;

export interface LocaleCheck {
  problems: Problem[];
  /** Strings in en.json: what every other locale must have. */
  strings: number;
}

interface LocaleFile {
  ui: UiLocale;
  file: string;
  strings: Record<string, string>;
  /** Every key in the file, usable or not (an empty one is reported once, as empty). */
  keys: Set<string>;
  lineOf(key: string): number;
}

export async function checkUiLocales(dir = LOCALES_DIR): Promise<LocaleCheck> {
  const problems: Problem[] = [];
  const files: LocaleFile[] = [];
  for (const ui of UI_LOCALES) {
    const loaded = await readLocale(ui, path.join(dir, `${ui}.json`), problems);
    if (loaded) files.push(loaded);
  }
  const en = files.find((f) => f.ui === 'en');
  if (!en) return { problems, strings: 0 };
  for (const key of Object.keys(en.strings)) {
    const base = key.replace(PLURAL_FORM, '');
    if (base !== key && !(base in en.strings)) {
      problems.push({ file: en.file, line: en.lineOf(key), field: key, severity: 'error', message: `plural form "${key}" has no plain "${base}"`, hint: `add "${base}": it is the default form and the one other locales must have` });
    }
  }
  for (const other of files) if (other !== en) problems.push(...compareWithEnglish(other, en));
  return { problems, strings: Object.keys(en.strings).filter((k) => !PLURAL_FORM.test(k)).length };
}

async function readLocale(ui: UiLocale, full: string, problems: Problem[]): Promise<LocaleFile | undefined> {
  const file = displayPath(full);
  let text: string;
  try {
    text = await readFile(full, 'utf8');
  } catch {
    problems.push({ file, severity: 'error', message: 'file is missing', hint: ui === 'en' ? 'restore locales/en.json: every UI string comes from it' : `copy locales/en.json to locales/${ui}.json and translate every string` });
    return undefined;
  }
  const parsed = parseJson(text);
  if (!parsed.ok) {
    problems.push({ file, line: parsed.error.line, severity: 'error', message: `is not valid JSON: ${parsed.error.message}`, hint: 'fix the JSON syntax' });
    return undefined;
  }
  const data = parsed.json.value;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    problems.push({ file, line: 1, severity: 'error', message: 'must be one JSON object of "key": "string" pairs' });
    return undefined;
  }
  const lineOf = (key: string) => parsed.json.lineOf([key]);
  const strings: Record<string, string> = {};
  for (const [key, value] of Object.entries(data)) {
    const at = { file, line: lineOf(key), field: key };
    if (typeof value !== 'string') problems.push({ ...at, severity: 'error', message: `UI string "${key}" must be a string, not ${Array.isArray(value) ? 'an array' : typeof value}` });
    else if (value.trim() === '') problems.push({ ...at, severity: 'error', message: `UI string "${key}" is empty`, hint: 'translate it, or remove the key to fall back to English' });
    else strings[key] = value;
  }
  return { ui, file, strings, keys: new Set(Object.keys(data)), lineOf };
}

function compareWithEnglish(locale: LocaleFile, en: LocaleFile): Problem[] {
  const problems: Problem[] = [];
  for (const key of Object.keys(en.strings)) {
    if (PLURAL_FORM.test(key) || locale.keys.has(key)) continue;
    problems.push({ file: locale.file, field: key, severity: 'error', message: `UI string "${key}" is missing (English: "${en.strings[key]}")`, hint: `add "${key}" to ${locale.file}` });
  }
  for (const [key, value] of Object.entries(locale.strings)) {
    const base = key.replace(PLURAL_FORM, '');
    const english = en.strings[key] ?? en.strings[base];
    const at = { file: locale.file, line: locale.lineOf(key), field: key };
    if (english === undefined) {
      problems.push({ ...at, severity: 'warning', message: `UI string "${key}" is not in en.json, so nothing uses it`, hint: 'remove it, or add it to en.json first' });
      continue;
    }
    const expected = placeholders(english);
    const found = placeholders(value);
    const unknown = [...found].filter((name) => !expected.has(name));
    // A plural form may leave out the number ("one article" in words); the plain string may not.
    const dropped = base === key ? [...expected].filter((name) => !found.has(name)) : [];
    if (unknown.length || dropped.length) {
      problems.push({ ...at, severity: 'error', message: `placeholders ${show(found)} differ from English ${show(expected)}`, hint: `use exactly ${show(expected)}; placeholders are not translated` });
    }
  }
  return problems;
}

function placeholders(template: string): Set<string> {
  return new Set([...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!));
}

function show(names: Set<string>): string {
  return names.size ? [...names].map((n) => `{${n}}`).join(' ') : '(none)';
}
