/** Largest frame a client may send on a socket; ws refuses a larger one from its header, unread. */
export const MAX_FRAME_BYTES = 128 * 1024;
