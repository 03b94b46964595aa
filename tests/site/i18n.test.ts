import { describe, expect, it } from 'vitest';
import { createTranslator } from '../../site/i18n/translator.ts';
import { loadMessages } from '../../site/i18n/loadMessages.ts';

describe('UI strings', () => {
  it('fills placeholders and picks the plural form the locale has', async () => {
    const messages = await loadMessages();
    const en = createTranslator('en', messages.en, messages.en);
    expect(en.t('category.count', { count: 1 })).toBe('1 article');
    expect(en.t('category.count', { count: 12 })).toBe('12 articles');
    expect(en.t('footer.copyright', { year: 2026, title: 'Felt' })).toBe('© 2026 Felt');
    expect(en.formatDate('2026-03-14')).toBe('March 14, 2026');
  });

  it('falls back to English for a key a locale lacks, and fails loudly for an unknown key', () => {
    const tr = createTranslator('tr', { 'menu.more': 'Daha fazla' }, { 'menu.more': 'More', 'menu.close': 'Close menu' });
    expect(tr.t('menu.more')).toBe('Daha fazla');
    expect(tr.t('menu.close')).toBe('Close menu');
    expect(() => tr.t('no.such.key')).toThrow(/no\.such\.key/);
    expect(tr.formatDate('2026-03-14')).toBe('14 Mart 2026');
  });

  it('has every English key in Turkish, Russian and Korean', async () => {
    const messages = await loadMessages();
    const required = Object.keys(messages.en).filter((key) => !/\.(zero|one|two|few|many)$/.test(key));
    for (const ui of ['tr', 'ru', 'ko'] as const) {
      expect(
        required.filter((key) => !(key in messages[ui])),
        ui,
      ).toEqual([]);
    }
  });
});
