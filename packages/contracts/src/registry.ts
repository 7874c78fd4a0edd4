// zod/mini: the shell validates the registry before its first render, so its schemas
// must cost a few kilobytes in the browser, not the whole classic API.
import * as z from 'zod/mini';
import { lengthLimit } from './length-limit';

/**
 * The page frame a route is shown in (spec §2, layout rules). The shell owns how each
 * frame looks; a remote only says which frame each of its routes wants.
 *  - public: header and the full footer with the newsletter
 *  - enrollment: header and the small footer
 *  - auth, legal: no header, the small footer
 *  - checkout, landing: no header, the minimal copyright footer
 *  - account: the account frame (sidebar on desktop, top bar and bottom tabs on phones)
 */
export const RouteLayout = z.enum(['public', 'enrollment', 'auth', 'legal', 'checkout', 'landing', 'account']);
export type RouteLayout = z.infer<typeof RouteLayout>;

/** A route path as react-router understands it: `/faq`, `/account/monitors/:domain`, `/landing/*`. */
export const RoutePath = z
  .string()
  .check(
    lengthLimit(2048, 'Route paths are at most 2,048 characters'),
    z.regex(/^\/(?:[A-Za-z0-9._~-]+|:[A-Za-z]+|\*)?(?:\/(?:[A-Za-z0-9._~-]+|:[A-Za-z]+|\*))*$/, 'Route paths start with / and use plain segments, :params or a final *'),
  );

/** A page of this site by its path: plain segments only (no `.` or `..`), so never another site (`//host`) or a pattern. */
const SitePagePath = z
  .string()
  .check(
    lengthLimit(2048, 'Paths are at most 2,048 characters'),
    z.regex(/^(?!(?:.*\/)?\.{1,2}(?:\/|$))\/(?:[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~-]+)*)?$/, 'A route forwards to a path of this site: / and plain segments'),
  );

export const RemoteRoute = z.object({
  path: RoutePath,
  /**
   * A route that only forwards to another page of the remote (`/account` → `/account/dashboard`):
   * the bff answers its address with a redirect, and the shell's router replaces it, query kept.
   */
  redirectTo: z.optional(SitePagePath),
  /** The document title, without the site name. */
  title: z.string().check(z.minLength(1), lengthLimit(120)),
  /** The meta description search engines show. */
  description: z.optional(z.string().check(lengthLimit(320))),
  layout: RouteLayout,
  /** `white`: a white header from the top (spec §2 list); `fade`: the background fades in over 20px of scroll. */
  header: z._default(z.enum(['white', 'fade']), 'fade'),
  /**
   * The query parameters the page reads when it first renders (`?domain=` of a checker, `?edit=` of
   * a configurator): the bff renders the page on the server with these alone and keeps one answer
   * per their values. Any other parameter is left to the browser, so `?u=<random>` neither renders
   * the page again nor pushes other pages out of the cache (issue 31).
   */
  query: z.optional(
    z
      .array(z.string().check(lengthLimit(32, 'Query parameter names are plain words'), z.regex(/^[A-Za-z][A-Za-z0-9_-]{0,31}$/, 'Query parameter names are plain words')))
      .check(lengthLimit(16)),
  ),
  /**
   * The page is static (text, pictures, links; nothing else answers a tap): when the server
   * rendered it, the browser keeps the server's markup and loads none of the remote's code for it;
   * the remote loads when the visitor goes to another of its pages.
   */
  static: z.optional(z.boolean()),
});
export type RemoteRoute = z.infer<typeof RemoteRoute>;

const RemoteName = z.string().check(lengthLimit(64, 'Remote names are lowercase identifiers'), z.regex(/^[a-z][a-z0-9_]*$/, 'Remote names are lowercase identifiers'));

/** What a remote publishes beside its build as routes.json: the routes it owns. */
export const RemoteRouteTable = z.object({
  remote: RemoteName,
  routes: z.array(RemoteRoute).check(z.minLength(1)),
});
export type RemoteRouteTable = z.infer<typeof RemoteRouteTable>;

export const RegistryEntry = z.object({
  /** The federation container name, also the remote's folder under /mfe/. */
  name: RemoteName,
  /** URL of the remote's mf-manifest.json; absolute or relative to the site. */
  entry: z.string().check(z.minLength(1)),
  version: z.optional(z.string()),
  routes: z.array(RemoteRoute),
});
export type RegistryEntry = z.infer<typeof RegistryEntry>;

/** GET /remotes.json: the runtime registry the shell composes the site from. */
export const Registry = z.object({
  remotes: z.array(RegistryEntry),
});
export type Registry = z.infer<typeof Registry>;
