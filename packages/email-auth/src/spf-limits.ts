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
/**
 * The longest record this checker reads, in bytes. The bff reads records on its event loop, and
 * terms cost time each: a 58 KB record of 29,000 "a" terms took about half a second to parse and walk.
 * Real records stay far under it (RFC 7208 asks for 450 bytes); a longer one is reported, not read.
 */
export const SPF_READ_LIMIT = 4096;
/**
 * Terms one inspection reads in all (every record of the include tree): past it, no further record
 * is read and the tree is cut. What costs is terms, not bytes; a tree of 40 records of 450 bytes
 * holds about 1,500.
 */
export const SPF_WALK_TERM_LIMIT = 2000;
/**
 * Mechanisms one evaluation tries in all, across the records it reaches. Lookups stop at 10, but
 * ip4 and ip6 terms do not: eleven records of 4 KB hold thousands. Past it the check ends as a
 * permanent error, said to be this checker's limit.
 */
export const SPF_EVALUATION_TERM_LIMIT = 1000;
/**
 * The longest text one macro-string may expand to. A domain-spec is cut to 253 characters anyway
 * (§4.8); without a bound, a record of thousands of %{S} and a long sender expanded to megabytes.
 */
export const SPF_MACRO_EXPANSION_LIMIT = 2048;
