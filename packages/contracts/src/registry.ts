import { z } from 'zod';

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
  .regex(/^\/(?:[A-Za-z0-9._~-]+|:[A-Za-z]+|\*)?(?:\/(?:[A-Za-z0-9._~-]+|:[A-Za-z]+|\*))*$/, 'Route paths start with / and use plain segments, :params or a final *');

export const RemoteRoute = z.object({
  path: RoutePath,
  /** The document title, without the site name. */
  title: z.string().min(1).max(120),
  layout: RouteLayout,
  /** `white`: a white header from the top (spec §2 list); `fade`: the background fades in over 20px of scroll. */
  header: z.enum(['white', 'fade']).default('fade'),
});
export type RemoteRoute = z.infer<typeof RemoteRoute>;

/** What a remote publishes beside its build as routes.json: the routes it owns. */
export const RemoteRouteTable = z.object({
  remote: z.string().regex(/^[a-z][a-z0-9_]*$/),
  routes: z.array(RemoteRoute).min(1),
});
export type RemoteRouteTable = z.infer<typeof RemoteRouteTable>;

export const RegistryEntry = z.object({
  /** The federation container name, also the remote's folder under /mfe/. */
  name: z.string().regex(/^[a-z][a-z0-9_]*$/),
  /** URL of the remote's mf-manifest.json; absolute or relative to the site. */
  entry: z.string().min(1),
  version: z.string().optional(),
  routes: z.array(RemoteRoute),
});
export type RegistryEntry = z.infer<typeof RegistryEntry>;

/** GET /remotes.json: the runtime registry the shell composes the site from. */
export const Registry = z.object({
  remotes: z.array(RegistryEntry),
});
export type Registry = z.infer<typeof Registry>;
