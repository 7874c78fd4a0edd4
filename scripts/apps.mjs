// The five front-end builds, in the order they are built.
export const FRONTEND_APPS = ['shell', 'mfe-storefront', 'mfe-checkout', 'mfe-account', 'mfe-tools'];
