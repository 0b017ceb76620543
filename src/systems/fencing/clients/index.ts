export * from './replies.js';
export * from './version-client.js';
export * from './operator-client.js';
