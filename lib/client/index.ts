export * from './client';
export * from './errors';
export * from './history';
export * from './inspect';
export * from './types';
export * from './stack';
export * from './format';
