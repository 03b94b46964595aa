/**
 * Line numbers for fields of a JSON file, so a schema problem in site.json
 * or authors.json can be printed as file:line like one in an article.
 * JSON.parse keeps no positions; this small scanner records the line of every
 * key and array element by its dotted path ("home.pageSize", "3.name").
 */
export function jsonFieldLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  let i = 0;
  let line = 1;
  const skipSpace = () => {
    while (i < text.length && /\s/.test(text[i]!)) {
      if (text[i] === '\n') line++;
      i++;
    }
  };
  const readString = (): string => {
    let out = '';
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') {
        out += text[i + 1] ?? '';
        i += 2;
        continue;
      }
      out += text[i];
      i++;
    }
    i++;
    return out;
  };
  const join = (prefix: string, key: string) => (prefix ? `${prefix}.${key}` : key);
  const readValue = (prefix: string): void => {
    skipSpace();
    const c = text[i];
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      for (let index = 0; i < text.length; index++) {
        skipSpace();
        if (text[i] === close) break;
        if (c === '{') {
          if (text[i] !== '"') return;
          const at = line;
          const key = join(prefix, readString());
          lines.set(key, at);
          skipSpace();
          i++; // the colon
          readValue(key);
        } else {
          skipSpace();
          lines.set(join(prefix, String(index)), line);
          readValue(join(prefix, String(index)));
        }
        skipSpace();
        if (text[i] !== ',') break;
        i++;
      }
      i++;
    } else if (c === '"') {
      readString();
    } else {
      while (i < text.length && !/[,\]}\s]/.test(text[i]!)) i++;
    }
  };
  readValue('');
  return lines;
}

/** The line of a field, or of its nearest ancestor that exists (a missing field is reported where its parent is). */
export function lineOfField(lines: Map<string, number>, field: string): number | undefined {
  const parts = field.split('.');
  while (parts.length) {
    const found = lines.get(parts.join('.'));
    if (found !== undefined) return found;
    parts.pop();
  }
  return undefined;
}

/** 1-based line of a character offset, for JSON.parse's "at position N". */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text[i] === '\n') line++;
  return line;
}
