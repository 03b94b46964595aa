/**
 * Assembles the messages of one article request from prompts/ (the base
 * prompt of the locale, the category's guidance, the request and re-ask
 * templates) and the locale rules. Templates use {{name}}; a placeholder
 * without a value is an error, so a typo never reaches the model.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { FeltError } from '../../shared/errors.ts';
import { PROMPTS_DIR } from '../../shared/paths.ts';
import type { ContentLocale } from '../../shared/types.ts';
import type { Slot } from './plan.ts';
import type { LocaleRules } from './rules.ts';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface PromptContext {
  siteTitle: string;
  locale: ContentLocale;
  rules: LocaleRules;
  slotTotal: number;
  /** Titles already published or generated in the slot's category, those of its subcategory first, newest first. */
  existingTitles: (categoryKey: string, subcategoryKey?: string) => string[];
}

const MAX_TITLES_SHOWN = 40;

export class PromptBook {
  private readonly cache = new Map<string, string>();
  constructor(private readonly dir = PROMPTS_DIR) {}

  async messages(slot: Slot, context: PromptContext): Promise<ChatMessage[]> {
    const { category, subcategory } = slot.target;
    const { rules } = context;
    const system = fill(await this.read(`${context.locale}/system.md`), {
      siteTitle: context.siteTitle,
      languageName: rules.languageName,
      responseLanguage: rules.responseLanguage,
      styleRules: rules.styleRules.map((r) => `- ${r}`).join('\n'),
      ...rules.sourceDomains,
      minWords: String(rules.minWords),
      maxWords: String(rules.maxWords),
      minSections: String(rules.minSections),
    });
    const titles = context.existingTitles(category.key, subcategory.key).slice(0, MAX_TITLES_SHOWN);
    const leaves = subcategory.children.map((c) => c.title.en);
    const user = fill(await this.read('request.md'), {
      slotNumber: String(slot.index + 1),
      slotTotal: String(context.slotTotal),
      categoryTitle: category.title.en,
      categoryDescription: category.description.en,
      subcategoryTitle: subcategory.title.en,
      subsubcategoryHint: leaves.length
        ? `Choose subsubcategories among: ${leaves.join(', ')}.`
        : 'Name two to four specific topics of the article as subsubcategories.',
      categoryGuidance: (await this.read(`categories/${category.key}.md`, '')).trim() || '(none)',
      existingTitles: titles.length ? titles.map((t) => `- ${t}`).join('\n') : '- (none yet)',
    });
    return [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ];
  }

  async reask(reason: string): Promise<string> {
    return fill(await this.read('reask.md'), { reason });
  }

  private async read(name: string, fallback?: string): Promise<string> {
    const cached = this.cache.get(name);
    if (cached !== undefined) return cached;
    const file = path.join(this.dir, name);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      if (fallback === undefined) throw new FeltError('PROMPT_MISSING', 'prompt template is missing', { file });
      text = fallback;
    }
    this.cache.set(name, text);
    return text;
  }
}

export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new FeltError('PROMPT_PLACEHOLDER', `prompt placeholder {{${name}}} has no value`);
    return value;
  });
}
