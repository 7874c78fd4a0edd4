/**
 * Every path of the bff's API, in one place: the bff registers its routes with them and the
 * browser calls them. A path with a parameter is a function that encodes it; the bff registers
 * it as the same path with `:name`. No zod here, so any bundle may import it for a path alone.
 * The contract modules (auth, account, orders, monitors) re-export their group beside the
 * schemas of those calls.
 */

export const AUTH_BASE_PATH = '/api/auth';

export const AUTH_PATHS = {
  session: '/api/auth/session',
  csrf: '/api/auth/csrf',
  providers: '/api/auth/providers',
  credentialsCallback: '/api/auth/callback/credentials',
  signOut: '/api/auth/signout',
  log: '/api/auth/_log',
  signUp: '/api/auth/signup',
  verify: '/api/auth/verify',
  resendVerification: '/api/auth/resend-verification',
  forgotPassword: '/api/auth/forgot-password',
  resetPassword: '/api/auth/reset-password',
  partnerSignUp: '/api/auth/partner-signup',
  /** NextAuth's own pages; the client sends people there (no providers, OAuth-style links): both lead to /auth/signin. */
  signInPage: '/api/auth/signin',
  errorPage: '/api/auth/error',
} as const;

/** Every call under it needs a session (the bff answers 401 without one). */
export const ACCOUNT_BASE_PATH = '/api/account';

export const ACCOUNT_PATHS = {
  profile: '/api/account/profile',
  profileEmail: '/api/account/profile/email',
  profilePassword: '/api/account/profile/password',
  notifications: '/api/account/notifications',
  organizations: '/api/account/organizations',
  organization: (id: string) => `/api/account/organizations/${encodeURIComponent(id)}`,
  organizationMembers: (id: string) => `/api/account/organizations/${encodeURIComponent(id)}/members`,
  organizationInvites: (id: string) => `/api/account/organizations/${encodeURIComponent(id)}/invites`,
  organizationMember: (id: string, userId: string) => `/api/account/organizations/${encodeURIComponent(id)}/members/${encodeURIComponent(userId)}`,
  organizationInvite: (id: string, inviteId: string) => `/api/account/organizations/${encodeURIComponent(id)}/invites/${encodeURIComponent(inviteId)}`,
  acceptInvite: '/api/account/invites/accept',
  contacts: '/api/account/contacts',
  contact: (id: string) => `/api/account/contacts/${encodeURIComponent(id)}`,
  supportTickets: '/api/account/support/tickets',
} as const;

/** Stripe's webhook and the built-in test payment pages (the bff's own HTML, linked from its checkout sessions). */
export const PAYMENTS_BASE_PATH = '/api/payments';

export const ORDER_PATHS = {
  checkout: '/api/account/checkout',
  checkoutState: (checkoutId: string) => `/api/account/checkout/${encodeURIComponent(checkoutId)}`,
  orders: '/api/account/orders',
  order: (orderId: string) => `/api/account/orders/${encodeURIComponent(orderId)}`,
  orderDetails: (orderId: string) => `/api/account/orders/${encodeURIComponent(orderId)}/details`,
  orderRenewal: (orderId: string) => `/api/account/orders/${encodeURIComponent(orderId)}/renewal`,
  /** POST: cancel an unpaid order. */
  orderCancel: (orderId: string) => `/api/account/orders/${encodeURIComponent(orderId)}/cancel`,
  /** POST: a payment page for exactly this unpaid order (OrderPayment). */
  orderPay: (orderId: string) => `/api/account/orders/${encodeURIComponent(orderId)}/pay`,
  transactions: '/api/account/billing/transactions',
  receipt: (transactionId: string) => `/api/account/billing/transactions/${encodeURIComponent(transactionId)}/receipt`,
  paymentMethods: '/api/account/billing/payment-methods',
  paymentMethodSetup: '/api/account/billing/payment-methods/setup',
  defaultPaymentMethod: (id: string) => `/api/account/billing/payment-methods/${encodeURIComponent(id)}/default`,
  paymentMethod: (id: string) => `/api/account/billing/payment-methods/${encodeURIComponent(id)}`,
  webhook: `${PAYMENTS_BASE_PATH}/webhook`,
} as const;

/**
 * The query parameter (value `1`) on the checkout success page's address when the payment was for
 * one order already placed (its own payment page), not for the cart: that success leaves the cart alone.
 */
export const ONE_ORDER_PAYMENT_PARAM = 'order-payment';

export const MONITOR_PATHS = {
  create: '/api/account/monitors/create',
  list: '/api/account/monitors',
  monitor: (domain: string) => `/api/account/monitors/${encodeURIComponent(domain)}`,
  check: (domain: string) => `/api/account/monitors/${encodeURIComponent(domain)}/check`,
  status: (domain: string) => `/api/account/monitors/${encodeURIComponent(domain)}/status`,
  assistant: (domain: string) => `/api/account/monitors/${encodeURIComponent(domain)}/assistant`,
  /** The browser page of one monitor (spec §2: monitors/{domain}). */
  page: (domain: string) => `/account/monitors/${encodeURIComponent(domain)}`,
} as const;

/** The public calls of the site's pages (no session). */
export const SITE_API_PATHS = {
  health: '/api/health',
  /** Whether this replica should get traffic (the database, Redis and the job queue answer). */
  ready: '/api/health/ready',
  publicConfig: '/api/public-config',
  pageView: '/api/analytics/pageview',
  clientErrors: '/api/client-errors',
  /** The bff's own newsletter endpoint, used when no mailing-list provider is configured. */
  newsletterSubscribe: '/api/newsletter/subscribe',
  contact: '/api/contact',
  cartQuote: '/api/cart/quote',
} as const;

/** The e-mail authentication tools (no session): `GET /api/tools/<tool>?…`, and the VMC validator's upload (POST to the same path). */
export const TOOLS_BASE_PATH = '/api/tools';

export const TOOL_PATHS = {
  tool: (tool: string) => `${TOOLS_BASE_PATH}/${encodeURIComponent(tool)}`,
} as const;
