import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readStateText } from '../../shared/stateText.ts';
import { tempDir } from '../site/helpers.ts';

describe('reading a state file as text', () => {
  it('reads ASCII and UTF-8 files as they were written', async () => {
    const dir = await tempDir();
    for (const text of ['{"rows":[["a.md",1,2]]}\n', 'Турнир: ставки, şans, 🂡 — "quoted"\0next', '']) {
      const file = path.join(dir, 'state.txt');
      writeFileSync(file, text);
      expect(readStateText(file)).toBe(text);
    }
  });
});
