export * from './spec.js';
export * from './client.js';
export * from './slots.js';
export * from './patch.js';
