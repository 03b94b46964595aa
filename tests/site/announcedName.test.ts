import { describe, expect, it } from 'vitest';
import { announcedName } from '../../site/client/navigation/notices.ts';

describe('what "Navigated to …" names', () => {
  it("names an archive page's number, which its heading (the listing's) leaves out", () => {
    expect(announcedName('Betting Strategies', 'Betting Strategies (Page 2) | Felt Magazine')).toBe('Betting Strategies (Page 2)');
    expect(announcedName('Mara Lindqvist', 'Mara Lindqvist — Bankroll Writer (Page 1) | Felt Magazine')).toBe('Mara Lindqvist — Bankroll Writer (Page 1)');
  });

  it('names other pages by their heading, as before', () => {
    expect(announcedName('Bankroll Management: How to Size Your Bets', 'Bankroll Management: How to Size Your Bets | Felt Magazine')).toBe(
      'Bankroll Management: How to Size Your Bets',
    );
    // A title that is not the heading and more: the heading.
    expect(announcedName('Felt Magazine', 'Felt Magazine: betting and poker, explained')).toBe('Felt Magazine');
    expect(announcedName('Page not found', 'Page not found | Felt Magazine')).toBe('Page not found');
    // A heading with " | " in it is kept whole.
    expect(announcedName('Odds | Explained', 'Odds | Explained | Felt Magazine')).toBe('Odds | Explained');
    // No heading: the title.
    expect(announcedName('', 'Search | Felt Magazine')).toBe('Search | Felt Magazine');
  });
});
