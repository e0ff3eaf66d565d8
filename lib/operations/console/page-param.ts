import { notFound } from "next/navigation";

/** Deepest console list page reachable by ?page= (PAGE_SIZE rows each); past it, narrow the filter. */
export const MAX_CONSOLE_PAGE = 10_000;

/**
 * The `?page=` of a console list: absent is 1, else a whole number from 1 to MAX_CONSOLE_PAGE.
 * Anything else (`1e20`, `-1`, `1.5`, `abc`) is the console's 404 page: a page component cannot
 * answer 400, and such a page does not exist (before, NaN or a huge offset reached SQL: a 500).
 */
export function pageParam(value: string | undefined): number {
  if (value === undefined || value === "") return 1;
  if (!/^[1-9][0-9]{0,4}$/.test(value) || Number(value) > MAX_CONSOLE_PAGE) notFound();
  return Number(value);
}
