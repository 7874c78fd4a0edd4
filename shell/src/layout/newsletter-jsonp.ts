import { NewsletterResult } from '@bimi/contracts/newsletter';

const TIMEOUT_MS = 10_000;
let sequence = 0;

/**
 * Spec §7: the mailing-list provider is called in cross-domain script style: a script
 * element whose answer calls back a global function with `{result, msg}`.
 */
export function subscribeToNewsletter(endpoint: string, email: string): Promise<NewsletterResult> {
  return new Promise((resolve, reject) => {
    const callback = `__newsletter_cb_${Date.now().toString(36)}_${++sequence}`;
    const url = new URL(endpoint, window.location.href);
    url.searchParams.set('email', email);
    url.searchParams.set('c', callback);
    const script = document.createElement('script');
    const globals = window as unknown as Record<string, unknown>;
    const finish = () => {
      window.clearTimeout(timer);
      delete globals[callback];
      script.remove();
    };
    const timer = window.setTimeout(() => {
      finish();
      reject(new Error('The newsletter service did not answer'));
    }, TIMEOUT_MS);
    globals[callback] = (answer: unknown) => {
      finish();
      const parsed = NewsletterResult.safeParse(answer);
      if (parsed.success) resolve(parsed.data);
      else reject(new Error('The newsletter service answered in an unexpected shape'));
    };
    script.onerror = () => {
      finish();
      reject(new Error('The newsletter service could not be reached'));
    };
    script.src = url.href;
    document.head.appendChild(script);
  });
}
