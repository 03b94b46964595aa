/**
 * Whether a date names a day the calendar has, in one place for the article schema, the frontmatter's timestamps
 * and the --date flag. Date and YAML roll 2026-02-30 over to March 2 without a word, so a day is real only when it
 * comes back unchanged. No dependencies: the CLI checks its flags with it before zod or yaml load.
 */

/** `iso` is YYYY-MM-DD and a day the calendar has (no February 30, no April 31, no month 13). */
export function isCalendarDay(iso: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso)) return false;
  const day = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(iso);
}
