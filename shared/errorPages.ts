/**
 * The site's two error pages: the path each is a page at (its page data's too) and the file it is written to, the
 * one a static host answers a missing page with (404.html). Written here once for the build, `felt serve`, `felt
 * deploy` and the browser's router, which cannot take the build's page types into its own project.
 */
export const ERROR_PAGES = {
  notFound: { path: '/404', file: '404.html' },
  serverError: { path: '/500', file: '500.html' },
} as const;
