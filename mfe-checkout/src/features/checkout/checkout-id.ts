/**
 * The checkout a return from the payment page is about. The bff names it in the success and
 * cancel URLs it gives the provider: /checkout/success?checkout={checkoutId}
 * (`checkoutId` and `checkout_id` are read too).
 */
export function checkoutIdFrom(params: URLSearchParams): string | null {
  const id = params.get('checkout') ?? params.get('checkoutId') ?? params.get('checkout_id');
  return id && id.length <= 64 ? id : null;
}
