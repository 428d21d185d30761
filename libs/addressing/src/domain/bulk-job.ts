/**
 * POST /v2/hexcode/bulk above MAX_BULK_ITEMS (the synchronous limit) runs as
 * a job (issue 48, item 2), up to this many items; the body must still fit
 * BODY_LIMIT_BYTES and the JSON body limits (100,000 values: about 33,000
 * point items, or 50,000 codes, within 1 MiB). Above it the request is refused
 * as before (400 INVALID_PARAM naming `items`).
 */
export const MAX_BULK_JOB_ITEMS = 50_000;
