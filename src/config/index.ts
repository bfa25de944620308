export * from './types.js';
export * from './defaults.js';
export * from './validate.js';
export * from './texts.js';
export * from './theme.js';
export * from './attributes.js';
export * from './language.js';
export * from './cache.js';
