export * from './errors.js';
export * from './paths.js';
export * from './protocol.js';
export * from './rest.js';
export * from './feedback.js';
export * from './session.js';
export * from './prefetch.js';
