/** The surfaces a delivery comes from (one metrics label each). */
export const SURFACES = ['stream', 'stream_all', 'poll', 'poll_eval', 'flags'] as const;
export type Surface = (typeof SURFACES)[number];
