import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import AddOutlined from '@mui/icons-material/AddOutlined';
import DeleteOutlineOutlined from '@mui/icons-material/DeleteOutlineOutlined';
import EditOutlined from '@mui/icons-material/EditOutlined';
import LockOutlined from '@mui/icons-material/LockOutlined';
import RemoveOutlined from '@mui/icons-material/RemoveOutlined';
import type { CartItem } from '@bimi/catalog/cart-items';
import { formatUsd } from '@bimi/catalog/prices';
import { maxQuantityOf, overChargeLimitMessage } from '@bimi/catalog/quote';
import { cartSalesMessage, salesContactPath } from '@bimi/catalog/sales';
import { decreaseQuantity, increaseQuantity, removeItem } from '@bimi/cart/store';
import type { Contact, ContactInput, Organization } from '@bimi/contracts/account';
import { ACCOUNT_PATHS } from '@bimi/contracts/api-paths';
import { addMonths, longDate } from '@bimi/contracts/dates';
import { CheckoutStarted, DUPLICATE_CERTIFICATE_CODE, ORDER_PATHS, PAYMENT_BEING_CONFIRMED_CODE, type CheckoutLine } from '@bimi/contracts/orders';
import { useSession } from '@bimi/session/useSession';
import { ApiFailure, callApi, failureMessage } from '@bimi/session/api';
import { editLink } from '../../lib/edit-link';
import { AccountStep } from './AccountStep';
import { CertificateDetailsForm } from '@bimi/ui/CertificateDetailsForm';
import { checkDetails, emptyDraft, type DetailsErrors } from '@bimi/ui/certificate-details';
import { billingTermOf, describeOptions, isCertificateItem, quoteLineOf } from './lines';
import { useDetailsDrafts } from './useDetailsDrafts';
import { useQuote } from './useQuote';

function Section({ step, title, children, id }: { step: number; title: string; children: ReactNode; id: string }) {
  return (
    <Paper component="section" variant="outlined" aria-labelledby={id} sx={{ p: { xs: 2, md: 3 }, borderRadius: 3 }}>
      <Typography id={id} component="h2" variant="h3" sx={{ mb: 2, fontSize: { xs: 20, md: 22 } }}>
        <Box component="span" sx={{ color: 'text.secondary', mr: 1 }}>
          {step}.
        </Box>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

function lineName(item: CartItem): string {
  return item.logoCount > 1 ? `${item.name}, logo ${item.logoIndex} of ${item.logoCount}` : item.name;
}

/**
 * A cart above the payment provider's one-charge limit (the quote says it is not payable): the way
 * to sales, as the configurator offers past 250 domains, with the cart written into the message.
 */
function TalkToSales({ items, total }: { items: readonly CartItem[]; total: number }) {
  const message = cartSalesMessage(
    items.map((item) => ({ name: item.name, description: describeOptions(item), quantity: item.quantity })),
    formatUsd(total),
  );
  return (
    <Alert
      severity="warning"
      data-testid="talk-to-sales"
      sx={{ mt: 2, '& .MuiAlert-message': { minWidth: 0 } }}
      action={
        <Button component={RouterLink} to={salesContactPath(message)} variant="contained" size="small" data-testid="talk-to-sales-link" sx={{ whiteSpace: 'nowrap' }}>
          Talk to sales
        </Button>
      }
    >
      {overChargeLimitMessage(total)}
    </Alert>
  );
}

function ReviewLine({ item, items, amount }: { item: CartItem; items: readonly CartItem[]; amount: number | null }) {
  const term = billingTermOf(item);
  const renews = addMonths(new Date(), term.months);
  const edit = editLink(item, items);
  return (
    <Box
      component="li"
      data-testid="checkout-line"
      data-product={item.id}
      sx={{ listStyle: 'none', py: 2, borderBottom: '1px solid', borderColor: 'divider', '&:last-of-type': { borderBottom: 0 } }}
    >
      <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2 }}>
        <Box sx={{ minWidth: 0 }}>
          <Typography sx={{ fontWeight: 600 }}>{item.name}</Typography>
          <Typography variant="body2" color="text.secondary" data-testid="checkout-line-options">
            {describeOptions(item)}
          </Typography>
        </Box>
        <Typography data-testid="checkout-line-amount" data-cents={amount ?? undefined} sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
          {amount === null ? <Skeleton width={80} /> : formatUsd(amount)}
        </Typography>
      </Box>
      <Typography variant="body2" sx={{ mt: 0.5 }} data-testid="checkout-line-billing">
        Billed {term.every}; renews on {longDate(renews.toISOString())} unless you turn renewal off.
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 1 }}>
        {isCertificateItem(item) ? (
          // As in the cart drawer: a certificate line is one certificate for one logo, changed with Edit, not +/-.
          <>
            {item.quantity > 1 && (
              <Typography variant="body2" color="text.secondary" data-testid="checkout-line-quantity">
                {item.quantity} certificates
              </Typography>
            )}
            {edit && (
              <Button size="small" component={RouterLink} to={edit} startIcon={<EditOutlined />} aria-label={`Edit ${lineName(item)}`}>
                Edit
              </Button>
            )}
          </>
        ) : maxQuantityOf(item) > 1 ? (
          // A DMARC plan is bought once (a larger volume, not copies): no quantity to change.
          <>
            <IconButton
              size="small"
              aria-label={`Decrease quantity of ${lineName(item)}`}
              disabled={item.quantity <= 1}
              onClick={() => decreaseQuantity(item.uniqueId)}
              sx={{ border: '1px solid', borderColor: 'divider' }}
            >
              <RemoveOutlined fontSize="small" />
            </IconButton>
            <Typography aria-label={`Quantity of ${lineName(item)}`} data-testid="checkout-line-quantity" sx={{ minWidth: 24, textAlign: 'center' }}>
              {item.quantity}
            </Typography>
            <IconButton
              size="small"
              aria-label={`Increase quantity of ${lineName(item)}`}
              disabled={item.quantity >= maxQuantityOf(item)}
              onClick={() => increaseQuantity(item.uniqueId)}
              sx={{ border: '1px solid', borderColor: 'divider' }}
            >
              <AddOutlined fontSize="small" />
            </IconButton>
          </>
        ) : null}
        <Box sx={{ flex: 1 }} />
        <Button size="small" color="error" startIcon={<DeleteOutlineOutlined />} onClick={() => removeItem(item.uniqueId)} aria-label={`Remove ${lineName(item)}`}>
          Remove
        </Button>
      </Box>
    </Box>
  );
}

/**
 * The account's schemas, loaded with the first signed-in use: they bring the phone rules
 * (libphonenumber, about 35 KB gzip), which an anonymous visitor's checkout never needs.
 */
const accountSchemas = () => import('@bimi/contracts/account');

/** Organizations and contacts of the signed-in buyer, for the details, made here when missing; read again when the tab regains focus (one may have been added in another tab). */
function useAccountChoices(signedIn: boolean) {
  const [organizations, setOrganizations] = useState<Organization[]>([]);
  const [contacts, setContacts] = useState<Contact[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const load = useCallback(() => {
    if (!signedIn) return;
    accountSchemas()
      .then(({ OrganizationList, ContactList }) =>
        Promise.all([callApi(ACCOUNT_PATHS.organizations, { answer: OrganizationList }), callApi(ACCOUNT_PATHS.contacts, { answer: ContactList })]),
      )
      .then(
        ([o, c]) => {
          setOrganizations(o.organizations);
          setContacts(c.contacts);
          setFailure(null);
        },
        (error: unknown) => setFailure(failureMessage(error)),
      );
  }, [signedIn]);
  useEffect(() => {
    load();
    window.addEventListener('focus', load);
    return () => window.removeEventListener('focus', load);
  }, [load]);
  const createOrganization = async (name: string) => {
    try {
      const { Organization } = await accountSchemas();
      const created = await callApi(ACCOUNT_PATHS.organizations, { method: 'POST', body: { name }, answer: Organization });
      setOrganizations((list) => [...list, created]);
      return created.id;
    } catch (error) {
      throw new Error(failureMessage(error));
    }
  };
  const createContact = async (input: ContactInput) => {
    try {
      const { Contact } = await accountSchemas();
      const created = await callApi(ACCOUNT_PATHS.contacts, { method: 'POST', body: input, answer: Contact });
      setContacts((list) => [...list, created]);
      return created;
    } catch (error) {
      throw new Error(failureMessage(error));
    }
  };
  return { organizations, contacts, failure, createOrganization, createContact, reload: load };
}

/**
 * Checkout of a cart with lines: the review, the account, the certificates' details and payment,
 * in the page's frame (CheckoutPage). Its own chunk, so an empty cart's page does without its forms.
 */
export function CartCheckout({ items, totalQuantities }: { items: CartItem[]; totalQuantities: number }) {
  const { data: session } = useSession();
  const signedIn = Boolean(session);
  const quote = useQuote(items);
  const certificates = useMemo(() => items.filter(isCertificateItem), [items]);
  const { drafts, setDraft } = useDetailsDrafts(items.map((i) => i.uniqueId));
  const choices = useAccountChoices(signedIn);
  const [errors, setErrors] = useState<Record<string, DetailsErrors>>({});
  const [accepted, setAccepted] = useState({ terms: false, refunds: false });
  const [failure, setFailure] = useState<string | null>(null);
  const [duplicate, setDuplicate] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [paying, setPaying] = useState(false);

  const detailsOf = (item: CartItem) =>
    drafts[item.uniqueId] ?? { draft: emptyDraft(item.options.domain, { trademarkStatus: item.trademarkStatus, agencyLevel: item.agencyLevel }), later: false };

  const pay = async (confirmDuplicates = false) => {
    setFailure(null);
    setConfirming(null);
    if (quote.status !== 'ready') return;
    const found: Record<string, DetailsErrors> = {};
    const lines: CheckoutLine[] = items.map((item) => {
      const line: CheckoutLine = quoteLineOf(item);
      if (!isCertificateItem(item)) return line;
      if (item.logoCount > 1) line.logo = { index: item.logoIndex, count: item.logoCount };
      const { draft, later } = detailsOf(item);
      if (later) return line;
      const checked = checkDetails(draft, item.id);
      if (checked.errors) found[item.uniqueId] = checked.errors;
      else line.details = checked.details;
      return line;
    });
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setFailure('Some certificate details are missing or not valid. Complete them, or choose "Finish these details later" for that certificate.');
      return;
    }
    setPaying(true);
    try {
      setDuplicate(null);
      const started = await callApi(ORDER_PATHS.checkout, {
        method: 'POST',
        body: { items: lines, acceptTerms: true, ...(confirmDuplicates && { confirmDuplicates }) },
        answer: CheckoutStarted,
      });
      // The cart stays as it is until the payment is confirmed on the success page.
      window.location.assign(started.url);
    } catch (error) {
      // The same certificate bought before (409): the buyer reads why and confirms, or not.
      if (error instanceof ApiFailure && error.code === DUPLICATE_CERTIFICATE_CODE) setDuplicate(error.message);
      // The last payment went through and is being confirmed: news, not a failure.
      else if (error instanceof ApiFailure && error.code === PAYMENT_BEING_CONFIRMED_CODE) setConfirming(error.message);
      else setFailure(failureMessage(error));
      setPaying(false);
    }
  };

  const amounts = quote.status === 'ready' ? quote.quote.items.map((q) => q.amount) : null;
  const overLimit = quote.status === 'ready' && !quote.quote.payable;
  const canPay = signedIn && accepted.terms && accepted.refunds && quote.status === 'ready' && !overLimit && !paying;
  let step = 0;

  return (
    <>
      <Section step={++step} title="Review your order" id="checkout-review">
        <Typography data-testid="checkout-total" sx={{ mb: 1, color: 'text.secondary' }}>
          {quote.status === 'ready' ? `${totalQuantities} item${totalQuantities === 1 ? '' : 's'}, total ${formatUsd(quote.quote.total)}` : 'Pricing your cart…'}
        </Typography>
        <Box component="ul" sx={{ m: 0, p: 0 }} aria-label="Order lines">
          {items.map((item, index) => (
            <ReviewLine key={item.uniqueId} item={item} items={items} amount={amounts?.[index] ?? null} />
          ))}
        </Box>
        {overLimit && <TalkToSales items={items} total={quote.quote.total} />}
        {quote.status === 'failed' && (
          <Alert severity="error" action={<Button onClick={quote.retry}>Retry</Button>} sx={{ mt: 2 }}>
            The prices could not be loaded: {quote.message}
          </Alert>
        )}
        <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline', borderTop: '2px solid', borderColor: 'divider', pt: 2, mt: 1 }}>
          <Typography sx={{ fontWeight: 700 }}>Due today</Typography>
          <Typography data-testid="checkout-amount-due" data-cents={quote.status === 'ready' ? quote.quote.total : undefined} sx={{ fontWeight: 700, fontSize: 22 }}>
            {quote.status === 'ready' ? formatUsd(quote.quote.total) : quote.status === 'loading' ? <Skeleton width={110} /> : '—'}
          </Typography>
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          Prices in US dollars, as quoted by our server. Every line is a subscription: it renews as shown until you turn renewal off in your account.
        </Typography>
      </Section>

      <Section step={++step} title="Your account" id="checkout-account">
        <AccountStep />
      </Section>

      {certificates.length > 0 && (
        <Section step={++step} title="Certificate details" id="checkout-details">
          <Typography color="text.secondary" sx={{ mb: 2, fontSize: 15 }}>
            What the certificate authority validates. You can pay now and finish a certificate's details later from its order; it stays incomplete until you do.
          </Typography>
          {!signedIn ? (
            <Alert severity="info">Sign in or create your account above to enter the details (your organizations and contacts are in your account).</Alert>
          ) : (
            <Box sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
              {choices.failure && (
                <Alert severity="error" action={<Button onClick={choices.reload}>Retry</Button>}>
                  {choices.failure}
                </Alert>
              )}
              {certificates.map((item) => {
                const { draft, later } = detailsOf(item);
                const name = lineName(item);
                return (
                  <Box key={item.uniqueId} data-testid="certificate-details" sx={{ border: '1px solid', borderColor: 'divider', borderRadius: 2, p: { xs: 1.5, md: 2.5 } }}>
                    <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 1, flexWrap: 'wrap', mb: later ? 0 : 2 }}>
                      <Box>
                        <Typography component="h3" sx={{ fontWeight: 700 }}>
                          {name}
                        </Typography>
                        <Typography variant="body2" color="text.secondary">
                          {describeOptions(item)}
                        </Typography>
                      </Box>
                      <FormControlLabel
                        control={<Switch checked={later} onChange={(e) => setDraft(item.uniqueId, { draft, later: e.target.checked })} />}
                        label="Finish these details later"
                        slotProps={{ typography: { sx: { fontSize: 15 } } }}
                      />
                    </Box>
                    {!later && (
                      <CertificateDetailsForm
                        name={name}
                        productId={item.id}
                        draft={draft}
                        errors={errors[item.uniqueId] ?? {}}
                        organizations={choices.organizations}
                        contacts={choices.contacts}
                        onChange={(next) => setDraft(item.uniqueId, { draft: next, later })}
                        onCreateOrganization={choices.createOrganization}
                        onCreateContact={choices.createContact}
                      />
                    )}
                  </Box>
                );
              })}
            </Box>
          )}
        </Section>
      )}

      <Section step={++step} title="Pay" id="checkout-pay">
        <Box sx={{ display: 'flex', flexDirection: 'column' }}>
          <FormControlLabel
            control={<Checkbox checked={accepted.terms} onChange={(e) => setAccepted({ ...accepted, terms: e.target.checked })} />}
            label={
              <>
                I accept the{' '}
                <Link href="/terms" target="_blank" rel="noopener">
                  terms of service
                </Link>
              </>
            }
          />
          <FormControlLabel
            control={<Checkbox checked={accepted.refunds} onChange={(e) => setAccepted({ ...accepted, refunds: e.target.checked })} />}
            label={
              <>
                I accept the{' '}
                <Link href="/refund-policy" target="_blank" rel="noopener">
                  refund policy
                </Link>
              </>
            }
          />
        </Box>
        {failure && (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="checkout-failure">
            {failure}
          </Alert>
        )}
        {confirming && (
          <Alert
            severity="info"
            sx={{ mt: 2 }}
            data-testid="checkout-being-confirmed"
            action={
              <Button component={RouterLink} to="/account/orders" color="inherit" size="small">
                View your orders
              </Button>
            }
          >
            {confirming}
          </Alert>
        )}
        {duplicate && (
          <Alert
            severity="warning"
            sx={{ mt: 2 }}
            data-testid="checkout-duplicate"
            action={
              <Button color="inherit" size="small" onClick={() => void pay(true)} disabled={paying} data-testid="checkout-duplicate-confirm">
                Buy anyway
              </Button>
            }
          >
            {duplicate}
          </Alert>
        )}
        {!signedIn && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
            Sign in or create your account to pay.
          </Typography>
        )}
        {overLimit && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }} data-testid="checkout-over-limit">
            This cart is above what one payment can take: talk to sales (step 1), or remove items to pay online.
          </Typography>
        )}
        <Button variant="contained" size="large" startIcon={<LockOutlined />} disabled={!canPay} onClick={() => void pay()} sx={{ mt: 2, width: { xs: '100%', sm: 'auto' } }}>
          {paying ? 'Taking you to payment…' : quote.status === 'ready' ? `Pay ${formatUsd(quote.quote.total)}` : 'Pay'}
        </Button>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
          You pay by card on our payment provider's secure page, then come back here.
        </Typography>
      </Section>
    </>
  );
}
