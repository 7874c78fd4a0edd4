import { Component, lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { CartItem } from '@bimi/catalog/cart-items';
import { cart, CART_STORAGE_KEY, readStoredCart } from '@bimi/cart/store';
import { useCart } from '@bimi/cart/useCart';
import { loadOnce } from '@bimi/ui/load-once';
import type { PageProps, RouteEntry } from '@bimi/ui/RouteTable';
import { clearDetailsDrafts } from './useDetailsDrafts';

/**
 * The checkout of a cart with lines (its account step, the certificates' details and payment:
 * MUI's text fields, selects, tabs and menus) comes in a chunk of its own: an empty cart's page
 * does without it. A visitor whose stored cart has lines asks for it as soon as this module runs,
 * so it arrives while the page hydrates; until then the cart shows as loading, as the server drew
 * it. A load that failed is asked for again on Retry.
 */
const loadCartCheckout = loadOnce(() => import(/* webpackChunkName: "cart-checkout" */ './CartCheckout'));
const lazyCartCheckout = () => lazy(() => loadCartCheckout().then((module) => ({ default: module.CartCheckout })));

/**
 * What became of a payment the visitor came back from (`?checkout=`), with the orders' contract it
 * reads it with: its own chunk, which a visit without one does without, asked for as this module
 * runs when there is one. A load that failed is asked for again on Retry.
 */
const loadPaymentOutcome = loadOnce(() => import(/* webpackChunkName: "payment-outcome" */ './PaymentOutcome'));
const lazyPaymentOutcome = () => lazy(() => loadPaymentOutcome().then((module) => ({ default: module.PaymentOutcome })));
if (typeof window !== 'undefined' && new URLSearchParams(window.location.search).has('checkout')) void loadPaymentOutcome().catch(() => {});

/** Whether the visitor's cart has lines: the store's, or (before the shell has read it) the stored one. */
function cartHasLines(): boolean {
  if (cart.loaded) return cart.items.length > 0;
  try {
    return readStoredCart(window.localStorage.getItem(CART_STORAGE_KEY)).length > 0;
  } catch {
    // Storage refused (a private window): the chunk loads when the cart shows.
    return false;
  }
}
if (typeof window !== 'undefined' && cartHasLines()) void loadCartCheckout().catch(() => {});

/** webpack's error for a chunk that did not load. */
const isLoadFailure = (error: unknown) => error instanceof Error && error.name === 'ChunkLoadError';

/**
 * A part of the page whose chunk did not load (the cart's checkout, a payment's outcome): a message
 * with Retry in its place, inside the page, which stays. Any other error goes on to the remote's
 * boundary, which reports it.
 */
class ChunkBoundary extends Component<{ children: ReactNode; failed: string; onRetry: () => void }, { error: unknown }> {
  override state: { error: unknown } = { error: null };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    if (!isLoadFailure(error)) throw error;
    const retry = () => {
      this.setState({ error: null });
      this.props.onRetry();
    };
    return (
      <Alert severity="error" action={<Button onClick={retry}>Retry</Button>}>
        {this.props.failed} Check your connection, then retry.
      </Alert>
    );
  }
}

/**
 * The page's column and heading, the same element in every state (the cart loading, empty, or
 * with lines): the heading the server sent stays in place when the browser shows the cart.
 */
function CheckoutFrame({ route, lead = true, children }: { route: RouteEntry; lead?: boolean; children: ReactNode }) {
  return (
    <Box sx={{ maxWidth: 920, mx: 'auto', px: { xs: 2, md: 4 }, py: { xs: 4, md: 6 }, display: 'flex', flexDirection: 'column', gap: 3 }}>
      <Box>
        <Typography variant="h1" gutterBottom sx={{ fontSize: { xs: 30, md: 40 } }}>
          {route.title}
        </Typography>
        {lead && <Typography color="text.secondary">{route.description}</Typography>}
      </Box>
      {children}
    </Box>
  );
}

function CartLoading() {
  return (
    <Paper variant="outlined" role="status" aria-busy="true" data-testid="checkout-loading" sx={{ p: 3, borderRadius: 3 }}>
      <Typography sx={{ fontWeight: 600, mb: 1 }}>Loading your cart…</Typography>
      <Skeleton height={28} />
      <Skeleton height={28} width="70%" />
    </Paper>
  );
}

export function CheckoutPage({ route }: PageProps) {
  const { items, totalQuantities, loaded } = useCart() as unknown as { items: CartItem[]; totalQuantities: number; loaded: boolean };
  const [params] = useSearchParams();
  const returnedFrom = params.get('checkout');
  const empty = loaded && items.length === 0;
  // A new lazy component after a failed load: React keeps a rejected one rejected.
  const [CartCheckout, setCartCheckout] = useState(lazyCartCheckout);
  const [PaymentOutcome, setPaymentOutcome] = useState(lazyPaymentOutcome);
  // Details typed for lines no longer in the cart are kept no longer.
  useEffect(() => {
    if (empty) clearDetailsDrafts();
  }, [empty]);

  // The server has not read the stored cart (useCart: nor has the browser while it hydrates the
  // server's page). One frame in every state, so its heading stays the element the server sent.
  return (
    <CheckoutFrame route={route} lead={!empty}>
      {loaded && returnedFrom && (
        <ChunkBoundary failed="What became of your payment could not be loaded." onRetry={() => setPaymentOutcome(() => lazyPaymentOutcome())}>
          <Suspense fallback={null}>
            <PaymentOutcome checkoutId={returnedFrom} />
          </Suspense>
        </ChunkBoundary>
      )}
      {!loaded ? (
        <CartLoading />
      ) : empty ? (
        <Paper variant="outlined" sx={{ p: 4, borderRadius: 3, textAlign: 'center' }}>
          <Typography sx={{ fontWeight: 600 }}>Your cart is empty.</Typography>
          <Typography color="text.secondary" sx={{ mt: 1, mb: 3 }}>
            Choose a mark certificate to show your logo in the inbox, or a DMARC plan to get to enforcement.
          </Typography>
          <Button component={RouterLink} to="/products/digicert-mark-certificates" variant="contained">
            Browse certificates
          </Button>
        </Paper>
      ) : (
        <ChunkBoundary failed="Your cart could not be loaded." onRetry={() => setCartCheckout(() => lazyCartCheckout())}>
          <Suspense fallback={<CartLoading />}>
            <CartCheckout items={items} totalQuantities={totalQuantities} />
          </Suspense>
        </ChunkBoundary>
      )}
    </CheckoutFrame>
  );
}
