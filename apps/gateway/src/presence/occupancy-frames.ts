/**
 * Occupancy frames are @rtm/presence's (libs/presence/src/occupancy-frames.ts); the occupancy
 * route (routes/occupancy.ts) still imports its refusal from here.
 */
export { presenceOff } from '@rtm/presence';
