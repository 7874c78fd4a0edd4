// The built-in test payments' HTML: the page frame (marked TEST MODE), the card fields and the
// words for a renewal period. Plain HTML with no script: the payment and add-a-card pages post forms.
import { escapeHtml } from '../../../lib/html';

export function renewalWords(interval: 'month' | 'year', count: number): string {
  if (count === 1) return interval === 'month' ? 'every month' : 'every year';
  return `every ${count} ${interval}s`;
}

export function cardFields(): string {
  return `<p class="hint">Test card: <strong>4242 4242 4242 4242</strong>, any future expiry, any 3 digits.</p>
  <label for="cardNumber">Card number</label>
  <input id="cardNumber" name="cardNumber" inputmode="numeric" autocomplete="cc-number" required placeholder="4242 4242 4242 4242" aria-describedby="card-error">
  <div class="row">
    <div><label for="expiry">Expiry (MM/YY)</label>
    <input id="expiry" name="expiry" autocomplete="cc-exp" required placeholder="12/34"></div>
    <div><label for="cvc">Security code</label>
    <input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required placeholder="123"></div>
  </div>
  <label for="name">Name on card</label>
  <input id="name" name="name" autocomplete="cc-name">`;
}

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · BIMI Store</title><link rel="icon" href="data:,">
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f5f6f8;color:#1a1a1a;line-height:1.5}
.banner{background:#8a4b00;color:#fff;padding:.75rem 1rem;text-align:center;font-weight:600}
main{max-width:32rem;margin:1.5rem auto;background:#fff;padding:1.5rem;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.15)}
h1{font-size:1.5rem;margin-top:0}table{width:100%;border-collapse:collapse;margin-bottom:1rem}caption{text-align:left;font-weight:600;margin-bottom:.25rem}
th,td{padding:.4rem .25rem;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}.amount{text-align:right;white-space:nowrap}
label{display:block;font-weight:600;margin-top:.75rem}input{width:100%;box-sizing:border-box;font-size:1rem;padding:.6rem;border:1px solid #767676;border-radius:4px}
input:focus,button:focus,a:focus{outline:3px solid #1a5fb4;outline-offset:2px}
.row{display:flex;gap:1rem}.row>div{flex:1}
button{margin-top:1.25rem;width:100%;font-size:1.05rem;padding:.75rem;background:#1a5fb4;color:#fff;border:0;border-radius:4px;cursor:pointer}
.done{background:#e6f4ea;color:#0d5223;border-left:4px solid #1e7e34;padding:.6rem .75rem}.error{background:#fdecea;color:#8c1d18;border-left:4px solid #b3261e;padding:.6rem .75rem}.hint{color:#444;font-size:.95rem}
</style></head>
<body><p class="banner" role="note">TEST MODE: this is a test payment page. No real card is charged; use the test card 4242 4242 4242 4242.</p>
<main>${body}</main></body></html>`;
}
