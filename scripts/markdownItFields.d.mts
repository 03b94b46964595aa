/** Types for scripts/markdownItFields.mjs (plain JavaScript, run by scripts/compile.mjs). */
export function assignClassFields(source: string): string;
