/**
 * RFC 7208's SPF limits, on their own so a page can show them without bringing in the SPF parser
 * (and ipaddr.js) that @bimi/email-auth/spf needs.
 */

/** DNS-querying terms (include, a, mx, ptr, exists, redirect) allowed per evaluation (§4.6.4). */
export const SPF_LOOKUP_LIMIT = 10;
/** Lookups that may find nothing before the evaluation is a permanent error (§4.6.4). */
export const SPF_VOID_LOOKUP_LIMIT = 2;
/** Bytes a record may take to stay within one UDP answer (§3.4). */
export const SPF_RECORD_SIZE_LIMIT = 450;
